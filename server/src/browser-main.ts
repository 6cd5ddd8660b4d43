// The onnxtxt language server in a Web Worker (the playground, VS Code for the Web): the same
// handlers as main.ts (serve.ts) over vscode-languageserver/browser's message port transport,
// with runs in a nested worker (run-browser.ts). Bundled by scripts/bundle-browser-server.ts,
// which fails on any Node built-in.
import "./browser/immediate.js";
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from "vscode-languageserver/browser";
import { describe } from "./guard.js";
import { browserRuns } from "./run-browser.js";
import { orderState } from "./priority.js";
import { countingReader } from "./arrivals.js";
import { connectionOptions, serve } from "./serve.js";

interface WorkerScope {
  addEventListener(type: "error" | "unhandledrejection", listener: (e: { error?: unknown; reason?: unknown; message?: string }) => void): void;
}

function startServer(): void {
  const scope = globalThis as unknown as WorkerScope;
  const state = orderState();
  const connection = createConnection(
    ProposedFeatures.all,
    countingReader(new BrowserMessageReader(scope as never), state),
    new BrowserMessageWriter(scope as never),
    connectionOptions(state),
  );
  // Whatever escapes a handler is logged; the server keeps serving.
  scope.addEventListener("error", (e) => connection.console.error(`uncaught: ${describe(e.error ?? e.message)}`));
  scope.addEventListener("unhandledrejection", (e) => connection.console.error(`unhandled rejection: ${describe(e.reason)}`));
  serve(connection, browserRuns, () => false, state);
}

startServer();
