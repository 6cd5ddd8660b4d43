// The onnxtxt language server in a Web Worker (the playground; later VS Code for the Web): the
// same handlers as main.ts (serve.ts) over vscode-languageserver/browser's message port
// transport. Bundled by scripts/bundle-browser-server.ts, which swaps the Node-only modules
// for browser ones (run-command.ts -> browser/run-command.ts) and fails on any Node built-in.
import "./browser/immediate.js";
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from "vscode-languageserver/browser";
import type { Connection } from "vscode-languageserver/node";
import { describe } from "./guard.js";
import { connectionOptions, serve } from "./serve.js";

interface WorkerScope {
  addEventListener(type: "error" | "unhandledrejection", listener: (e: { error?: unknown; reason?: unknown; message?: string }) => void): void;
}

function startServer(): void {
  const scope = globalThis as unknown as WorkerScope;
  const positions = { count: 0 };
  const connection = createConnection(
    ProposedFeatures.all,
    new BrowserMessageReader(scope as never),
    new BrowserMessageWriter(scope as never),
    connectionOptions(positions),
  );
  // Whatever escapes a handler is logged; the server keeps serving.
  scope.addEventListener("error", (e) => connection.console.error(`uncaught: ${describe(e.error ?? e.message)}`));
  scope.addEventListener("unhandledrejection", (e) => connection.console.error(`unhandled rejection: ${describe(e.reason)}`));
  // The browser connection is the Node one but for its transport: same type, other package entry.
  serve(connection as unknown as Connection, () => false, positions);
}

startServer();
