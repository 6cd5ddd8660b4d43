// The `onnxtxt.run` request and its answer, as the language server defines them
// (workspace/executeCommand with one argument object).
import type { RunCellAnswer, RunCellOutput } from "../../core/src/ide/run-cell.js";

/** The server's answer as read here: a server that names no input sources is still understood. */
export type RunResult = Omit<RunCellAnswer, "inputSources"> & Partial<Pick<RunCellAnswer, "inputSources">>;

interface LspPosition {
  readonly line: number;
  readonly character: number;
}

export interface LspRange {
  readonly start: LspPosition;
  readonly end: LspPosition;
}

/** Where a run failed, when the server says so in the error's `data`. */
export interface RunFailure {
  readonly message: string;
  readonly uri?: string;
  readonly range?: LspRange;
  /** The failing node's label, output or op, for the message. */
  readonly node?: string;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isPosition(x: unknown): x is LspPosition {
  return isRecord(x) && typeof x.line === "number" && typeof x.character === "number";
}

function isRange(x: unknown): x is LspRange {
  return isRecord(x) && isPosition(x.start) && isPosition(x.end);
}

/** Checks an answer's shape; returns a reason when it is not a RunResult. */
export function checkRunResult(x: unknown): RunResult | string {
  if (!isRecord(x)) return "the server sent no result";
  const outputs = x.outputs;
  if (!Array.isArray(outputs)) return "the server's result has no outputs";
  for (const o of outputs) {
    if (!isRecord(o) || typeof o.name !== "string" || typeof o.type !== "string" || typeof o.text !== "string") {
      return "the server's result has a malformed output";
    }
  }
  const elapsedMs = typeof x.elapsedMs === "number" ? x.elapsedMs : NaN;
  const sources = isRecord(x.inputSources) ? Object.entries(x.inputSources).filter((e): e is [string, string] => typeof e[1] === "string") : [];
  return { outputs: outputs as RunCellOutput[], elapsedMs, ...(sources.length > 0 && { inputSources: Object.fromEntries(sources) }) };
}

/** Reads a failure from a thrown error (a JSON-RPC ResponseError carries `data`). */
export function runFailureOf(error: unknown): RunFailure {
  const message = error instanceof Error ? error.message : isRecord(error) && typeof error.message === "string" ? error.message : String(error);
  const data = isRecord(error) ? error.data : undefined;
  if (!isRecord(data)) return { message };
  return {
    message,
    ...(typeof data.uri === "string" && { uri: data.uri }),
    ...(isRange(data.range) && { range: data.range }),
    ...(typeof data.node === "string" && { node: data.node }),
  };
}
