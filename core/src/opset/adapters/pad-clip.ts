// Pad (paddings renamed at 2; pads and value became inputs at 11; axes input at 18) and Clip
// (min/max became inputs at 11).
import { attributeOf, intsAttr, removeAttr, setAttr } from "../attrs.js";
import { constInts, int64Constant, keep, rankOf, refuse, type Adapter } from "../context.js";
import { dropInput, floatAttrToInput, floatInputToAttr, intAttrToInput, intInputToAttr } from "./inputs.js";

export const padRenameUp: Adapter = (node) => {
  const p = intsAttr(node, "paddings");
  if (!p) return refuse("no paddings attribute");
  removeAttr(node, "paddings");
  setAttr(node, attributeOf("pads", "INTS", p));
  return keep(node);
};

export const padRenameDown: Adapter = (node) => {
  const p = intsAttr(node, "pads") ?? [];
  removeAttr(node, "pads");
  setAttr(node, attributeOf("paddings", "INTS", p));
  return keep(node);
};

export const padInputsUp: Adapter = (node, ctx) => {
  const pads = intAttrToInput("pads", 1)(node, ctx);
  if ("refused" in pads) return pads;
  const value = floatAttrToInput("value", 2, ctx, node);
  if (typeof value === "string") return refuse(value);
  return keep(...pads.nodes.slice(0, -1), ...(value ? [value] : []), node);
};

export const padInputsDown: Adapter = (node, ctx) => {
  const problem = floatInputToAttr("value", 2, ctx, node);
  if (problem) return refuse(problem);
  return intInputToAttr("pads", 1)(node, ctx);
};

/** Pad 18 -> 13: pads for the listed axes only become pads for every axis. */
export const padAxesDown: Adapter = (node, ctx) => {
  if (!node.input[3]) return keep(node);
  const axes = constInts(node, 3, ctx, "axes");
  const pads = constInts(node, 1, ctx, "pads");
  if (typeof axes === "string") return refuse(axes);
  if (typeof pads === "string") return refuse(pads);
  const rank = rankOf(ctx, node.input[0]!);
  if (rank === undefined) return refuse(`axes is given and the rank of '${node.input[0]}' is unknown`);
  const full = new Array<number>(2 * rank).fill(0);
  axes.forEach((a, i) => {
    const ax = a < 0 ? a + rank : a;
    full[ax] = pads[i]!;
    full[ax + rank] = pads[i + axes.length]!;
  });
  const c = int64Constant(ctx, `${node.output[0] || "pad"}_pads`, [full.length], full);
  node.input[1] = c.name;
  dropInput(node, 3);
  return keep(c.node, node);
};

export const clipInputsUp: Adapter = (node, ctx) => {
  const made = [];
  for (const [attr, i] of [
    ["min", 1],
    ["max", 2],
  ] as const) {
    const n = floatAttrToInput(attr, i, ctx, node);
    if (typeof n === "string") return refuse(n);
    if (n) made.push(n);
  }
  return keep(...made, node);
};

export const clipInputsDown: Adapter = (node, ctx) => {
  for (const [attr, i] of [
    ["max", 2],
    ["min", 1],
  ] as const) {
    const problem = floatInputToAttr(attr, i, ctx, node);
    if (problem) return refuse(problem);
  }
  return keep(node);
};
