// Attributes that became inputs (axes, split, pads, k, shape, ...) and back: going up the
// attribute's value becomes a Constant input; going down the input must be a constant.
import type { NodeProto } from "../../../../proto/src/index.js";
import { floatAttr, floatsAttribute, getAttr, intAttr, intAttribute, intsAttr, intsAttribute, removeAttr, setAttr, floatAttribute } from "../attrs.js";
import { constInts, elemOf, int64Constant, keep, numberConstant, refuse, type Adapter, type StepContext } from "../context.js";

/** Puts `name` at input position `i`, padding skipped optional inputs with "". */
export function setInput(node: NodeProto, i: number, name: string): void {
  while (node.input.length < i) node.input.push("");
  node.input[i] = name;
}

/** Drops input `i` and any trailing empty inputs. */
export function dropInput(node: NodeProto, i: number): void {
  if (i < node.input.length) node.input[i] = "";
  while (node.input.length > 0 && node.input[node.input.length - 1] === "") node.input.pop();
}

export interface IntInputOptions {
  /** The input holds one value (a scalar, or a 1-element list when `shape1`). */
  readonly scalar?: boolean;
  readonly shape1?: boolean;
  /** The value when the attribute is absent but the newer op wants the input. */
  readonly absent?: readonly number[];
}

/** Up: int (list) attribute `attr` -> int64 input at position `i`. */
export function intAttrToInput(attr: string, i: number, opts: IntInputOptions = {}): Adapter {
  return (node, ctx) => {
    const values = opts.scalar ? (intAttr(node, attr) === undefined ? undefined : [intAttr(node, attr)!]) : intsAttr(node, attr);
    removeAttr(node, attr);
    const v = values ?? opts.absent;
    if (v === undefined) return keep(node);
    const c = int64Constant(ctx, `${node.output[0] || node.opType}_${attr}`, opts.scalar && !opts.shape1 ? [] : [v.length], v);
    setInput(node, i, c.name);
    return keep(c.node, node);
  };
}

/** Down: int64 input at `i` -> int (list) attribute `attr`; an absent input leaves it absent. */
export function intInputToAttr(attr: string, i: number, opts: IntInputOptions = {}): Adapter {
  return (node, ctx) => {
    if (!node.input[i]) return keep(node);
    const v = constInts(node, i, ctx, attr);
    if (typeof v === "string") return refuse(v);
    setAttr(node, opts.scalar ? intAttribute(attr, v[0]!) : intsAttribute(attr, v));
    dropInput(node, i);
    return keep(node);
  };
}

/** Up: float attribute(s) -> a scalar input of input 0's element type (Clip's min/max, Pad's value). */
export function floatAttrToInput(attr: string, i: number, ctx: StepContext, node: NodeProto, elem?: number): NodeProto | string | undefined {
  const v = floatAttr(node, attr);
  removeAttr(node, attr);
  if (v === undefined) return undefined;
  const dtype = elem ?? elemOf(ctx, node.input[0] ?? "");
  if (dtype === undefined) return `the element type of '${node.input[0]}' is unknown, and ${attr} must become an input of that type`;
  const c = numberConstant(ctx, `${node.output[0] || node.opType}_${attr}`, dtype, [], [v]);
  setInput(node, i, c.name);
  return c.node;
}

/** Down: a constant scalar input -> float attribute. */
export function floatInputToAttr(attr: string, i: number, ctx: StepContext, node: NodeProto): string | undefined {
  if (!node.input[i]) return undefined;
  const v = ctx.constants.numbers(node.input[i]!);
  if (!v || v.length !== 1) return `input '${node.input[i]}' (${attr}) is not a constant scalar, and opset ${ctx.at} needs it as an attribute`;
  setAttr(node, floatAttribute(attr, v[0]!));
  dropInput(node, i);
  return undefined;
}

/** Up: a float list attribute -> a float input (Upsample's scales). */
export function floatsAttrToInput(attr: string, i: number): Adapter {
  return (node, ctx) => {
    const a = getAttr(node, attr);
    if (!a) return refuse(`no ${attr} attribute`);
    removeAttr(node, attr);
    const c = numberConstant(ctx, `${node.output[0] || node.opType}_${attr}`, 1, [a.floats.length], [...a.floats]);
    setInput(node, i, c.name);
    return keep(c.node, node);
  };
}

export function floatsInputToAttr(attr: string, i: number): Adapter {
  return (node, ctx) => {
    const v = node.input[i] ? ctx.constants.numbers(node.input[i]!) : undefined;
    if (!v) return refuse(`input '${node.input[i] ?? ""}' (${attr}) is not a constant, and opset ${ctx.at} needs it as an attribute`);
    setAttr(node, floatsAttribute(attr, v));
    dropInput(node, i);
    return keep(node);
  };
}
