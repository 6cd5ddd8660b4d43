// Run-cell: runs the document's main graph (or one of its functions) with the interpreter and
// returns each output as a tensor constant, plus every intermediate value for hovers.
//
// Inputs come from the resolver the CLI's `run` shares (core/src/run-inputs.ts): the request
// (`inputs: { x: "float[2] {1, 2}" }`), `# @input` / `# @dim` directives, the bytes of
// `test_data_set_0/input_N.pb` beside the file (the caller reads them), then seeded defaults.
import { create } from "@bufbuild/protobuf";
import {
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  ValueInfoProtoSchema,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type TypeProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/index.js";
import { describeRunError, Interpreter, setAllocationLimit, type Value } from "../interp/index.js";
import { resolveInputs, runDirectives, type InputSource } from "../run-inputs.js";
import { observedRunRegistry } from "../interp/fast/index.js";
import type { Analysis } from "./analysis.js";
import { semanticState } from "./analyze.js";
import { toTypeProto } from "../infer/types.js";
import type { RunValues } from "./run-values.js";
import { parseTensorText, valueText, valueTypeOf } from "./value-text.js";

interface RunCellRequest {
  /** The graph or function to run; the main graph when absent. */
  readonly graph?: string;
  /** Input name -> tensor constant text. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The bytes of test_data_set_0/input_N.pb, by N, when that folder exists. */
  readonly dataSet?: readonly (Uint8Array | undefined)[];
  readonly signal?: AbortSignal;
  /** Caps of the run (default RUN_CELL_LIMITS): an editor must survive any model it runs. */
  readonly limits?: RunCellLimits;
}

interface RunCellLimits {
  readonly maxMemoryBytes: number;
  readonly timeoutMs: number;
}

/** What a run-cell may take unless told otherwise: live values, and time. */
const RUN_CELL_LIMITS: RunCellLimits = { maxMemoryBytes: 2 * 1024 ** 3, timeoutMs: 60_000 };

/** Elements of an output given in full; past this the text ends with the count. */
const OUTPUT_ELEMENTS = 100_000;

export interface RunCellOutput {
  readonly name: string;
  readonly type: string;
  readonly text: string;
}

/** The arguments of the server's `onnxtxt.run` command (one object). */
export interface RunCellArguments {
  readonly uri: string;
  /** The graph or function to run; the main graph when absent. */
  readonly graph?: string;
  /** Input name -> value text (`float[2] {1, 2}`); missing inputs are filled by the server. */
  readonly inputs?: Readonly<Record<string, string>>;
}

/** What the editor is sent of a run (the answer to the server's `onnxtxt.run` command). */
export interface RunCellAnswer {
  readonly outputs: readonly RunCellOutput[];
  readonly elapsedMs: number;
  /** Where each fed input came from: "request", "directive", "test_data_set_0" or "default". */
  readonly inputSources: Readonly<Record<string, string>>;
}

interface RunCellResult extends RunCellAnswer {
  /** Every value of the graph that ran, for hovers. */
  readonly values: RunValues;
}

/** Elements shown per value in hovers. */
const HOVER_ELEMENTS = 64;

/** The source names the editor shows. */
const EDITOR_SOURCE: Readonly<Record<InputSource, string>> = { given: "request", directive: "directive", "data set": "test_data_set_0", default: "default" };

/** A model whose main graph is the requested graph: the main one, or a call of a function. */
function runnableModel(a: Analysis, model: ModelProto, graph: string | undefined): { model: ModelProto; name: string } {
  const main = model.graph!;
  if (graph === undefined || graph === main.name) return { model, name: main.name };
  const fn = model.functions.find((f) => f.name === graph);
  if (!fn) throw new OnnxtxtError(`no graph or function named '${graph}'`);
  return { model: wrapFunction(model, fn, callSiteTypes(a, model, fn)), name: fn.name };
}

/**
 * Types for a function's untyped inputs (functions rarely declare them), taken from where the
 * main graph calls it: the declared or inferred type of the value passed in.
 */
function callSiteTypes(a: Analysis, model: ModelProto, fn: FunctionProto): Map<string, TypeProto> {
  const out = new Map<string, TypeProto>();
  const main = model.graph!;
  const inferred = semanticState(a)?.inference.graphTypes.get(main);
  const declared = new Map([...main.input, ...main.valueInfo, ...main.output].filter((v) => v.type).map((v) => [v.name, v.type!]));
  for (const node of main.node) {
    if (node.opType !== fn.name || node.domain !== fn.domain || node.overload !== fn.overload) continue;
    fn.input.forEach((name, i) => {
      const arg = node.input[i];
      if (out.has(name) || !arg) return;
      const known = inferred?.get(arg);
      const type = declared.get(arg) ?? (known ? toTypeProto(known) : undefined);
      if (type) out.set(name, type);
    });
  }
  return out;
}

function wrapFunction(model: ModelProto, fn: FunctionProto, derived: ReadonlyMap<string, TypeProto>): ModelProto {
  const typed = new Map(fn.valueInfo.map((v) => [v.name, v]));
  const info = (name: string): ValueInfoProto => {
    const type = derived.get(name);
    return typed.get(name) ?? create(ValueInfoProtoSchema, { name, ...(type ? { type } : {}) });
  };
  const defaults = fn.attributeProto;
  const graph: GraphProto = create(GraphProtoSchema, {
    name: fn.name,
    input: fn.input.map(info),
    output: fn.output.map(info),
    node: [create(NodeProtoSchema, { opType: fn.name, domain: fn.domain, overload: fn.overload, input: fn.input, output: fn.output, attribute: defaults })],
  });
  const opsets = [...model.opsetImport];
  if (!opsets.some((o) => o.domain === fn.domain)) opsets.push(...fn.opsetImport.filter((o) => o.domain === fn.domain));
  if (!opsets.some((o) => o.domain === fn.domain)) opsets.push(create(OperatorSetIdProtoSchema, { domain: fn.domain, version: 1n }));
  return create(ModelProtoSchema, { ...model, graph, opsetImport: opsets });
}

export async function runCell(a: Analysis, req: RunCellRequest): Promise<RunCellResult> {
  if (!a.model) {
    const first = a.diagnostics.find((d) => d.severity === "error");
    throw new OnnxtxtError(`the document has errors; fix them before running${first ? ` (${a.lines.lineCol(first.span?.start ?? 0)}: ${first.message})` : ""}`);
  }
  const { model, name } = runnableModel(a, a.model, req.graph);
  const graph = model.graph!;
  const limits = req.limits ?? RUN_CELL_LIMITS;
  const given = new Map(Object.entries(req.inputs ?? {}).map(([n, text]) => [n, () => parseTensorText(text)]));
  // A declared shape may be huge: default values are held to the run's memory cap.
  setAllocationLimit(limits.maxMemoryBytes);
  let resolved;
  try {
    resolved = resolveInputs(graph, {
      given,
      givenLabel: "request",
      directives: runDirectives(a.comments),
      ...(req.dataSet ? { dataSet: req.dataSet } : {}),
      parseTensor: parseTensorText,
    });
  } finally {
    setAllocationLimit(Infinity);
  }
  const feeds = new Map(resolved.map((r) => [r.name, r.value]));
  const sources: Record<string, string> = {};
  for (const r of resolved) sources[r.name] = EDITOR_SOURCE[r.source];

  const values = new Map<string, string>();
  for (const [n, v] of feeds) values.set(n, valueText(v, HOVER_ELEMENTS));
  const started = performance.now();
  let outputs: Map<string, Value>;
  try {
    // Fast kernels, but no fusion: every node's value is shown in hovers.
    const registry = observedRunRegistry();
    const interp = new Interpreter(model, {
      ...(registry ? { registry } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      maxMemoryBytes: limits.maxMemoryBytes,
      timeoutMs: limits.timeoutMs,
      onNode: (node, outs) => {
        node.output.forEach((o, i) => {
          const v = outs[i];
          if (o && v) values.set(o, valueText(v, HOVER_ELEMENTS));
        });
      },
    });
    outputs = await interp.runAsync(feeds);
  } catch (e) {
    if (req.signal?.aborted) throw new OnnxtxtError("the run was cancelled by an edit");
    throw new OnnxtxtError(describeRunError(e));
  }
  const elapsedMs = Math.round((performance.now() - started) * 100) / 100;
  const result: RunCellOutput[] = [];
  for (const o of graph.output) {
    const v = outputs.get(o.name);
    if (!v) continue;
    result.push({ name: o.name, type: valueTypeOf(v), text: valueText(v, OUTPUT_ELEMENTS) });
    values.set(o.name, valueText(v, HOVER_ELEMENTS));
  }
  return { outputs: result, elapsedMs, inputSources: sources, values: { graph: name, values, elapsedMs } };
}
