// Float32 element-wise kernels: broadcasting binary arithmetic with contiguous inner runs,
// ReLU and per-channel affine maps. No per-element allocation or index arithmetic.

import { floats32 } from "../value.js";

export type BinaryOp = "add" | "sub" | "mul" | "div";

interface F32Result {
  data: Float32Array;
  dims: number[];
}

export function broadcastDims(a: readonly number[], b: readonly number[]): number[] | undefined {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const da = a[a.length - rank + i] ?? 1;
    const db = b[b.length - rank + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) return undefined;
    out.push(da === 1 ? db : da);
  }
  return out;
}

interface Loop {
  size: number;
  /** Element strides of a and b in this (merged) dimension; 0 where broadcast. */
  strideA: number;
  strideB: number;
}

/** Merges adjacent output dimensions that both operands traverse the same way. */
function loops(out: readonly number[], a: readonly number[], b: readonly number[]): Loop[] {
  const rank = out.length;
  const result: Loop[] = [];
  let strideA = 1,
    strideB = 1;
  for (let i = rank - 1; i >= 0; i--) {
    const size = out[i]!;
    if (size === 1) continue;
    const sa = (a[a.length - rank + i] ?? 1) === 1 ? 0 : strideA;
    const sb = (b[b.length - rank + i] ?? 1) === 1 ? 0 : strideB;
    const inner = result[result.length - 1];
    // Mergeable when each operand either broadcasts in both or is contiguous across both.
    if (
      inner &&
      (sa === 0) === (inner.strideA === 0) &&
      (sb === 0) === (inner.strideB === 0) &&
      (sa === 0 || sa === inner.strideA * inner.size) &&
      (sb === 0 || sb === inner.strideB * inner.size)
    ) {
      inner.size *= size;
    } else {
      result.push({ size, strideA: sa, strideB: sb });
    }
    if (sa !== 0) strideA *= size;
    if (sb !== 0) strideB *= size;
  }
  if (result.length === 0) result.push({ size: 1, strideA: 0, strideB: 0 });
  return result.reverse();
}

function run(op: BinaryOp, o: Float32Array, oi: number, a: Float32Array, ai: number, sa: number, b: Float32Array, bi: number, sb: number, n: number): void {
  switch (op) {
    case "add":
      for (let i = 0; i < n; i++) o[oi + i] = a[ai + i * sa]! + b[bi + i * sb]!;
      return;
    case "sub":
      for (let i = 0; i < n; i++) o[oi + i] = a[ai + i * sa]! - b[bi + i * sb]!;
      return;
    case "mul":
      for (let i = 0; i < n; i++) o[oi + i] = a[ai + i * sa]! * b[bi + i * sb]!;
      return;
    case "div":
      for (let i = 0; i < n; i++) o[oi + i] = a[ai + i * sa]! / b[bi + i * sb]!;
      return;
  }
}

/** `a op b` with numpy broadcasting; undefined when the shapes do not broadcast. */
export function binaryF32(op: BinaryOp, a: Float32Array, aDims: readonly number[], b: Float32Array, bDims: readonly number[]): F32Result | undefined {
  const dims = broadcastDims(aDims, bDims);
  if (!dims) return undefined;
  let total = 1;
  for (const d of dims) total *= d;
  const out = floats32(total);
  if (total === 0) return { data: out, dims };
  const ls = loops(dims, aDims, bDims);
  const inner = ls[ls.length - 1]!;
  const outer = ls.slice(0, -1);
  const counters = new Array<number>(outer.length).fill(0);
  let ai = 0,
    bi = 0;
  for (let oi = 0; oi < total; oi += inner.size) {
    run(op, out, oi, a, ai, inner.strideA, b, bi, inner.strideB, inner.size);
    // Odometer over the outer loops.
    for (let d = outer.length - 1; d >= 0; d--) {
      const l = outer[d]!;
      ai += l.strideA;
      bi += l.strideB;
      if (++counters[d]! < l.size) break;
      counters[d] = 0;
      ai -= l.strideA * l.size;
      bi -= l.strideB * l.size;
    }
  }
  return { data: out, dims };
}

export function reluF32(x: Float32Array): Float32Array {
  const out = floats32(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    out[i] = v < 0 ? 0 : v;
  }
  return out;
}

/**
 * y[n, c, ...] = x[n, c, ...] * scale[c] + shift[c] over `channels` channels of `inner`
 * elements each (BatchNormalization in inference, once folded to scale and shift).
 */
function channelAffineF32(x: Float32Array, channels: number, inner: number, scale: Float64Array, shift: Float64Array): Float32Array {
  const out = floats32(x.length);
  const images = x.length / (channels * inner);
  for (let n = 0, i = 0; n < images; n++) {
    for (let c = 0; c < channels; c++) {
      const s = scale[c]!,
        t = shift[c]!;
      const end = i + inner;
      for (; i < end; i++) out[i] = x[i]! * s + t;
    }
  }
  return out;
}

/** BatchNormalization (inference mode) on NC... float32 input. */
export function batchNormF32(
  x: Float32Array,
  dims: readonly number[],
  scale: Float32Array,
  bias: Float32Array,
  mean: Float32Array,
  variance: Float32Array,
  epsilon: number,
): Float32Array {
  const channels = dims[1] ?? 1;
  let inner = 1;
  for (let i = 2; i < dims.length; i++) inner *= dims[i]!;
  const s = new Float64Array(channels);
  const t = new Float64Array(channels);
  for (let c = 0; c < channels; c++) {
    s[c] = scale[c]! / Math.sqrt(variance[c]! + epsilon);
    t[c] = bias[c]! - mean[c]! * s[c]!;
  }
  return channelAffineF32(x, channels, inner, s, t);
}
