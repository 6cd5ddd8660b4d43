// Operators whose output has the input's shape (unary) or the inputs' broadcast shape.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpContext, OpRule } from "../context.js";
import { broadcastShapes, ShapeError } from "../dims.js";
import { formatShape, type Shape } from "../types.js";
import { foldBinary } from "./fold.js";

const SAME_SHAPE = [
  "Abs",
  "Acos",
  "Acosh",
  "Asin",
  "Asinh",
  "Atan",
  "Atanh",
  "BitwiseNot",
  "Ceil",
  "Celu",
  "Clip",
  "Cos",
  "Cosh",
  "CumSum",
  "Elu",
  "Erf",
  "Exp",
  "Floor",
  "Gelu",
  "HardSigmoid",
  "HardSwish",
  "Hardmax",
  "Identity",
  "IsInf",
  "IsNaN",
  "LeakyRelu",
  "Log",
  "LogSoftmax",
  "LpNormalization",
  "LRN",
  "MeanVarianceNormalization",
  "Mish",
  "Neg",
  "Not",
  "Reciprocal",
  "Relu",
  "Round",
  "Selu",
  "Shrink",
  "Sigmoid",
  "Sign",
  "Sin",
  "Sinh",
  "Softmax",
  "Softplus",
  "Softsign",
  "Sqrt",
  "Swish",
  "Tan",
  "Tanh",
  "ThresholdedRelu",
  "Trilu",
  "InstanceNormalization",
  "ReverseSequence",
  "ScatterElements",
  "ScatterND",
  "Scatter",
  "Bernoulli",
  "GroupNormalization",
  "RMSNormalization",
  "CastLike",
];

const BROADCAST = [
  "Add",
  "Sub",
  "Mul",
  "Div",
  "Pow",
  "Mod",
  "And",
  "Or",
  "Xor",
  "Equal",
  "Greater",
  "Less",
  "GreaterOrEqual",
  "LessOrEqual",
  "BitShift",
  "BitwiseAnd",
  "BitwiseOr",
  "BitwiseXor",
  "Max",
  "Min",
  "Sum",
  "Mean",
  "Where",
  "PRelu",
];

/** The first input's shape (and its folded value, for Identity). */
const sameShape: OpRule = (c) => {
  // Identity and friends also pass sequences and optionals through: keep what the constraints gave.
  if (!c.tensorIn(0)) return;
  c.set(0, c.shapeIn(0));
  const k = c.constIn(0);
  if (k && (c.node.opType === "Identity" || c.node.opType === "Neg" || c.node.opType === "Abs")) {
    const f = c.node.opType === "Neg" ? (v: number) => -v : c.node.opType === "Abs" ? Math.abs : (v: number) => v;
    c.setConst(0, { elem: k.elem, shape: k.shape, values: k.values.map(f) });
  }
};

function broadcastOrReport(c: OpContext, shapes: readonly Shape[]): Shape | undefined {
  try {
    return broadcastShapes(shapes);
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    c.report("broadcast-mismatch", `${c.node.opType} cannot broadcast ${shapes.map(formatShape).join(" and ")}: ${e.message}`);
    return undefined;
  }
}

const broadcast: OpRule = (c) => {
  // Before opset 7 the second input broadcast to the first one (legacy `broadcast` attribute).
  if (c.opset < 7 && ["Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"].includes(c.node.opType)) {
    c.set(0, c.shapeIn(0));
    return;
  }
  if (c.node.opType === "PRelu" && c.opset < 7) {
    c.set(0, c.shapeIn(0));
    return;
  }
  let shapes: Shape[] | undefined;
  for (let i = 0; i < c.inputCount; i++) {
    if (!c.has(i)) continue;
    const s = c.shapeIn(i);
    if (!s) return;
    // A literal, then pushes: a list made by push alone starts with room for 17.
    if (shapes) shapes.push(s);
    else shapes = [s];
  }
  if (!shapes) return;
  const shape = broadcastOrReport(c, shapes);
  if (c.node.opType === "Where") c.set(0, shape, c.elemIn(1) || c.elemOut(0));
  else c.set(0, shape);
  foldBinary(c);
};

const cast: OpRule = (c) => {
  const to = c.int("to") ?? 0;
  c.set(0, c.shapeIn(0), to);
  const k = c.constIn(0);
  if (k && (to === DT.INT64 || to === DT.INT32 || to === DT.FLOAT || to === DT.DOUBLE || to === DT.BOOL)) {
    const integral = to === DT.INT64 || to === DT.INT32;
    const values = to === DT.BOOL ? k.values.map((v) => (v !== 0 ? 1 : 0)) : integral ? k.values.map(Math.trunc) : k.values;
    c.setConst(0, { elem: to, shape: k.shape, values });
  }
};

export const ELEMENTWISE_RULES: Record<string, OpRule> = {
  ...Object.fromEntries(SAME_SHAPE.map((op) => [op, sameShape])),
  ...Object.fromEntries(BROADCAST.map((op) => [op, broadcast])),
  Cast: cast,
  CastLike: (c) => {
    c.set(0, c.shapeIn(0), c.elemIn(1) || c.elemOut(0));
  },
  IsNaN: (c) => c.set(0, c.shapeIn(0), DT.BOOL),
  IsInf: (c) => c.set(0, c.shapeIn(0), DT.BOOL),
  Dropout: (c) => {
    c.set(0, c.shapeIn(0));
    if (c.node.output.length > 1) c.set(1, c.shapeIn(0), c.opset >= 10 ? DT.BOOL : c.elemIn(0));
  },
  QuantizeLinear: (c) => {
    const zp = c.has(2) ? c.elemIn(2) : 0;
    const out = c.int("output_dtype", 0) || zp || DT.UINT8;
    c.set(0, c.shapeIn(0), out);
  },
  DequantizeLinear: (c) => {
    const out = c.int("output_dtype", 0) || (c.opset >= 19 ? c.elemIn(1) : DT.FLOAT) || DT.FLOAT;
    c.set(0, c.shapeIn(0), out);
  },
  DynamicQuantizeLinear: (c) => {
    c.set(0, c.shapeIn(0), DT.UINT8);
    c.set(1, [], DT.FLOAT);
    c.set(2, [], DT.UINT8);
  },
  EyeLike: (c) => c.set(0, c.shapeIn(0), c.int("dtype", 0) || c.elemIn(0)),
  RandomUniformLike: (c) => c.set(0, c.shapeIn(0), c.int("dtype", 0) || c.elemIn(0)),
  RandomNormalLike: (c) => c.set(0, c.shapeIn(0), c.int("dtype", 0) || c.elemIn(0)),
  Bernoulli: (c) => c.set(0, c.shapeIn(0), c.int("dtype", 0) || c.elemIn(0)),
  Multinomial: (c) => {
    const s = c.shapeIn(0);
    c.set(0, s ? [s[0], c.int("sample_size", 1)] : undefined, c.int("dtype", DT.INT32));
  },
};
