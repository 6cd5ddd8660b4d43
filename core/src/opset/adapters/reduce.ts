// Reduce*, Squeeze, Unsqueeze and Split: `axes`/`split` moved from attribute to input
// (Reduce* at 13/18, Squeeze/Unsqueeze/Split at 13), and Split's num_outputs (18).
import { attributeOf, intAttr, removeAttr, setAttr } from "../attrs.js";
import { constInts, int64Constant, keep, makeNode, rankOf, refuse, shapeOf, type Adapter } from "../context.js";
import { intAttrToInput, intInputToAttr } from "./inputs.js";

/** Reduce* going down past the step where axes became an input (noop_with_empty_axes appeared with it). */
export const reduceAxesDown: Adapter = (node, ctx) => {
  const noop = intAttr(node, "noop_with_empty_axes") ?? 0;
  removeAttr(node, "noop_with_empty_axes");
  const axesName = node.input[1];
  if (noop === 1) {
    const axes = axesName ? ctx.constants.numbers(axesName) : [];
    if (axes === undefined) return refuse(`noop_with_empty_axes = 1 and axes '${axesName}' is not a constant`);
    // No axes with noop_with_empty_axes is the identity; the older op would reduce everything.
    if (axes.length === 0) return keep(makeNode("Identity", [node.input[0]!], [node.output[0]!], [], node.name));
  }
  return intInputToAttr("axes", 1)(node, ctx);
};

export const reduceAxesUp: Adapter = intAttrToInput("axes", 1);

export const squeezeAxesUp: Adapter = intAttrToInput("axes", 1);
export const axesDown: Adapter = intInputToAttr("axes", 1);

/** Split 11 -> 13: split becomes an input. */
export const splitUp: Adapter = intAttrToInput("split", 1);
export const splitDown: Adapter = intInputToAttr("split", 1);

/** Split 13 -> 18: without a split input, 18 wants num_outputs (an equal split, as 13 did). */
export const splitNumOutputsUp: Adapter = (node) => {
  if (!node.input[1]) setAttr(node, attributeOf("num_outputs", "INT", node.output.length));
  return keep(node);
};

/** Split 18 -> 13: num_outputs becomes the explicit split when the parts are not all equal. */
export const splitNumOutputsDown: Adapter = (node, ctx) => {
  const n = intAttr(node, "num_outputs");
  removeAttr(node, "num_outputs");
  if (n === undefined || node.input[1]) return keep(node);
  const shape = shapeOf(ctx, node.input[0]!);
  const rank = shape?.length;
  const axis = intAttr(node, "axis") ?? 0;
  const dim = rank === undefined ? undefined : shape![axis < 0 ? axis + rank : axis];
  if (typeof dim !== "number")
    return refuse(`num_outputs = ${n} and the size of axis ${axis} of '${node.input[0]}' is unknown (opset ${ctx.at} splits into equal parts only)`);
  if (dim % n === 0) return keep(node);
  const part = Math.ceil(dim / n);
  const sizes = Array.from({ length: n }, (_, i) => Math.max(0, Math.min(part, dim - i * part)));
  const c = int64Constant(ctx, `${node.output[0] || "split"}_split`, [n], sizes);
  node.input[1] = c.name;
  return keep(c.node, node);
};

/** Unsqueeze 1 -> 11 going down: negative axes count in the output's rank. */
export const unsqueezeNegativeDown: Adapter = (node, ctx) => {
  const v = constInts(node, 1, ctx, "axes");
  const attr = node.attribute.find((a) => a.name === "axes");
  const axes = attr ? attr.ints.map(Number) : typeof v === "string" ? undefined : v;
  if (!axes || axes.every((a) => a >= 0)) return keep(node);
  const rank = rankOf(ctx, node.input[0]!);
  if (rank === undefined) return refuse(`axes are negative and the rank of '${node.input[0]}' is unknown`);
  setAttr(
    node,
    attributeOf(
      "axes",
      "INTS",
      axes.map((a) => (a < 0 ? a + rank + axes.length : a)),
    ),
  );
  return keep(node);
};

/** OneHot 9 -> 11 going down: a negative axis counts in the output's rank (indices' rank + 1). */
export const oneHotNegativeDown: Adapter = (node, ctx) => {
  const axis = intAttr(node, "axis") ?? -1;
  if (axis >= 0) return keep(node);
  const rank = rankOf(ctx, node.input[0]!);
  if (rank === undefined) return refuse(`axis is negative and the rank of '${node.input[0]}' is unknown`);
  setAttr(node, attributeOf("axis", "INT", axis + rank + 1));
  return keep(node);
};
