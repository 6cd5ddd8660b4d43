// The onnxtxt language server: `onnxtxt-ls --stdio` or `--node-ipc`. Over stdio the streams
// are ours (stdio.ts); otherwise vscode-languageserver reads the transport from the command
// line. Wires the connection to the handlers.
import { createConnection, ProposedFeatures, StreamMessageReader } from "vscode-languageserver/node";
import { describe } from "./guard.js";
import { registerHandlers } from "./handlers.js";
import { withEmbeddedDocuments } from "./embedded/connection.js";
import { wrapMalformedParams } from "./params.js";
import { positionRequestsFirst } from "./priority.js";
import { nodeRuns } from "./run-node.js";
import { adoptStdio, ImmediateWriter } from "./stdio.js";
import { watchOutput } from "./transport.js";

function startServer(): void {
  const outputPending = watchOutput();
  const positions = { count: 0 };
  const options = { messageStrategy: positionRequestsFirst(wrapMalformedParams, () => positions.count > 0) };
  const stdio = process.argv.includes("--stdio");
  const connection = stdio
    ? createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new ImmediateWriter(process.stdout), options)
    : createConnection(ProposedFeatures.all, options);
  if (stdio) adoptStdio(connection);
  // Whatever escapes a handler is logged; the server keeps serving.
  process.on("uncaughtException", (e) => connection.console.error(`uncaught: ${describe(e)}`));
  process.on("unhandledRejection", (e) => connection.console.error(`unhandled rejection: ${describe(e)}`));
  registerHandlers(withEmbeddedDocuments(connection), nodeRuns, outputPending, positions);
  connection.listen();
}

startServer();
