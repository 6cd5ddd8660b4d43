// Binary ops before opset 7 (Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal, Greater, Less):
// broadcasting only with broadcast = 1, B matching a run of A's dimensions starting at `axis`.
// From 7 on they broadcast as numpy does (B aligned with A's trailing dimensions).
import { attributeOf, intAttr, removeAttr, setAttr } from "../attrs.js";
import { elemOf, keep, makeNode, rankOf, refuse, shapeOf, type Adapter } from "../context.js";
import { tensor } from "../../infer/types.js";

export const legacyBroadcastUp: Adapter = (node, ctx) => {
  const broadcast = intAttr(node, "broadcast") ?? 0;
  const axis = intAttr(node, "axis");
  removeAttr(node, "broadcast");
  removeAttr(node, "axis");
  // Without broadcast both inputs have one shape, and with B aligned at the end numpy agrees.
  if (broadcast === 0 || axis === undefined) return keep(node);
  const ra = rankOf(ctx, node.input[0]!);
  const rb = rankOf(ctx, node.input[1]!);
  if (ra === undefined || rb === undefined) return refuse(`broadcast along axis ${axis} needs the ranks of both inputs, and one is unknown`);
  const a = axis < 0 ? axis + ra : axis;
  const trailing = ra - a - rb;
  if (trailing === 0) return keep(node);
  if (trailing < 0) return refuse(`B does not fit in A at axis ${axis}`);
  // B gets trailing 1s so that numpy broadcasting lines it up at `axis`.
  const b = ctx.fresh(`${node.input[1]}_aligned`);
  const elem = elemOf(ctx, node.input[1]!);
  if (elem !== undefined) ctx.setType(b, tensor(elem));
  const axes = Array.from({ length: trailing }, (_, i) => rb + i);
  const unsqueeze = makeNode("Unsqueeze", [node.input[1]!], [b], [attributeOf("axes", "INTS", axes)]);
  node.input[1] = b;
  return keep(unsqueeze, node);
};

export const legacyBroadcastDown: Adapter = (node, ctx) => {
  const sa = shapeOf(ctx, node.input[0]!);
  const sb = shapeOf(ctx, node.input[1]!);
  if (!sa || !sb || ![...sa, ...sb].every((d) => typeof d === "number"))
    return refuse("opset 6 broadcasts only in one direction, and the input shapes are not all known");
  if (sa.length === sb.length && sa.every((d, i) => d === sb[i])) return keep(node);
  const suffix = sb.length <= sa.length && sb.every((d, i) => d === sa[sa.length - sb.length + i]);
  if (!suffix) return refuse(`shapes [${sa.join(",")}] and [${sb.join(",")}] need numpy broadcasting, which opset 6 does not have`);
  setAttr(node, attributeOf("broadcast", "INT", 1));
  return keep(node);
};
