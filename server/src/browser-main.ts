// The onnxtxt language server in a browser's Web Worker (VS Code for the Web): the same
// handlers as the Node server (main.ts) over the worker's message port, with runs in a nested
// worker (run-browser.ts).
import "./immediate-polyfill.js";
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from "vscode-languageserver/browser";
import { withEmbeddedDocuments } from "./embedded/connection.js";
import { describe } from "./guard.js";
import { registerHandlers } from "./handlers.js";
import { wrapMalformedParams } from "./params.js";
import { positionRequestsFirst } from "./priority.js";
import { browserRuns } from "./run-browser.js";

/** The worker's global scope, as far as it is used here (this project compiles without the DOM library). */
interface WorkerScope {
  addEventListener(type: "unhandledrejection" | "error", listener: (e: { reason?: unknown; error?: unknown }) => void): void;
}
declare const self: WorkerScope;
/** The reader and writer take the scope as their port. */
const port = self as unknown as ConstructorParameters<typeof BrowserMessageReader>[0];

const positions = { count: 0 };
const connection = createConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port), {
  messageStrategy: positionRequestsFirst(wrapMalformedParams, () => positions.count > 0),
});
// Whatever escapes a handler is logged; the server keeps serving.
self.addEventListener("error", (e) => connection.console.error(`uncaught: ${describe(e.error)}`));
self.addEventListener("unhandledrejection", (e) => connection.console.error(`unhandled rejection: ${describe(e.reason)}`));
registerHandlers(withEmbeddedDocuments(connection), browserRuns, () => false, positions);
connection.listen();
