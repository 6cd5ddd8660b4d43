// GroupNormalization 18 -> 21: scale and bias changed from one value per group to one per
// channel, and stash_type (the precision of the statistics) appeared with default float.
// Going down is refused: onnx deprecated GroupNormalization-18, its checker rejects it.
import { attributeOf, intAttr, setAttr } from "../attrs.js";
import { elemOf, int64Constant, keep, makeNode, refuse, shapeOf, type Adapter, type StepContext } from "../context.js";
import type { NodeProto } from "../../../../proto/src/index.js";

function groupsAndChannels(node: NodeProto, ctx: StepContext): { g: number; c: number } | string {
  const g = intAttr(node, "num_groups");
  const c = shapeOf(ctx, node.input[0]!)?.[1];
  if (g === undefined) return "no num_groups";
  if (typeof c !== "number") return `the channel count of '${node.input[0]}' is unknown, and scale/bias change from per group to per channel`;
  if (c % g !== 0) return `${c} channels do not split into ${g} groups`;
  return { g, c };
}

/** Up: each per-group scale/bias is repeated for its group's channels (Reshape, Expand, Reshape); 18's precision written as stash_type. */
export const groupNormUp: Adapter = (node, ctx) => {
  const gc = groupsAndChannels(node, ctx);
  if (typeof gc === "string") return refuse(gc);
  const elem = elemOf(ctx, node.input[0]!);
  if (elem === undefined) return refuse(`the element type of '${node.input[0]}' is unknown (GroupNormalization-18 computes in it)`);
  if (elem !== 1) setAttr(node, attributeOf("stash_type", "INT", elem));
  const base = node.output[0] || "groupnorm";
  const column = int64Constant(ctx, `${base}_groups`, [2], [gc.g, 1]);
  const wide = int64Constant(ctx, `${base}_group_channels`, [2], [gc.g, gc.c / gc.g]);
  const flat = int64Constant(ctx, `${base}_channels`, [1], [gc.c]);
  const made: NodeProto[] = [column.node, wide.node, flat.node];
  for (const i of [1, 2]) {
    const name = node.input[i]!;
    const [a, b, d] = [ctx.fresh(`${name}_column`), ctx.fresh(`${name}_wide`), ctx.fresh(`${name}_per_channel`)];
    made.push(makeNode("Reshape", [name, column.name], [a]), makeNode("Expand", [a, wide.name], [b]), makeNode("Reshape", [b, flat.name], [d]));
    node.input[i] = d;
  }
  return keep(...made, node);
};
