// ONNX text as a JavaScript tagged template: onnx`...` -> ModelProto, onnx.graph`...`,
// onnx.node`...`, onnx.function`...` for the parts. Interpolated strings are names (quoted when
// the syntax needs it), numbers and bigints are literals, TensorProtos and typed arrays are tensor
// constants (`float[2] {1, 2}`). Errors name their line and column inside the template.
import { hasErrors, type Diagnostic } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import { nameText, quote } from "../../grammar/src/names.js";
import { dataTypeInfo } from "../../proto/src/data-types.js";
import type { FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto } from "../../proto/src/index.js";
import { OnnxtxtError } from "./io/errors.js";
import { tensorFromProto } from "./interp/tensor-proto.js";
import { tensorFromArray, type TensorArray } from "./tensors.js";

/** What can stand in a `${...}` of an onnx template. */
export type TemplateValue = string | number | bigint | TensorProto | TensorArray;

interface Part<T> {
  readonly result?: T;
  readonly diagnostics: readonly Diagnostic[];
}

/** The template's text, with where each piece of it starts in the template as written. */
interface Built {
  readonly text: string;
  /** For each piece: [offset in text, offset in the template, whether it is an interpolation]. */
  readonly pieces: readonly (readonly [number, number, boolean])[];
  /** The template as written, interpolations shown as `${}`. */
  readonly source: string;
}

function isTensorProto(v: unknown): v is TensorProto {
  return typeof v === "object" && v !== null && (v as { $typeName?: string }).$typeName === "onnx.TensorProto";
}

function numberText(v: number | bigint | string | boolean): string {
  if (typeof v === "string") return quote(v);
  if (typeof v === "bigint") return String(v);
  if (typeof v === "boolean") return v ? "1" : "0";
  if (Number.isNaN(v)) return "nan";
  if (v === Number.POSITIVE_INFINITY) return "inf";
  if (v === Number.NEGATIVE_INFINITY) return "-inf";
  return Object.is(v, -0) ? "-0.0" : String(v);
}

/** A tensor as the text's constant: `TYPE[dims] {values}` (`TYPE {v}` for a scalar). */
function tensorText(t: TensorProto): string {
  const info = dataTypeInfo(t.dataType);
  if (!info) throw new OnnxtxtError(`a tensor of element type #${t.dataType} cannot be written as text`);
  if (info.name.startsWith("complex")) throw new OnnxtxtError(`a ${info.name} tensor cannot be written as a constant in text`);
  // the text writes the stored values: float16, bfloat16 and float8 elements as their bit patterns
  const values = Array.from(tensorFromProto(t).data as ArrayLike<number | bigint | string>, (v) => numberText(v));
  const shape = t.dims.length === 0 ? "" : `[${t.dims.join(",")}]`;
  return `${info.name}${shape} {${values.join(", ")}}`;
}

function valueText(v: unknown, index: number): string {
  if (typeof v === "string") return nameText(v);
  if (typeof v === "number" || typeof v === "bigint") return numberText(v);
  if (isTensorProto(v)) return tensorText(v);
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return tensorText(tensorFromArray(v as TensorArray));
  throw new OnnxtxtError(
    `onnx template: value ${index + 1} is ${v === null ? "null" : typeof v}; a name (string), a number, a TensorProto or a typed array can go there`,
  );
}

function build(strings: TemplateStringsArray, values: readonly unknown[]): Built {
  let text = "";
  let source = "";
  const pieces: [number, number, boolean][] = [];
  strings.raw.forEach((_, i) => {
    const s = strings[i] ?? strings.raw[i]!;
    pieces.push([text.length, source.length, false]);
    text += s;
    source += s;
    if (i < values.length) {
      pieces.push([text.length, source.length, true]);
      text += valueText(values[i], i);
      source += "${}";
    }
  });
  return { text, pieces, source };
}

/** Where `offset` of the built text is in the template as written (an interpolation's start for inside one). */
function templateOffset(b: Built, offset: number): number {
  let found: readonly [number, number, boolean] = b.pieces[0] ?? [0, 0, false];
  for (const p of b.pieces) if (p[0] <= offset) found = p;
  return found[2] ? found[1] : found[1] + (offset - found[0]);
}

function parsed<T>(b: Built, what: string, part: Part<T>, shift = 0): T {
  const errors = part.diagnostics.filter((d) => d.severity === "error");
  if (part.result !== undefined && !hasErrors(part.diagnostics)) return part.result;
  const lines = new LineIndex(b.source);
  const first = errors.length > 0 ? errors : [{ severity: "error", message: `not a ${what}`, span: { start: 0, end: 0 } } as Diagnostic];
  const message = first
    .map((d) => {
      const p = lines.position(templateOffset(b, Math.max(0, (d.span?.start ?? 0) - shift)));
      return `onnx template:${p.line + 1}:${p.character + 1}: ${d.message}`;
    })
    .join("\n");
  throw new OnnxtxtError(message);
}

/** The text readers the tag uses; passed in so this module does not import the public entry. */
export interface TemplateReaders {
  readonly model: (text: string) => { readonly model?: ModelProto | undefined; readonly diagnostics: readonly Diagnostic[] };
  readonly graph: (text: string) => Part<GraphProto>;
  readonly node: (text: string) => Part<NodeProto>;
  readonly function: (text: string) => Part<FunctionProto>;
}

/** The `onnx` tag and its `graph`, `node` and `function` members. */
export interface OnnxTag {
  (strings: TemplateStringsArray, ...values: TemplateValue[]): ModelProto;
  /** The same as the tag itself: a model. */
  model(strings: TemplateStringsArray, ...values: TemplateValue[]): ModelProto;
  /** Nodes one after the other, as in a graph's body. */
  nodes(strings: TemplateStringsArray, ...values: TemplateValue[]): NodeProto[];
  graph(strings: TemplateStringsArray, ...values: TemplateValue[]): GraphProto;
  node(strings: TemplateStringsArray, ...values: TemplateValue[]): NodeProto;
  function(strings: TemplateStringsArray, ...values: TemplateValue[]): FunctionProto;
}

export function makeOnnxTag(read: TemplateReaders): OnnxTag {
  const tag = (strings: TemplateStringsArray, ...values: TemplateValue[]): ModelProto => {
    const b = build(strings, values);
    const r = read.model(b.text);
    return parsed(b, "model", { ...(r.model && { result: r.model }), diagnostics: r.diagnostics });
  };
  /** Nodes are read as the body of a graph with no inputs or outputs. */
  const NODES_BEFORE = "nodes () => () {\n";
  return Object.assign(tag, {
    model: tag,
    nodes: (strings: TemplateStringsArray, ...values: TemplateValue[]) => {
      const b = build(strings, values);
      return parsed(b, "list of nodes", read.graph(`${NODES_BEFORE}${b.text}\n}`), NODES_BEFORE.length).node;
    },
    graph: (strings: TemplateStringsArray, ...values: TemplateValue[]) => {
      const b = build(strings, values);
      return parsed(b, "graph", read.graph(b.text));
    },
    node: (strings: TemplateStringsArray, ...values: TemplateValue[]) => {
      const b = build(strings, values);
      return parsed(b, "node", read.node(b.text));
    },
    function: (strings: TemplateStringsArray, ...values: TemplateValue[]) => {
      const b = build(strings, values);
      return parsed(b, "function", read.function(b.text));
    },
  });
}
