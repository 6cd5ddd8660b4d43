// LayerNormalization (new at 17) below 17, as the arithmetic it names: normalize over the axes
// from `axis` to the last with ReduceMean, Sub, Mul, Add, Sqrt and Div (onnx gives no text body:
// its body depends on the call). Needs the rank.
import { attributeOf, floatAttr, intAttr } from "../attrs.js";
import { elemOf, keep, makeNode, numberConstant, rankOf, refuse, type Adapter } from "../context.js";
import { tensor } from "../../infer/types.js";

export const layerNormBelow17: Adapter = (node, ctx) => {
  const x = node.input[0]!;
  const rank = rankOf(ctx, x);
  const elem = elemOf(ctx, x);
  if (rank === undefined) return refuse(`the rank of '${x}' is unknown, and the normalized axes follow from it`);
  if (elem === undefined) return refuse(`the element type of '${x}' is unknown`);
  const stash = intAttr(node, "stash_type") ?? 1;
  if (stash !== 1 || (elem !== 1 && elem !== 10 && elem !== 11))
    return refuse(`stash_type ${stash} with ${elem === 16 ? "bfloat16" : "this element type"} has no older form here`);
  const axis = intAttr(node, "axis") ?? -1;
  const first = axis < 0 ? axis + rank : axis;
  const axes = Array.from({ length: rank - first }, (_, i) => first + i);
  const eps = floatAttr(node, "epsilon") ?? 1e-5;
  const base = node.output[0] || "layernorm";
  const v = (hint: string): string => {
    const n = ctx.fresh(`${base}_${hint}`);
    ctx.setType(n, tensor(stash === 1 && elem === 10 ? 1 : elem));
    return n;
  };
  const nodes = [];
  // float16 input with stash_type = 1 is normalized in float, as LayerNormalization does.
  let input = x;
  if (elem === 10) {
    input = v("float");
    nodes.push(makeNode("Cast", [x], [input], [attributeOf("to", "INT", 1)]));
  }
  const work = elem === 10 ? 1 : elem;
  const [centered, squared, variance, shifted, std, normalized] = ["centered", "squared", "variance", "shifted", "std", "normalized"].map(v);
  // The optional Mean and InvStdDev outputs (in the statistics' type) are the intermediate values.
  const mean = node.output[1] || v("mean");
  const epsilon = numberConstant(ctx, `${base}_epsilon`, work, [], [eps]);
  const reduce = [attributeOf("axes", "INTS", axes), attributeOf("keepdims", "INT", 1)];
  nodes.push(
    makeNode("ReduceMean", [input], [mean], reduce),
    makeNode("Sub", [input, mean], [centered!]),
    makeNode("Mul", [centered!, centered!], [squared!]),
    makeNode("ReduceMean", [squared!], [variance!], reduce),
    epsilon.node,
    makeNode("Add", [variance!, epsilon.name], [shifted!]),
    makeNode("Sqrt", [shifted!], [std!]),
    makeNode("Div", [centered!, std!], [normalized!]),
  );
  if (node.output[2]) nodes.push(makeNode("Reciprocal", [std!], [node.output[2]]));
  let y = normalized!;
  if (elem === 10) {
    const back = v("back");
    ctx.setType(back, tensor(10));
    nodes.push(makeNode("Cast", [normalized!], [back], [attributeOf("to", "INT", 10)]));
    y = back;
  }
  const scaled = node.input[2] ? v("scaled") : node.output[0]!;
  nodes.push(makeNode("Mul", [y, node.input[1]!], [scaled]));
  if (node.input[2]) nodes.push(makeNode("Add", [scaled, node.input[2]], [node.output[0]!]));
  return keep(...nodes);
};
