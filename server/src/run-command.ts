// `workspace/executeCommand` `onnxtxt.run`: reads test_data_set_0 beside the file (the only
// file IO of a run), runs the cell through core/ide, and keeps the values for hovers.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ErrorCodes, ResponseError } from "vscode-languageserver/node";
import { runCell } from "../../core/src/ide/run-cell.js";
import type { Workspace } from "./workspace.js";

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
  const analysis = workspace.analysis(uri);
  if (!analysis) throw new ResponseError(ErrorCodes.InvalidParams, `document not open: ${uri}`);
  const run = workspace.beginRun(uri)!;
  const dataSet = readDataSet(uri);
  try {
    const r = await runCell(analysis, {
      ...(graph !== undefined ? { graph } : {}),
      ...(inputs !== undefined ? { inputs } : {}),
      ...(dataSet ? { dataSet } : {}),
      signal: run.signal,
    });
    workspace.recordRun(uri, run.version, r.values);
    return { outputs: r.outputs, elapsedMs: r.elapsedMs, inputSources: r.inputSources };
  } catch (e) {
    if (e instanceof ResponseError) throw e;
    throw new ResponseError(ErrorCodes.InvalidRequest, e instanceof Error ? e.message : String(e));
  }
}
