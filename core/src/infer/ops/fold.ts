// Folding of small constant computations, so that shapes computed inside the graph (the
// usual Shape -> Gather -> Concat -> Reshape chains) become known.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import { isIntegral, MAX_FOLDED_ELEMENTS, type Const } from "../constants.js";
import type { OpContext } from "../context.js";

const BINARY: Record<string, (a: number, b: number, integral: boolean) => number> = {
  Add: (a, b) => a + b,
  Sub: (a, b) => a - b,
  Mul: (a, b) => a * b,
  Div: (a, b, integral) => (integral ? Math.trunc(a / b) : a / b),
  Mod: (a, b) => a - Math.floor(a / b) * b,
  Max: (a, b) => Math.max(a, b),
  Min: (a, b) => Math.min(a, b),
  Equal: (a, b) => (a === b ? 1 : 0),
  Less: (a, b) => (a < b ? 1 : 0),
  Greater: (a, b) => (a > b ? 1 : 0),
};

const COMPARISONS = new Set(["Equal", "Less", "Greater"]);

/** Folds a binary op whose inputs are constants of equal size or one of them a single value. */
export function foldBinary(c: OpContext): void {
  const f = BINARY[c.node.opType];
  const a = c.constIn(0);
  const b = c.constIn(1);
  if (!f || !a || !b || c.inputCount !== 2) return;
  const n = Math.max(a.values.length, b.values.length);
  if ((a.values.length !== n && a.values.length !== 1) || (b.values.length !== n && b.values.length !== 1)) return;
  const shape = a.values.length >= b.values.length && a.shape.length >= b.shape.length ? a.shape : b.shape;
  const integral = isIntegral(a.elem);
  const values = Array.from({ length: n }, (_, i) => f(a.values[a.values.length === 1 ? 0 : i]!, b.values[b.values.length === 1 ? 0 : i]!, integral));
  c.setConst(0, { elem: COMPARISONS.has(c.node.opType) ? DT.BOOL : a.elem, shape, values });
}

export function int64Const(values: readonly number[], shape: readonly number[] = [values.length]): Const | undefined {
  return values.length <= MAX_FOLDED_ELEMENTS ? { elem: DT.INT64, shape, values } : undefined;
}
