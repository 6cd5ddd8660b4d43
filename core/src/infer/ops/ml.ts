// ai.onnx.ml operators: classic ML models and feature transforms. Most keep the batch
// dimension and fix or compute the feature dimension from attributes.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpRule } from "../context.js";
import { tensor, type Dim } from "../types.js";

/** Rows of a 1-D or 2-D input: [N] or [N, C] both give N. */
const batchOf = (s: readonly Dim[] | undefined): Dim => (s && s.length > 0 ? (s.length === 1 ? 1 : s[0]) : undefined);

function classLabelsElem(c: Parameters<OpRule>[0]): number {
  return c.hasAttr("classlabels_strings") ? DT.STRING : DT.INT64;
}

function classCount(c: Parameters<OpRule>[0]): number | undefined {
  const strings = c.strings("classlabels_strings");
  const ints = c.ints("classlabels_ints") ?? c.ints("classlabels_int64s");
  const n = strings?.length || ints?.length;
  return n || undefined;
}

const classifier: OpRule = (c) => {
  const n = batchOf(c.shapeIn(0));
  c.set(0, [n], classLabelsElem(c));
  const classes = classCount(c);
  c.set(1, [n, classes === 2 && c.node.opType === "LinearClassifier" ? undefined : classes], DT.FLOAT);
};

const labelEncoder: OpRule = (c) => {
  const elem = c.hasAttr("values_strings")
    ? DT.STRING
    : c.hasAttr("values_int64s")
      ? DT.INT64
      : c.hasAttr("values_floats")
        ? DT.FLOAT
        : (c.tensorAttr("values_tensor")?.dataType ?? 0);
  c.set(0, c.shapeIn(0), elem);
};

const sameShapeFloat: OpRule = (c) => c.set(0, c.shapeIn(0), DT.FLOAT);

export const ML_RULES: Record<string, OpRule> = {
  Binarizer: (c) => c.set(0, c.shapeIn(0)),
  Imputer: (c) => c.set(0, c.shapeIn(0)),
  Normalizer: sameShapeFloat,
  Scaler: sameShapeFloat,
  LabelEncoder: labelEncoder,
  CategoryMapper: (c) => c.set(0, c.shapeIn(0), c.elemIn(0) === DT.STRING ? DT.INT64 : DT.STRING),
  ArrayFeatureExtractor: (c) => {
    const x = c.shapeIn(0);
    const idx = c.shapeIn(1);
    if (!x) return;
    const count = idx ? idx.reduce<Dim>((a, d) => (typeof a === "number" && typeof d === "number" ? a * d : undefined), 1) : undefined;
    c.set(0, x.length <= 1 ? [1, count] : [...x.slice(0, -1), count]);
  },
  OneHotEncoder: (c) => {
    const x = c.shapeIn(0);
    const n = c.ints("cats_int64s")?.length || c.strings("cats_strings")?.length || undefined;
    if (x) c.set(0, [...x, n], DT.FLOAT);
  },
  LinearRegressor: (c) => c.set(0, [batchOf(c.shapeIn(0)), c.int("targets", 1)], DT.FLOAT),
  SVMRegressor: (c) => c.set(0, [batchOf(c.shapeIn(0)), 1], DT.FLOAT),
  LinearClassifier: classifier,
  SVMClassifier: classifier,
  TreeEnsembleClassifier: classifier,
  TreeEnsembleRegressor: (c) => c.set(0, [batchOf(c.shapeIn(0)), c.int("n_targets", 1)], DT.FLOAT),
  TreeEnsemble: (c) => c.set(0, [batchOf(c.shapeIn(0)), c.int("n_targets")]),
  FeatureVectorizer: (c) => {
    const dims = c.ints("inputdimensions");
    c.set(0, [batchOf(c.shapeIn(0)), dims ? dims.reduce((a, b) => a + b, 0) : undefined], DT.FLOAT);
  },
  DictVectorizer: (c) => {
    const n = c.strings("string_vocabulary")?.length || c.ints("int64_vocabulary")?.length || undefined;
    c.set(0, [1, n]);
  },
  ZipMap: (c) => {
    const key = c.hasAttr("classlabels_strings") ? DT.STRING : DT.INT64;
    c.setType(0, { kind: "sequence", elem: { kind: "map", key, value: tensor(DT.FLOAT, []) } });
  },
  CastMap: (c) => {
    const to = c.string("cast_to", "TO_FLOAT");
    c.set(0, [1, undefined], to === "TO_STRING" ? DT.STRING : to === "TO_INT64" ? DT.INT64 : DT.FLOAT);
  },
};
