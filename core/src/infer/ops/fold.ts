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

/** Folds a binary op whose inputs are constants, broadcasting them as the operator does. */
export function foldBinary(c: OpContext): void {
  const f = BINARY[c.node.opType];
  const a = c.constIn(0);
  const b = c.constIn(1);
  if (!f || !a || !b || c.inputCount !== 2) return;
  const shape = broadcastKnown(a.shape, b.shape);
  if (!shape) return;
  const n = shape.reduce((p, d) => p * d, 1);
  if (n > MAX_FOLDED_ELEMENTS) return;
  const at = (k: Const) => broadcastIndex(k.shape, shape);
  const ia = at(a);
  const ib = at(b);
  const integral = isIntegral(a.elem);
  const values = Array.from({ length: n }, (_, i) => f(a.values[ia(i)]!, b.values[ib(i)]!, integral));
  c.setConst(0, { elem: COMPARISONS.has(c.node.opType) ? DT.BOOL : a.elem, shape, values });
}

/** The broadcast of two known shapes, or undefined when they do not broadcast. */
function broadcastKnown(a: readonly number[], b: readonly number[]): number[] | undefined {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[i - (rank - a.length)] ?? 1;
    const y = b[i - (rank - b.length)] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return undefined;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** Maps a flat index of the broadcast `shape` to the flat index in a tensor of shape `from`. */
function broadcastIndex(from: readonly number[], shape: readonly number[]): (i: number) => number {
  const offset = shape.length - from.length;
  return (i) => {
    let src = 0;
    let stride = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      const k = i % shape[d]!;
      i = Math.floor(i / shape[d]!);
      const fd = d - offset;
      if (fd < 0) continue;
      if (from[fd] !== 1) src += k * stride;
      stride *= from[fd]!;
    }
    return src;
  };
}

export function int64Const(values: readonly number[], shape: readonly number[] = [values.length]): Const | undefined {
  return values.length <= MAX_FOLDED_ELEMENTS ? { elem: DT.INT64, shape, values } : undefined;
}
