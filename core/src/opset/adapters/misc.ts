// Scatter, Constant, GridSample, PRelu, DFT, the quantize ops and OptionalHasElement: one small
// rule each.
import { attributeOf, intAttr, removeAttr, setAttr, stringAttr, tensorAttribute } from "../attrs.js";
import { int64Proto, numberProto } from "../constants.js";
import { constInts, keep, rankOf, refuse, shapeOf, type Adapter } from "../context.js";
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

/** PRelu 6 <-> 7: from 7 slope broadcasts as numpy does; both agree for a one-element slope or one of X's shape. */
export const preluSlope: Adapter = (node, ctx) => {
  const x = shapeOf(ctx, node.input[0]!);
  const s = shapeOf(ctx, node.input[1]!);
  if (s && s.every((d) => d === 1)) return keep(node);
  if (x && s && x.length === s.length && x.every((d, i) => typeof d === "number" && d === s[i])) return keep(node);
  return refuse("the slope is neither one element nor of X's shape, and slope broadcasting changed at opset 7");
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
