// `onnxtxt.run`: asks the server to run a graph (from a code lens or the palette) and puts
// the outputs, or the failure at its node, into the output view.
import { locateFailedNode } from "./failure-location.js";
import type { RunCellArguments } from "../../core/src/ide/run-cell.js";
import { checkRunResult, runFailureOf, type RunFailure } from "./run-protocol.js";
import type { RunViewModel } from "./run-view.js";

export interface RunHost {
  /** The URI of the active onnxtxt editor, for a run from the palette. */
  activeDocumentUri(): string | undefined;
  /** The current text of an open document, to find a failed node the server did not place. */
  documentText(uri: string): string | undefined;
  /** Sends workspace/executeCommand `onnxtxt.run` to the server. */
  execute(args: RunCellArguments): Promise<unknown>;
  show(model: RunViewModel): void;
  /** Marks the failing node in the editor; called with undefined to clear the mark. */
  markFailure(uri: string, failure: RunFailure | undefined): void;
  error(message: string): void;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The code lens passes `{ uri, graph?, inputs? }`; the palette passes nothing. */
export function runArgumentsOf(args: readonly unknown[], activeUri: string | undefined): RunCellArguments | undefined {
  const first = args[0];
  if (isRecord(first) && typeof first.uri === "string") {
    const inputs = isRecord(first.inputs) ? (first.inputs as Record<string, string>) : undefined;
    return { uri: first.uri, ...(typeof first.graph === "string" && { graph: first.graph }), ...(inputs && { inputs }) };
  }
  if (typeof first === "string") return { uri: first };
  return activeUri === undefined ? undefined : { uri: activeUri };
}

function titleOf(args: RunCellArguments): string {
  // an ONNX text in a host file runs as `host#onnxtxt-region-N`: the title names the host file
  const path = args.uri.replace(/#.*$/, "");
  const file = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  return args.graph ? `${args.graph} (${file})` : file;
}

export async function runCell(args: readonly unknown[], host: RunHost, maxTensorElements: number): Promise<RunViewModel | undefined> {
  const request = runArgumentsOf(args, host.activeDocumentUri());
  if (!request) {
    host.error("Run Graph needs an open .onnxtxt file.");
    return undefined;
  }
  const title = titleOf(request);
  host.markFailure(request.uri, undefined);
  host.show({ title, outputs: [], limits: [], running: true });
  let model: RunViewModel;
  try {
    const answer = await host.execute(request);
    const result = checkRunResult(answer);
    if (typeof result === "string") throw new Error(result);
    model = {
      title,
      outputs: result.outputs,
      elapsedMs: result.elapsedMs,
      ...(result.inputSources && { inputSources: result.inputSources }),
      limits: result.outputs.map(() => maxTensorElements),
    };
  } catch (e) {
    const failure = placeFailure(runFailureOf(e), request, host);
    if (failure.range) host.markFailure(failure.uri ?? request.uri, failure);
    model = { title, outputs: [], failure, limits: [] };
  }
  host.show(model);
  return model;
}

function placeFailure(failure: RunFailure, request: RunCellArguments, host: RunHost): RunFailure {
  if (failure.range) return failure;
  const text = host.documentText(failure.uri ?? request.uri);
  const found = text === undefined ? undefined : locateFailedNode(text, failure.message, request.graph);
  return found ? { ...failure, range: found.range, node: failure.node ?? found.node } : failure;
}

/** `Show more` multiplies an output's limit; `Show all` lifts it. */
export function widenLimit(model: RunViewModel, output: number, all: boolean): RunViewModel {
  if (!Number.isInteger(output) || output < 0 || output >= model.limits.length) return model;
  const limits = model.limits.slice();
  limits[output] = all ? Number.MAX_SAFE_INTEGER : limits[output]! * 10;
  return { ...model, limits };
}
