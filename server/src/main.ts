// The onnxtxt language server: `onnxtxt-ls --stdio` or `--node-ipc`. Over stdio the streams
// are ours (stdio.ts); otherwise vscode-languageserver reads the transport from the command
// line. Wires the connection to the handlers (serve.ts, shared with browser-main.ts).
import { createConnection, MessageType, ProposedFeatures, ShowMessageNotification, StreamMessageReader } from "vscode-languageserver/node";
import { describe } from "./guard.js";
import { nodeRuns } from "./run-node.js";
import { connectionOptions, serve } from "./serve.js";
import { adoptStdio, ImmediateWriter } from "./stdio.js";
import { watchOutput } from "./transport.js";
import { useConfigSource } from "./lint-config.js";
import { nodeConfigSource } from "./node-config.js";

function startServer(): void {
  const outputPending = watchOutput();
  const positions = { count: 0 };
  const options = connectionOptions(positions);
  const stdio = process.argv.includes("--stdio");
  const connection = stdio
    ? createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new ImmediateWriter(process.stdout), options)
    : createConnection(ProposedFeatures.all, options);
  if (stdio) adoptStdio(connection);
  // Whatever escapes a handler is logged; the server keeps serving.
  process.on("uncaughtException", (e) => connection.console.error(`uncaught: ${describe(e)}`));
  process.on("unhandledRejection", (e) => connection.console.error(`unhandled rejection: ${describe(e)}`));
  // a configuration with a mistake: on the log, and once in front of the user
  useConfigSource(
    nodeConfigSource((m) => {
      connection.console.error(m);
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: m });
    }),
  );
  serve(connection, nodeRuns, outputPending, positions);
}

startServer();
