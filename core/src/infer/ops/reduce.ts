// Reductions: ReduceX (axes as attribute or, in newer opsets, as an input) and ArgMax/ArgMin.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpContext, OpRule } from "../context.js";
import { normAxis, ShapeError } from "../dims.js";
import type { Dim } from "../types.js";

/** The ReduceX ops (their axes moved from an attribute to an input at 13 for ReduceSum, 18 for the rest). */
export const REDUCE = [
  "ReduceL1",
  "ReduceL2",
  "ReduceLogSum",
  "ReduceLogSumExp",
  "ReduceMax",
  "ReduceMean",
  "ReduceMin",
  "ReduceProd",
  "ReduceSum",
  "ReduceSumSquare",
];

/** The opset from which an op takes `axes` as its second input. */
function axesInputSince(op: string): number {
  return op === "ReduceSum" ? 13 : 18;
}

const reduce: OpRule = (c: OpContext) => {
  const s = c.shapeIn(0);
  const keep = c.int("keepdims", 1) === 1;
  const fromInput = c.opset >= axesInputSince(c.node.opType);
  let axes = fromInput ? (c.has(1) ? c.intsIn(1) : []) : (c.ints("axes") ?? []);
  if (!s) return;
  if (!axes) {
    if (keep)
      c.set(
        0,
        s.map(() => undefined),
      );
    return;
  }
  if (axes.length === 0) {
    if (fromInput && c.int("noop_with_empty_axes", 0) === 1) return c.set(0, s);
    axes = s.map((_, i) => i);
  }
  const norm = new Set(
    axes.map((a) => {
      const n = normAxis(a, s.length);
      if (n === undefined) throw new ShapeError(`axis ${a} is out of range for rank ${s.length}`);
      return n;
    }),
  );
  const out: Dim[] = [];
  s.forEach((d, i) => {
    if (!norm.has(i)) out.push(d);
    else if (keep) out.push(1);
  });
  c.set(0, out);
};

const argReduce: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  const axis = normAxis(c.int("axis", 0)!, s.length);
  if (axis === undefined) throw new ShapeError(`axis ${c.int("axis")} is out of range for rank ${s.length}`);
  const keep = c.int("keepdims", 1) === 1;
  c.set(0, keep ? s.map((d, i) => (i === axis ? 1 : d)) : s.filter((_, i) => i !== axis), DT.INT64);
};

export const REDUCE_RULES: Record<string, OpRule> = {
  ...Object.fromEntries(REDUCE.map((op) => [op, reduce])),
  ArgMax: argReduce,
  ArgMin: argReduce,
};
