// `workspace/executeCommand` `onnxtxt.run`: checks the arguments, runs the cell through the
// platform's RunPlatform (a worker thread and the files beside the document in Node,
// run-node.ts; a Web Worker in a browser, run-browser.ts) so the server keeps answering,
// cancels it when an edit makes it stale, and keeps the values for hovers.
import { ErrorCodes, ResponseError } from "vscode-languageserver";
import type { RunCellAnswer, RunCellArguments } from "../../core/src/ide/run-cell.js";
import type { RunJob, RunReply } from "./run-protocol.js";
import type { Workspace } from "./workspace.js";

/** Where runs happen and where their input files come from. */
export interface RunPlatform {
  /** Runs a job off the server's thread; `signal` cancels it. */
  runJob(job: RunJob, signal: AbortSignal): Promise<RunReply>;
  /** input_N.pb of the data set beside the document, when it has one the platform can read. */
  readDataSet(uri: string): Promise<Uint8Array[] | undefined>;
  /** Takes what the client said at start-up (its initializationOptions). */
  initialize?(options: unknown): void;
}

function validArguments(args: unknown): RunCellArguments {
  const a = (Array.isArray(args) ? args[0] : undefined) as Partial<RunCellArguments> | undefined;
  if (!a || typeof a.uri !== "string") {
    throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt.run expects [{ uri, graph?, inputs? }]");
  }
  if (a.inputs !== undefined && (typeof a.inputs !== "object" || Object.values(a.inputs).some((v) => typeof v !== "string"))) {
    throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt.run: inputs must map input names to tensor constants (strings)");
  }
  return a as RunCellArguments;
}

export async function runCommand(workspace: Workspace, args: unknown, platform: RunPlatform): Promise<RunCellAnswer> {
  const { uri, graph, inputs } = validArguments(args);
  if (!workspace.document(uri)) throw new ResponseError(ErrorCodes.InvalidParams, `document not open: ${uri}`);
  const dataSet = await platform.readDataSet(uri);
  // The document may have been closed while the files were read.
  const doc = workspace.document(uri);
  const run = doc && workspace.beginRun(uri);
  if (!doc || !run) throw new ResponseError(ErrorCodes.InvalidParams, `document not open: ${uri}`);
  const r = await platform.runJob(
    { text: doc.getText(), ...(graph !== undefined ? { graph } : {}), ...(inputs !== undefined ? { inputs } : {}), ...(dataSet ? { dataSet } : {}) },
    run.signal,
  );
  if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
  workspace.recordRun(uri, run.version, { graph: r.graph, values: new Map(r.values), elapsedMs: r.elapsedMs });
  return { outputs: r.outputs, elapsedMs: r.elapsedMs, inputSources: r.inputSources };
}
