// Run-cell: runs the document's main graph (or one of its functions) with the interpreter and
// returns each output as a tensor constant, plus every intermediate value for hovers.
//
// Where an input's value comes from, first match wins:
//   1. the request (`inputs: { x: "float[2] {1, 2}" }`);
//   2. a directive comment in the document: `# @input x = float[2] {1, 2}`;
//   3. `test_data_set_0/input_N.pb` beside the file (the caller reads the files; N counts the
//      graph inputs that have no initializer);
//   4. a default: symbolic dims are 1 unless a `# @dim N = 4` directive says otherwise; floats
//      are uniform in [-1, 1), integers in [0, 4), bools random, from a fixed seed.
import { create } from "@bufbuild/protobuf";
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, ValueInfoProtoSchema, type FunctionProto, type GraphProto,
  type ModelProto, type TypeProto, type ValueInfoProto,
} from "../../../proto/src/index.js";
import { decodeValue, OnnxtxtError, valueKindOf } from "../io/index.js";
import { defaultValue, describeRunError, Interpreter, Rng, valueFromProto, type Value } from "../interp/index.js";
import { observedRunRegistry } from "../interp/fast/index.js";
import type { Analysis } from "./analysis.js";
import { semanticState } from "./analyze.js";
import { toTypeProto } from "../infer/types.js";
import type { RunValues } from "./run-values.js";
import { parseTensorText, valueText, valueTypeOf } from "./value-text.js";

export interface RunCellRequest {
  /** The graph or function to run; the main graph when absent. */
  readonly graph?: string;
  /** Input name -> tensor constant text. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The bytes of test_data_set_0/input_N.pb, by N, when that folder exists. */
  readonly dataSet?: readonly (Uint8Array | undefined)[];
  readonly signal?: AbortSignal;
}

export interface RunCellOutput {
  readonly name: string;
  readonly type: string;
  readonly text: string;
}

export interface RunCellResult {
  readonly outputs: RunCellOutput[];
  readonly elapsedMs: number;
  /** Where each fed input came from: "request", "directive", "test_data_set_0" or "default". */
  readonly inputSources: Readonly<Record<string, string>>;
  /** Every value of the graph that ran, for hovers. */
  readonly values: RunValues;
}

/** Elements shown per value in hovers. */
const HOVER_ELEMENTS = 64;

interface Directives {
  readonly inputs: Map<string, string>;
  readonly dims: Map<string, number>;
}

const INPUT_DIRECTIVE = /^\s*@input\s+("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*=\s*(.+?)\s*$/;
const DIM_DIRECTIVE = /^\s*@dim\s+("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*=\s*(\d+)\s*$/;

function unquote(s: string): string {
  return s.startsWith('"') ? s.slice(1, -1).replace(/\\(.)/g, "$1") : s;
}

/** `# @input NAME = TENSOR` and `# @dim NAME = INT` comments. */
export function runDirectives(a: Analysis): Directives {
  const inputs = new Map<string, string>();
  const dims = new Map<string, number>();
  for (const c of a.comments) {
    const i = INPUT_DIRECTIVE.exec(c.text);
    if (i) inputs.set(unquote(i[1]!), i[2]!);
    const d = DIM_DIRECTIVE.exec(c.text);
    if (d) dims.set(unquote(d[1]!), Number(d[2]));
  }
  return { inputs, dims };
}

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
  const init = new Set(graph.initializer.map((t) => t.name));
  const feedable = graph.input.filter((v) => !init.has(v.name));
  const directives = runDirectives(a);
  const feeds = new Map<string, Value>();
  const sources: Record<string, string> = {};
  const rng = new Rng(0);
  for (const [name] of Object.entries(req.inputs ?? {})) {
    if (!feedable.some((v) => v.name === name)) {
      throw new OnnxtxtError(`'${name}' is not an input of '${graph.name}' (inputs: ${feedable.map((v) => v.name).join(", ") || "none"})`);
    }
  }
  feedable.forEach((info, i) => {
    const given = req.inputs?.[info.name];
    const directive = directives.inputs.get(info.name);
    const file = req.dataSet?.[i];
    const described = (what: string, f: () => Value): Value => {
      try {
        return f();
      } catch (e) {
        throw new OnnxtxtError(`input '${info.name}' (${what}): ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    if (given !== undefined) {
      feeds.set(info.name, described("request", () => parseTensorText(given)));
      sources[info.name] = "request";
    } else if (directive !== undefined) {
      feeds.set(info.name, described("@input directive", () => parseTensorText(directive)));
      sources[info.name] = "directive";
    } else if (file) {
      feeds.set(info.name, described(`test_data_set_0/input_${i}.pb`, () => valueFromProto(decodeValue(file, valueKindOf(info.type)))));
      sources[info.name] = "test_data_set_0";
    } else {
      if (info.type?.value.case !== "tensorType" && info.type?.value.case !== "sequenceType" && info.type?.value.case !== "optionalType") {
        throw new OnnxtxtError(`input '${info.name}' has no type to make a default value from (nothing calls '${graph.name}' with a typed value); give it in the request or with a directive such as # @input ${info.name} = float[2] {1, 2}`);
      }
      feeds.set(info.name, described("default", () => defaultValue(info.type, directives.dims, rng, info.name)));
      sources[info.name] = "default";
    }
  });

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
    result.push({ name: o.name, type: valueTypeOf(v), text: valueText(v) });
    values.set(o.name, valueText(v, HOVER_ELEMENTS));
  }
  return { outputs: result, elapsedMs, inputSources: sources, values: { graph: name, values, elapsedMs } };
}
