// The onnxtxt language server: `onnxtxt-ls --stdio` or `--node-ipc`. Over stdio the streams
// are ours (stdio.ts); otherwise vscode-languageserver reads the transport from the command
// line. Wires the connection to the handlers (serve.ts, shared with browser-main.ts).
import * as fs from "node:fs";
import {
  createConnection,
  IPCMessageReader,
  IPCMessageWriter,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  StreamMessageReader,
} from "vscode-languageserver/node";
import { countingReader } from "./arrivals.js";
import { describe } from "./guard.js";
import { nodeRuns } from "./run-node.js";
import { orderState } from "./priority.js";
import { connectionOptions, serve } from "./serve.js";
import { adoptStdio, ImmediateWriter } from "./stdio.js";
import { watchOutput } from "./transport.js";
import { traceBlocking, traceTo } from "./trace.js";
import { traceCollections } from "./trace-gc.js";
import { setSliceMs } from "./slices.js";
import { useConfigSource } from "./lint-config.js";
import { nodeConfigSource } from "./node-config.js";

function startServer(): void {
  const outputPending = watchOutput();
  const state = orderState();
  // ONNXTXT_LS_TRACE=1: a timeline of the messages on stderr (trace.ts); =FILE: appended to FILE.
  const traceTarget = process.env.ONNXTXT_LS_TRACE;
  const traceFile = traceTarget && traceTarget !== "1" ? fs.createWriteStream(traceTarget, { flags: "a" }) : undefined;
  const trace = traceTarget ? traceTo((line) => (traceFile ?? process.stderr).write(line)) : undefined;
  const options = connectionOptions(state, trace);
  // ONNXTXT_LS_SLICE_MS: the length of a slice of whole-document work (tests: 0, a pause at every step).
  const sliceMs = Number(process.env.ONNXTXT_LS_SLICE_MS);
  if (process.env.ONNXTXT_LS_SLICE_MS && Number.isFinite(sliceMs) && sliceMs >= 0) setSliceMs(sliceMs);
  const stdio = process.argv.includes("--stdio");
  // Over stdio and Node IPC (VS Code's) the reader counts what it reads (arrivals.ts); other
  // transports vscode-languageserver reads from the command line are taken as they are.
  const connection = stdio
    ? createConnection(ProposedFeatures.all, countingReader(new StreamMessageReader(process.stdin), state), new ImmediateWriter(process.stdout, trace), options)
    : process.argv.includes("--node-ipc") && process.send
      ? createConnection(ProposedFeatures.all, countingReader(new IPCMessageReader(process), state), new IPCMessageWriter(process), options)
      : createConnection(ProposedFeatures.all, options);
  if (stdio) adoptStdio(connection);
  // The monotonic clock of a --cpu-prof profile at this moment, to line the two up.
  trace?.(`monotonic ${process.hrtime.bigint() / 1000n} us`);
  if (trace) {
    traceBlocking(trace);
    traceCollections(trace);
  }
  // When bytes arrive, as opposed to when the connection takes the message ("in").
  if (stdio && trace) process.stdin.on("data", (chunk: Buffer) => trace(`read ${chunk.length} B`));
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
  serve(connection, nodeRuns, outputPending, state);
}

startServer();
