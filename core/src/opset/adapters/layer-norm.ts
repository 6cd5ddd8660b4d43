// LayerNormalization (new at 17) and RMSNormalization (new at 23) below their first version, as
// the arithmetic they name: over the axes from `axis` to the last, statistics in float
// (stash_type 1) with ReduceMean, Sub, Mul, Add, Sqrt and Div, the input cast to float and the
// result back when it is of another type. onnx gives no text body (its body depends on the call).
import { tensor } from "../../infer/types.js";
import { attributeOf, floatAttr, intAttr } from "../attrs.js";
import { elemOf, makeNode, numberConstant, rankOf, refuse, type Adapter, type StepContext } from "../context.js";
import type { NodeProto } from "../../../../proto/src/index.js";

const FLOATS = new Set([1, 10, 11]);

function normalize(node: NodeProto, ctx: StepContext, centered: boolean): ReturnType<Adapter> {
  const x = node.input[0]!;
  const rank = rankOf(ctx, x);
  const elem = elemOf(ctx, x);
  if (rank === undefined) return refuse(`the rank of '${x}' is unknown, and the normalized axes follow from it`);
  if (elem === undefined || !FLOATS.has(elem))
    return refuse(`the element type of '${x}' is ${elem === undefined ? "unknown" : "not float16, float or double"}`);
  const scaleElem = elemOf(ctx, node.input[1]!);
  if (scaleElem !== elem) return refuse(`the scale's element type differs from the input's (or is unknown)`);
  if ((intAttr(node, "stash_type") ?? 1) !== 1) return refuse("stash_type other than float has no older form here");
  const axis = intAttr(node, "axis") ?? -1;
  const first = axis < 0 ? axis + rank : axis;
  const axes = Array.from({ length: rank - first }, (_, i) => first + i);
  const base = node.output[0] || node.opType;
  const v = (hint: string, type = 1): string => {
    const n = ctx.fresh(`${base}_${hint}`);
    ctx.setType(n, tensor(type));
    return n;
  };
  const nodes: NodeProto[] = [];
  let input = x;
  if (elem !== 1) {
    input = v("float");
    nodes.push(makeNode("Cast", [x], [input], [attributeOf("to", "INT", 1)]));
  }
  const reduce = [attributeOf("axes", "INTS", axes), attributeOf("keepdims", "INT", 1)];
  let deviation = input;
  if (centered) {
    // The optional Mean output (float) is the mean itself.
    const mean = node.output[1] || v("mean");
    deviation = v("centered");
    nodes.push(makeNode("ReduceMean", [input], [mean], reduce), makeNode("Sub", [input, mean], [deviation]));
  }
  const [squared, meanSquare, shifted, root, normalized] = ["squared", "mean_square", "shifted", "root", "normalized"].map((h) => v(h));
  const epsilon = numberConstant(ctx, `${base}_epsilon`, 1, [], [floatAttr(node, "epsilon") ?? 1e-5]);
  nodes.push(
    makeNode("Mul", [deviation, deviation], [squared!]),
    makeNode("ReduceMean", [squared!], [meanSquare!], reduce),
    epsilon.node,
    makeNode("Add", [meanSquare!, epsilon.name], [shifted!]),
    makeNode("Sqrt", [shifted!], [root!]),
    makeNode("Div", [deviation, root!], [normalized!]),
  );
  if (centered && node.output[2]) nodes.push(makeNode("Reciprocal", [root!], [node.output[2]]));
  let y = normalized!;
  if (elem !== 1) {
    y = v("back", elem);
    nodes.push(makeNode("Cast", [normalized!], [y], [attributeOf("to", "INT", elem)]));
  }
  const bias = centered ? node.input[2] : undefined;
  const scaled = bias ? v("scaled", elem) : node.output[0]!;
  nodes.push(makeNode("Mul", [y, node.input[1]!], [scaled]));
  if (bias) nodes.push(makeNode("Add", [scaled, bias], [node.output[0]!]));
  // Written for opset 13 (ReduceMean takes axes as an attribute there); they move on from it.
  return { nodes, at: 13 };
}

export const layerNormBelow17: Adapter = (node, ctx) => normalize(node, ctx, true);
export const rmsNormBelow23: Adapter = (node, ctx) => normalize(node, ctx, false);
