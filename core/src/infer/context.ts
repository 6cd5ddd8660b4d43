// What an operator rule sees of one node: its input types and folded constants, its
// attributes (with schema defaults), and the output slots it fills in.
import { AttributeProto_AttributeType as AT, type AttributeProto, type GraphProto, type NodeProto, type TensorProto } from "../../../proto/src/index.js";
import type { OpSchema } from "../schema/index.js";
import type { Const } from "./constants.js";
import type { Part } from "./location.js";
import { isTensor, tensor, type Dim, type Shape, type TensorType, type ValueType } from "./types.js";

export interface OpContextHost {
  report(code: string, message: string, part?: Part): void;
  /** The folded value of input i, computed on demand (most inputs are never asked for). */
  inputConst(i: number): Const | undefined;
  /** `quiet`: infer without reporting (a branch that is never taken). */
  inferSubgraph(g: GraphProto, attrName: string, inputs: readonly (ValueType | undefined)[], quiet?: boolean): (ValueType | undefined)[];
}

const UTF8 = new TextDecoder();

export class OpContext {
  readonly outputs: (ValueType | undefined)[];
  /** Folded outputs by index; most nodes fold nothing, and then there is no list. */
  outputConsts: (Const | undefined)[] | undefined;

  constructor(
    readonly node: NodeProto,
    readonly schema: OpSchema | undefined,
    /** The opset version of the node's domain. */
    readonly opset: number,
    readonly inputs: readonly (ValueType | undefined)[],
    outputs: (ValueType | undefined)[],
    private readonly host: OpContextHost,
  ) {
    this.outputs = outputs;
  }

  get inputCount(): number {
    return this.node.input.length;
  }

  has(i: number): boolean {
    return (this.node.input[i] ?? "") !== "";
  }

  tensorIn(i: number): TensorType | undefined {
    const t = this.inputs[i];
    return isTensor(t) ? t : undefined;
  }

  shapeIn(i: number): Shape | undefined {
    return this.tensorIn(i)?.shape;
  }

  rankIn(i: number): number | undefined {
    return this.shapeIn(i)?.length;
  }

  elemIn(i: number): number {
    return this.tensorIn(i)?.elem ?? 0;
  }

  constIn(i: number): Const | undefined {
    return this.has(i) ? this.host.inputConst(i) : undefined;
  }

  /** A constant input's values as integers (shapes, axes, indices). */
  intsIn(i: number): number[] | undefined {
    const c = this.constIn(i);
    return c ? c.values.map((v) => Math.trunc(v)) : undefined;
  }

  /**
   * A search, not a map: nodes have few attributes, and most rules read none of them. From the
   * end, so a duplicated attribute (an error of its own) reads as its last setting.
   */
  attr(name: string): AttributeProto | undefined {
    const attrs = this.node.attribute;
    for (let i = attrs.length - 1; i >= 0; i--) if (attrs[i]!.name === name) return attrs[i];
    return undefined;
  }

  hasAttr(name: string): boolean {
    return this.attr(name) !== undefined;
  }

  int(name: string, fallback?: number): number | undefined {
    const a = this.attr(name);
    if (a) return Number(a.i);
    const d = this.schema?.attributes.get(name)?.default;
    return typeof d === "number" ? d : fallback;
  }

  float(name: string, fallback?: number): number | undefined {
    const a = this.attr(name);
    if (a) return a.f;
    const d = this.schema?.attributes.get(name)?.default;
    return typeof d === "number" ? d : fallback;
  }

  ints(name: string): number[] | undefined {
    const a = this.attr(name);
    if (a) return a.ints.map(Number);
    const d = this.schema?.attributes.get(name)?.default;
    return Array.isArray(d) ? (d as number[]).map(Number) : undefined;
  }

  floats(name: string): number[] | undefined {
    const a = this.attr(name);
    return a ? [...a.floats] : undefined;
  }

  string(name: string, fallback?: string): string | undefined {
    const a = this.attr(name);
    if (a) return UTF8.decode(a.s);
    const d = this.schema?.attributes.get(name)?.default;
    return typeof d === "string" ? d : fallback;
  }

  strings(name: string): string[] | undefined {
    const a = this.attr(name);
    if (a) return a.strings.map((s) => UTF8.decode(s));
    const d = this.schema?.attributes.get(name)?.default;
    return Array.isArray(d) ? (d as string[]) : undefined;
  }

  tensorAttr(name: string): TensorProto | undefined {
    const a = this.attr(name);
    return a && (a.type === AT.TENSOR || a.t) ? a.t : undefined;
  }

  graph(name: string): GraphProto | undefined {
    return this.attr(name)?.g;
  }

  /** The element type the constraints gave output `i`, if any. */
  elemOut(i: number): number {
    const t = this.outputs[i];
    return isTensor(t) ? t.elem : 0;
  }

  /** Sets output `i` to a tensor; the element type defaults to what the constraints gave. */
  set(i: number, shape: Shape | undefined, elem?: number): void {
    if (i >= this.outputs.length) return;
    this.outputs[i] = tensor(elem ?? this.elemOut(i), shape && sizesOrUnknown(shape));
  }

  setType(i: number, t: ValueType | undefined): void {
    if (i < this.outputs.length) this.outputs[i] = t;
  }

  setConst(i: number, c: Const): void {
    if (i >= this.outputs.length) return;
    (this.outputConsts ??= [])[i] = c;
    this.outputs[i] = tensor(c.elem, c.shape);
  }

  report(code: string, message: string, part?: Part): void {
    this.host.report(code, message, part);
  }

  subgraph(attrName: string, inputs: readonly (ValueType | undefined)[], quiet = false): (ValueType | undefined)[] | undefined {
    const g = this.graph(attrName);
    return g ? this.host.inferSubgraph(g, attrName, inputs, quiet) : undefined;
  }
}

export type OpRule = (c: OpContext) => void;

/**
 * `shape` with every size that is not a count (NaN, infinite, negative or fractional, from
 * arithmetic on odd constants: an infinite Resize scale, a NaN Range bound) made unknown.
 */
function sizesOrUnknown(shape: Shape): Shape {
  for (let i = 0; i < shape.length; i++) if (!isSize(shape[i])) return shape.map((e) => (isSize(e) ? e : undefined));
  return shape;
}

function isSize(d: Dim): boolean {
  return typeof d !== "number" || (Number.isSafeInteger(d) && d >= 0);
}
