// Concat, Split, Slice, TopK, Reshape and Shape: attributes that became inputs, and Shape's
// start/end (15) as a Slice going down.
import { attributeOf, getAttr, intAttr, removeAttr, setAttr } from "../attrs.js";
import { tensor } from "../../infer/types.js";
import { constInts, int64Constant, keep, makeNode, refuse, type Adapter } from "../context.js";
import { dropInput, intAttrToInput, intInputToAttr } from "./inputs.js";

/** Concat 1 -> 4: axis became required; 1's default was 1. */
export const concatAxisUp: Adapter = (node) => {
  if (!getAttr(node, "axis")) setAttr(node, attributeOf("axis", "INT", 1));
  return keep(node);
};

/** Split 1 -> 2: the optional split input became the split attribute; axis got the default 0. */
export const split2Up: Adapter = (node, ctx) => {
  if (!getAttr(node, "axis")) return refuse("Split-1 has no default axis; give axis explicitly");
  return intInputToAttr("split", 1)(node, ctx);
};

export const split2Down: Adapter = (node) => {
  if (!getAttr(node, "axis")) setAttr(node, attributeOf("axis", "INT", 0));
  return keep(node);
};

/** Slice 1 -> 10: starts, ends and axes became inputs. */
export const sliceUp: Adapter = (node, ctx) => {
  const out = [];
  for (const [attr, i] of [
    ["starts", 1],
    ["ends", 2],
    ["axes", 3],
  ] as const) {
    const r = intAttrToInput(attr, i)(node, ctx);
    if ("refused" in r) return r;
    out.push(...r.nodes.slice(0, -1));
  }
  return keep(...out, node);
};

export const sliceDown: Adapter = (node, ctx) => {
  if (node.input[4]) {
    const steps = constInts(node, 4, ctx, "steps");
    if (typeof steps === "string") return refuse(steps);
    if (steps.some((s) => s !== 1)) return refuse("steps other than 1 are new in opset 10");
    dropInput(node, 4);
  }
  for (const [attr, i] of [
    ["axes", 3],
    ["ends", 2],
    ["starts", 1],
  ] as const) {
    const r = intInputToAttr(attr, i)(node, ctx);
    if ("refused" in r) return r;
  }
  return keep(node);
};

/** TopK 1 -> 10: k became a 1-element int64 input. */
export const topkUp: Adapter = intAttrToInput("k", 1, { scalar: true, shape1: true });
export const topkDown: Adapter = intInputToAttr("k", 1, { scalar: true });

/** Reshape 1 -> 5: shape became an input. */
export const reshapeUp: Adapter = (node, ctx) => {
  removeAttr(node, "consumed_inputs");
  return intAttrToInput("shape", 1)(node, ctx);
};
export const reshapeDown: Adapter = intInputToAttr("shape", 1);

/** Shape 15 -> 13: start/end (new in 15) become a Slice of the whole shape. */
export const shapeSliceDown: Adapter = (node, ctx) => {
  const start = intAttr(node, "start") ?? 0;
  const end = intAttr(node, "end");
  removeAttr(node, "start");
  removeAttr(node, "end");
  if (start === 0 && end === undefined) return keep(node);
  const base = node.output[0] || "shape";
  const whole = ctx.fresh(`${base}_whole`);
  ctx.setType(whole, tensor(7, [undefined]));
  const out = node.output[0]!;
  node.output[0] = whole;
  // Slice clamps ends to the rank, so "to the end" is any bound above it.
  const starts = int64Constant(ctx, `${base}_start`, [1], [start]);
  const ends = int64Constant(ctx, `${base}_end`, [1], [end ?? 2147483647]);
  const axes = int64Constant(ctx, `${base}_axes`, [1], [0]);
  return keep(node, starts.node, ends.node, axes.node, makeNode("Slice", [whole, starts.name, ends.name, axes.name], [out]));
};

/** Reshape 14 -> 13: allowzero = 1 keeps a 0 in the shape as 0; without a 0 in a constant shape it changes nothing. */
export const allowZeroDown: Adapter = (node, ctx) => {
  if ((intAttr(node, "allowzero") ?? 0) === 1) {
    const shape = constInts(node, 1, ctx, "shape");
    if (typeof shape === "string" || shape.includes(0)) return refuse("allowzero = 1 with a shape that may hold 0 is new in opset 14");
  }
  removeAttr(node, "allowzero");
  return keep(node);
};
