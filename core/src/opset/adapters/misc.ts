// Scatter, Constant, GridSample, PRelu, DFT, the quantize ops and OptionalHasElement: one small
// rule each.
import { attributeOf, intAttr, removeAttr, setAttr, stringAttr, tensorAttribute } from "../attrs.js";
import { int64Proto, numberProto } from "../constants.js";
import { constInts, keep, makeNode, rankOf, refuse, shapeOf, type Adapter } from "../context.js";
import { dropInput, intAttrToInput } from "./inputs.js";

/** Scatter 9 -> ScatterElements 11 (the same operator renamed), and back. */
export const scatterToElements: Adapter = (node) => {
  node.opType = "ScatterElements";
  return keep(node);
};

export const elementsToScatter: Adapter = (node, ctx) => {
  const axis = intAttr(node, "axis") ?? 0;
  if (axis < 0) {
    const rank = rankOf(ctx, node.input[0]!);
    if (rank === undefined) return refuse(`axis is negative and the rank of '${node.input[0]}' is unknown`);
    setAttr(node, attributeOf("axis", "INT", axis + rank));
  }
  node.opType = "Scatter";
  return keep(node);
};

/** Constant 12 -> 11: value_float(s)/value_int(s)/value_string(s) become a `value` tensor. */
export const constantValuesDown: Adapter = (node) => {
  const a = node.attribute[0];
  if (!a || a.name === "value" || a.name === "sparse_value") return keep(node);
  let t;
  if (a.name === "value_int") t = int64Proto([], [Number(a.i)]);
  else if (a.name === "value_ints") t = int64Proto([a.ints.length], a.ints.map(Number));
  else if (a.name === "value_float") t = numberProto(1, [], [a.f]);
  else if (a.name === "value_floats") t = numberProto(1, [a.floats.length], [...a.floats]);
  else return refuse(`${a.name} has no tensor form here before opset 12`);
  node.attribute = [tensorAttribute("value", t)];
  return keep(node);
};

/** GridSample 16 -> 20: the modes bilinear/bicubic were renamed linear/cubic; 20 also takes N-D input. */
const GRID_UP: Readonly<Record<string, string>> = { bilinear: "linear", bicubic: "cubic" };
const GRID_DOWN: Readonly<Record<string, string>> = { linear: "bilinear", cubic: "bicubic" };

export const gridSampleUp: Adapter = (node) => {
  const mode = stringAttr(node, "mode") ?? "bilinear";
  setAttr(node, attributeOf("mode", "STRING", GRID_UP[mode] ?? mode));
  return keep(node);
};

export const gridSampleDown: Adapter = (node, ctx) => {
  const rank = rankOf(ctx, node.input[0]!);
  if (rank !== 4)
    return refuse(rank === undefined ? `the rank of '${node.input[0]}' is unknown (opset 16 samples 4-D input only)` : `a ${rank}-D input is new in opset 20`);
  const mode = stringAttr(node, "mode") ?? "linear";
  setAttr(node, attributeOf("mode", "STRING", GRID_DOWN[mode] ?? mode));
  return keep(node);
};

/** PRelu before 7 takes a one-element slope, one of X's shape, or one value per channel (a [C] slope for X of rank >= 3); from 7 slope broadcasts as numpy does. */
function slopeForm(ctx: Parameters<Adapter>[1], x: string, slope: string): "same" | "channel" | "channel-trailing" | undefined {
  const xs = shapeOf(ctx, x);
  const s = shapeOf(ctx, slope);
  if (!s) return undefined;
  if (s.every((d) => d === 1)) return "same";
  if (xs && xs.length === s.length && xs.every((d, i) => typeof d === "number" && d === s[i])) return "same";
  if (!xs || xs.length < 3 || typeof xs[1] !== "number") return undefined;
  if (s.length === 1 && s[0] === xs[1]) return "channel";
  if (s.length === xs.length - 1 && s[0] === xs[1] && s.slice(1).every((d) => d === 1)) return "channel-trailing";
  return undefined;
}

export const preluUp: Adapter = (node, ctx) => {
  const [x, slope] = [node.input[0]!, node.input[1]!];
  const form = slopeForm(ctx, x, slope);
  if (form === undefined) return refuse("the slope's shape against X's is not known to be one element, X's shape or one per channel");
  if (form !== "channel") return keep(node);
  // One value per channel: trailing 1s line it up with axis 1 under numpy broadcasting.
  const rank = rankOf(ctx, x)!;
  const aligned = ctx.fresh(`${slope}_per_channel`);
  node.input[1] = aligned;
  const axes = Array.from({ length: rank - 2 }, (_, i) => i + 1);
  return keep(makeNode("Unsqueeze", [slope], [aligned], [attributeOf("axes", "INTS", axes)]), node);
};

export const preluDown: Adapter = (node, ctx) => {
  const [x, slope] = [node.input[0]!, node.input[1]!];
  const form = slopeForm(ctx, x, slope);
  if (form === undefined || form === "channel") return refuse("opset 6 takes a slope of one element, of X's shape or one per channel ([C, 1, ...])");
  if (form === "same") return keep(node);
  const rank = rankOf(ctx, x)!;
  const flat = ctx.fresh(`${slope}_channels`);
  node.input[1] = flat;
  const axes = Array.from({ length: rank - 2 }, (_, i) => i + 1);
  return keep(makeNode("Squeeze", [slope], [flat], [attributeOf("axes", "INTS", axes)]), node);
};

/** DFT 17 -> 20: axis became an input, and its default changed from 1 to -2. */
export const dftAxisUp: Adapter = intAttrToInput("axis", 2, { scalar: true, absent: [1] });

export const dftAxisDown: Adapter = (node, ctx) => {
  const given = node.input[2] ? constInts(node, 2, ctx, "axis") : [-2];
  if (typeof given === "string") return refuse(given);
  let axis = given[0]!;
  if (axis < 0) {
    const rank = rankOf(ctx, node.input[0]!);
    if (rank === undefined) return refuse(`axis is negative and the rank of '${node.input[0]}' is unknown`);
    axis += rank;
  }
  dropInput(node, 2);
  setAttr(node, attributeOf("axis", "INT", axis));
  return keep(node);
};

/** Quantize/DequantizeLinear 13 -> 10: per-axis scales are new in 13. */
export const perTensorDown: Adapter = (node, ctx) => {
  const s = shapeOf(ctx, node.input[1]!);
  removeAttr(node, "axis");
  if (s && s.reduce<number>((p, d) => p * (typeof d === "number" ? d : Number.NaN), 1) === 1) return keep(node);
  return refuse(s ? "per-axis scales are new in opset 13" : `the shape of scale '${node.input[1]}' is unknown (opset 10 takes a scalar scale only)`);
};

/** OptionalHasElement 18 -> 15: the input became optional at 18. */
export const inputRequiredDown: Adapter = (node) => (node.input[0] ? keep(node) : refuse("an absent input is new in opset 18"));
