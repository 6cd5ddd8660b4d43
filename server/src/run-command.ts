// `workspace/executeCommand` `onnxtxt.run`: reads test_data_set_0 beside the file (the only
// file IO of a run), runs the cell in a worker thread (run-worker.ts) so the server keeps
// answering, terminates it when an edit makes it stale, and keeps the values for hovers.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ErrorCodes, ResponseError } from "vscode-languageserver/node";
import type { RunJob, RunReply } from "./run-protocol.js";
import type { Workspace } from "./workspace.js";

/** The worker script, beside this module (a bundler must emit it as its own entry). */
const WORKER_URL = new URL("./run-worker.js", import.meta.url);

/** One worker kept warm between runs; a cancelled run's worker is terminated instead. */
let idle: Worker | undefined;

function takeWorker(): Worker {
  const w = idle ?? new Worker(WORKER_URL);
  idle = undefined;
  return w;
}

function release(w: Worker): void {
  if (idle) void w.terminate();
  else {
    idle = w;
    w.unref();
  }
}

function runInWorker(job: RunJob, signal: AbortSignal): Promise<RunReply> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve({ ok: false, message: "the run was cancelled by an edit" });
    const worker = takeWorker();
    worker.ref();
    const finish = (): void => {
      signal.removeEventListener("abort", cancel);
      worker.off("message", onMessage);
      worker.off("error", onError);
    };
    const cancel = (): void => {
      finish();
      void worker.terminate();
      resolve({ ok: false, message: "the run was cancelled by an edit" });
    };
    const onMessage = (reply: RunReply): void => {
      finish();
      release(worker);
      resolve(reply);
    };
    const onError = (e: Error): void => {
      finish();
      void worker.terminate();
      reject(e);
    };
    signal.addEventListener("abort", cancel, { once: true });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.postMessage(job);
  });
}

export interface RunArguments {
  readonly uri: string;
  readonly graph?: string;
  readonly inputs?: Record<string, string>;
}

export interface RunResponse {
  readonly outputs: { name: string; type: string; text: string }[];
  readonly elapsedMs: number;
  readonly inputSources: Readonly<Record<string, string>>;
}

/** input_0.pb, input_1.pb, ... of `test_data_set_0` next to the document, if it is a file. */
function readDataSet(uri: string): (Uint8Array | undefined)[] | undefined {
  if (!uri.startsWith("file:")) return undefined;
  const dir = path.join(path.dirname(fileURLToPath(uri)), "test_data_set_0");
  if (!fs.existsSync(dir)) return undefined;
  const files: (Uint8Array | undefined)[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, `input_${i}.pb`);
    if (!fs.existsSync(file)) return files;
    files.push(fs.readFileSync(file));
  }
}

function validArguments(args: unknown): RunArguments {
  const a = (Array.isArray(args) ? args[0] : undefined) as Partial<RunArguments> | undefined;
  if (!a || typeof a.uri !== "string") {
    throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt.run expects [{ uri, graph?, inputs? }]");
  }
  if (a.inputs !== undefined && (typeof a.inputs !== "object" || Object.values(a.inputs).some((v) => typeof v !== "string"))) {
    throw new ResponseError(ErrorCodes.InvalidParams, "onnxtxt.run: inputs must map input names to tensor constants (strings)");
  }
  return a as RunArguments;
}

export async function runCommand(workspace: Workspace, args: unknown): Promise<RunResponse> {
  const { uri, graph, inputs } = validArguments(args);
  const doc = workspace.document(uri);
  if (!doc) throw new ResponseError(ErrorCodes.InvalidParams, `document not open: ${uri}`);
  const run = workspace.beginRun(uri)!;
  const dataSet = readDataSet(uri);
  const r = await runInWorker(
    { text: doc.getText(), ...(graph !== undefined ? { graph } : {}), ...(inputs !== undefined ? { inputs } : {}), ...(dataSet ? { dataSet } : {}) },
    run.signal,
  );
  if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
  workspace.recordRun(uri, run.version, { graph: r.graph, values: new Map(r.values), elapsedMs: r.elapsedMs });
  return { outputs: r.outputs, elapsedMs: r.elapsedMs, inputSources: r.inputSources };
}

/** One short message for clients that show no run view: each output's type and first values. */
export function runSummary(r: RunResponse): string {
  const outputs = r.outputs.map((o) => {
    const text = o.text.replace(/\s+/g, " ");
    return `${o.name}: ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
  });
  return `Run finished in ${r.elapsedMs.toFixed(0)} ms. ${outputs.join("; ")}`;
}
