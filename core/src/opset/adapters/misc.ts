// Cast, Concat, Split 1 -> 2, Scatter, Slice, TopK, Reshape, Constant, GridSample, PRelu, DFT
// and the quantize ops: one small rule each.
import { AttributeProto_AttributeType as AT, dataTypeByName, dataTypeInfo } from "../../../../proto/src/index.js";
import { attributeOf, getAttr, intAttr, removeAttr, setAttr, stringAttr, tensorAttribute } from "../attrs.js";
import { int64Proto, numberProto } from "../constants.js";
import { tensor } from "../../infer/types.js";
import { constInts, elemOf, int64Constant, keep, makeNode, rankOf, refuse, shapeOf, type Adapter } from "../context.js";
import { dropInput, intAttrToInput, intInputToAttr } from "./inputs.js";

const CAST_NAMES: Readonly<Record<string, string>> = {
  FLOAT: "float",
  FLOAT16: "float16",
  DOUBLE: "double",
  STRING: "string",
  BOOL: "bool",
  COMPLEX64: "complex64",
  COMPLEX128: "complex128",
};

/** Cast 1 -> 6: `to` changed from a type name (STRING) to a TensorProto.DataType (INT). */
export const castToUp: Adapter = (node) => {
  const a = getAttr(node, "to");
  if (!a || a.type !== AT.STRING) return keep(node);
  const name = stringAttr(node, "to")!;
  const info = dataTypeByName(CAST_NAMES[name.toUpperCase()] ?? name.toLowerCase());
  if (!info) return refuse(`unknown type name '${name}'`);
  setAttr(node, attributeOf("to", "INT", info.id));
  return keep(node);
};

export const castToDown: Adapter = (node) => {
  const to = intAttr(node, "to");
  const info = to === undefined ? undefined : dataTypeInfo(to);
  if (!info) return refuse("no valid 'to' attribute");
  setAttr(node, attributeOf("to", "STRING", info.name.toUpperCase()));
  return keep(node);
};

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

const FLOAT8 = new Set([17, 18, 19, 20, 23]);

/** Cast/CastLike/QuantizeLinear 19 -> older: saturate concerns float8 only; dropped when no float8 is involved. */
export const saturateDown: Adapter = (node, ctx) => {
  const types = [...node.input, ...node.output].filter((n) => n !== "").map((n) => elemOf(ctx, n));
  const to = intAttr(node, "to");
  if (types.some((t) => t === undefined)) return refuse("saturate is new in opset 19 and the element types are not all known");
  if ([...types, to].some((t) => t !== undefined && FLOAT8.has(t))) return refuse("saturate concerns float8 types, new in opset 19");
  removeAttr(node, "saturate");
  return keep(node);
};

/** CastLike-15 below 15: a Cast to the element type of its second input. */
export const castLikeToCast: Adapter = (node, ctx) => {
  const to = elemOf(ctx, node.input[1] ?? "");
  if (to === undefined) return refuse(`the element type of '${node.input[1]}' is unknown, and Cast needs it as 'to'`);
  node.opType = "Cast";
  node.input = [node.input[0]!];
  setAttr(node, attributeOf("to", "INT", to));
  return keep(node);
};
