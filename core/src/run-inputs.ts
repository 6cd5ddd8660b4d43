// Where a run's input values come from: one resolver for the editor's run-cell and the CLI's
// `run`, so the same file gets the same inputs in both. First match wins, per input:
//   1. given by the caller (the editor's request, the CLI's --input);
//   2. a directive comment in the text: `# @input x = float[2] {1, 2}`;
//   3. a data set: input_N.pb of test_data_set_0 beside the file (or the CLI's --input-dir),
//      N counting the graph inputs that have no initializer;
//   4. a seeded default: symbolic dims from `dims` (the CLI's --dim), then `# @dim N = 4`,
//      else 1; floats uniform in [-1, 1), integers in [0, 4).
// Every value is then checked against the input's declared type and shape. No IO here: the
// caller reads files and passes bytes or values.
import type { GraphProto, TypeProto, ValueInfoProto } from "../../proto/src/index.js";
import { decodeValue, OnnxtxtError, valueKindOf } from "./io/index.js";
import { defaultValue, dtypeName, Rng, typeLabel, valueFromProto, type Value } from "./interp/index.js";

export type InputSource = "given" | "directive" | "data set" | "default";

export interface RunDirectives {
  readonly inputs: ReadonlyMap<string, string>;
  readonly dims: ReadonlyMap<string, number>;
}

const INPUT_DIRECTIVE = /^\s*@input\s+("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*=\s*(.+?)\s*$/;
const DIM_DIRECTIVE = /^\s*@dim\s+("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*=\s*(\d+)\s*$/;

function unquote(s: string): string {
  return s.startsWith('"') ? s.slice(1, -1).replace(/\\(.)/g, "$1") : s;
}

/** `# @input NAME = TENSOR` and `# @dim NAME = INT` comments (comment text without the `#`). */
export function runDirectives(comments: readonly { readonly text: string }[]): RunDirectives {
  const inputs = new Map<string, string>();
  const dims = new Map<string, number>();
  for (const c of comments) {
    const i = INPUT_DIRECTIVE.exec(c.text);
    if (i) inputs.set(unquote(i[1]!), i[2]!);
    const d = DIM_DIRECTIVE.exec(c.text);
    if (d) dims.set(unquote(d[1]!), Number(d[2]));
  }
  return { inputs, dims };
}

/** Graph inputs that have no initializer, in order: what input_N.pb files feed. */
export function feedableInputs(graph: GraphProto): ValueInfoProto[] {
  const init = new Set(graph.initializer.map((t) => t.name));
  return graph.input.filter((v) => !init.has(v.name));
}

/** The symbolic dimension names of the graph's feedable inputs. */
export function symbolicDims(graph: GraphProto): Set<string> {
  const names = new Set<string>();
  const visit = (t: TypeProto | undefined): void => {
    switch (t?.value.case) {
      case "tensorType":
      case "sparseTensorType":
        for (const d of t.value.value.shape?.dim ?? []) if (d.value.case === "dimParam") names.add(d.value.value);
        break;
      case "sequenceType":
      case "optionalType":
        visit(t.value.value.elemType);
        break;
      case "mapType":
        visit(t.value.value.valueType);
        break;
    }
  };
  for (const v of feedableInputs(graph)) visit(v.type);
  return names;
}

interface InputRequest {
  /** Values given by the caller, by input name; parsed lazily so an error names its input. */
  readonly given?: ReadonlyMap<string, () => Value>;
  /** How messages name a given value: the editor's "request", the CLI's "--input". */
  readonly givenLabel?: string;
  readonly directives?: RunDirectives;
  /** input_N.pb bytes by N, and the folder's name for messages and sources. */
  readonly dataSet?: readonly (Uint8Array | undefined)[];
  readonly dataSetName?: string;
  /** Sizes of symbolic dims; these win over `# @dim` directives. */
  readonly dims?: ReadonlyMap<string, number>;
  readonly seed?: number;
  /** Parses an `@input` directive's tensor constant. */
  readonly parseTensor: (text: string) => Value;
}

export interface ResolvedInput {
  readonly name: string;
  readonly value: Value;
  readonly source: InputSource;
  /** Where exactly: `--input`, `# @input`, `test_data_set_0/input_1.pb`, `seed 0`. */
  readonly from: string;
}

export function resolveInputs(graph: GraphProto, req: InputRequest): ResolvedInput[] {
  const feedable = feedableInputs(graph);
  for (const name of req.given?.keys() ?? []) {
    if (!feedable.some((v) => v.name === name)) {
      throw new OnnxtxtError(`'${name}' is not an input of '${graph.name}' (inputs: ${feedable.map((v) => v.name).join(", ") || "none"})`);
    }
  }
  const dims = new Map([...(req.directives?.dims ?? []), ...(req.dims ?? [])]);
  const seed = req.seed ?? 0;
  const rng = new Rng(seed);
  const resolved = feedable.map((info, i): ResolvedInput => {
    const described = (from: string, source: InputSource, f: () => Value): ResolvedInput => {
      let value: Value;
      try {
        value = f();
      } catch (e) {
        throw new OnnxtxtError(`input '${info.name}' (${from}): ${e instanceof Error ? e.message : String(e)}`);
      }
      return { name: info.name, value, source, from };
    };
    const given = req.given?.get(info.name);
    if (given) return described(req.givenLabel ?? "given", "given", given);
    const directive = req.directives?.inputs.get(info.name);
    if (directive !== undefined) return described("# @input", "directive", () => req.parseTensor(directive));
    const bytes = req.dataSet?.[i];
    if (bytes) {
      return described(`${req.dataSetName ?? "test_data_set_0"}/input_${i}.pb`, "data set", () => valueFromProto(decodeValue(bytes, valueKindOf(info.type))));
    }
    const c = info.type?.value.case;
    if (c !== "tensorType" && c !== "sequenceType" && c !== "optionalType") {
      throw new OnnxtxtError(
        `input '${info.name}' has no type to make a default value from; give it, e.g. with a directive such as # @input ${info.name} = float[2] {1, 2}`,
      );
    }
    // a default's own errors (the memory limit) already say what is wrong
    return { name: info.name, value: defaultValue(info.type, dims, rng, info.name), source: "default", from: `seed ${seed}` };
  });
  checkInputs(feedable, resolved);
  return resolved;
}

/** The declared type as text: `float[N,3,224,224]`, `seq(int64[?])`. */
function declaredType(t: TypeProto | undefined): string {
  switch (t?.value.case) {
    case "tensorType": {
      const tt = t.value.value;
      const shape = tt.shape
        ? `[${tt.shape.dim.map((d) => (d.value.case === "dimValue" ? String(d.value.value) : d.value.case === "dimParam" ? d.value.value : "?")).join(",")}]`
        : "";
      return `${dtypeName(tt.elemType)}${shape}`;
    }
    case "sequenceType":
      return `seq(${declaredType(t.value.value.elemType)})`;
    case "optionalType":
      return `optional(${declaredType(t.value.value.elemType)})`;
    case "mapType":
      return `map(${dtypeName(t.value.value.keyType)}, ${declaredType(t.value.value.valueType)})`;
    default:
      return "?";
  }
}

/**
 * Each value against its declaration: element type, rank, fixed sizes, and one size per symbolic
 * dim across all inputs. A mismatch is an error that names the input, both types and the dim.
 */
function checkInputs(feedable: readonly ValueInfoProto[], resolved: readonly ResolvedInput[]): void {
  const bound = new Map<string, { size: number; input: string }>();
  resolved.forEach((r, i) => {
    const t = feedable[i]!.type;
    if (t?.value.case !== "tensorType" || r.value.kind !== "tensor") {
      if (t?.value.case === "tensorType") throw mismatch(r, t, `a ${r.value.kind}`);
      return;
    }
    const tt = t.value.value;
    const v = r.value;
    if (tt.elemType !== 0 && tt.elemType !== v.dtype) throw mismatch(r, t, typeLabel(v));
    if (!tt.shape) return;
    const dims = tt.shape.dim;
    if (dims.length !== v.dims.length) throw mismatch(r, t, typeLabel(v), `rank ${v.dims.length} instead of ${dims.length}`);
    dims.forEach((d, k) => {
      const size = v.dims[k]!;
      // a negative size (`float[-1]`) is "any", as onnxruntime reads it
      if (d.value.case === "dimValue" && d.value.value >= 0n && Number(d.value.value) !== size) {
        throw mismatch(r, t, typeLabel(v), `dimension ${k} is ${size}, not ${d.value.value}`);
      }
      if (d.value.case === "dimParam") {
        const prior = bound.get(d.value.value);
        if (prior && prior.size !== size) {
          throw mismatch(r, t, typeLabel(v), `dimension ${k} (${d.value.value}) is ${size}, but ${d.value.value} is ${prior.size} in input '${prior.input}'`);
        }
        bound.set(d.value.value, { size, input: r.name });
      }
    });
  });
}

function mismatch(r: ResolvedInput, declared: TypeProto, actual: string, detail?: string): OnnxtxtError {
  return new OnnxtxtError(`input '${r.name}' is declared ${declaredType(declared)} but the value (${r.from}) is ${actual}${detail ? `: ${detail}` : ""}`);
}
