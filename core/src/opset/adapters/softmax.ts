// Softmax, LogSoftmax and Hardmax 11 -> 13: the older ops flatten the input to 2-D at `axis`
// (default 1) and normalize each row; the newer ones normalize along one axis (default -1).
import { attributeOf, intAttr, setAttr } from "../attrs.js";
import { elemOf, keep, makeNode, rankOf, refuse, type Adapter, type StepContext } from "../context.js";
import { tensor } from "../../infer/types.js";

/** New values of `x`'s element type (their shapes are left unknown). */
function sameElem(ctx: StepContext, x: string, names: readonly string[]): void {
  const elem = elemOf(ctx, x);
  if (elem !== undefined) for (const n of names) ctx.setType(n, tensor(elem));
}

/** Up: same node when the axis is the last one, else Flatten -> op(axis=-1) -> Reshape to the input's shape (no shape needed). */
export const softmaxUp: Adapter = (node, ctx) => {
  const axis = intAttr(node, "axis") ?? 1;
  const x = node.input[0]!;
  const rank = rankOf(ctx, x);
  if (axis === -1 || (rank !== undefined && (axis < 0 ? axis + rank : axis) === rank - 1)) {
    setAttr(node, attributeOf("axis", "INT", -1));
    return keep(node);
  }
  const base = node.output[0] || node.opType;
  const flat = ctx.fresh(`${base}_2d`);
  const soft = ctx.fresh(`${base}_rows`);
  const shape = ctx.fresh(`${base}_shape`);
  setAttr(node, attributeOf("axis", "INT", -1));
  const out = node.output[0]!;
  sameElem(ctx, x, [flat, soft]);
  ctx.setType(shape, tensor(7, [undefined]));
  node.input[0] = flat;
  node.output[0] = soft;
  return keep(
    makeNode("Flatten", [x], [flat], [attributeOf("axis", "INT", axis)]),
    node,
    makeNode("Shape", [x], [shape]),
    makeNode("Reshape", [soft, shape], [out]),
  );
};

/** Down: same node for the last axis, else swap the axis with the last one around it (needs the rank). */
export const softmaxDown: Adapter = (node, ctx) => {
  const axis = intAttr(node, "axis") ?? -1;
  const x = node.input[0]!;
  const rank = rankOf(ctx, x);
  if (axis === -1 || (rank !== undefined && axis === rank - 1)) {
    setAttr(node, attributeOf("axis", "INT", rank === undefined ? -1 : rank - 1));
    return keep(node);
  }
  if (rank === undefined) return refuse(`axis ${axis} is not the last one and the rank of '${x}' is unknown`);
  const a = axis < 0 ? axis + rank : axis;
  const perm = Array.from({ length: rank }, (_, i) => (i === a ? rank - 1 : i === rank - 1 ? a : i));
  const base = node.output[0] || node.opType;
  const moved = ctx.fresh(`${base}_moved`);
  const soft = ctx.fresh(`${base}_last`);
  const out = node.output[0]!;
  setAttr(node, attributeOf("axis", "INT", rank - 1));
  sameElem(ctx, x, [moved, soft]);
  node.input[0] = moved;
  node.output[0] = soft;
  return keep(
    makeNode("Transpose", [x], [moved], [attributeOf("perm", "INTS", perm)]),
    node,
    makeNode("Transpose", [soft], [out], [attributeOf("perm", "INTS", perm)]),
  );
};
