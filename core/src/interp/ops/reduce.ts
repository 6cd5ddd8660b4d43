// Reductions over axes (ReduceSum and friends, ArgMax/ArgMin) and the softmax family.
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, int64Tensor, isBigType, numbers, sizeOf, stridesOf, tensor, type Tensor, type Value, floats64 } from "../value.js";
import { axisOf, optInts, splitAt, t } from "./util.js";

interface Reduction {
  init: number;
  step: (acc: number, x: number) => number;
  finish?: (acc: number, count: number) => number;
  /** Applied to each element before stepping. */
  pre?: (x: number) => number;
}

/** Reduces `x` over `axes`; returns a Float64Array of the kept shape (dims with 1s). */
function reduceAxes(x: Tensor, axes: readonly number[], red: Reduction): { dims: number[]; values: Float64Array } {
  const rank = x.dims.length;
  const set = new Set(axes);
  const outDims = x.dims.map((d, i) => (set.has(i) ? 1 : d));
  const outN = sizeOf(outDims);
  const values = floats64(outN).fill(red.init);
  const src = numbers(x);
  const n = src.length;
  const os = stridesOf(outDims);
  const st = x.dims.map((_, i) => (set.has(i) ? 0 : os[i]!));
  const pos = new Array<number>(rank).fill(0);
  let off = 0;
  const pre = red.pre;
  for (let i = 0; i < n; i++) {
    const v = pre ? pre(src[i]!) : src[i]!;
    values[off] = red.step(values[off]!, v);
    for (let r = rank - 1; r >= 0; r--) {
      pos[r]!++;
      off += st[r]!;
      if (pos[r]! < x.dims[r]!) break;
      off -= st[r]! * pos[r]!;
      pos[r] = 0;
    }
  }
  if (red.finish) {
    const count = n / Math.max(outN, 1);
    for (let i = 0; i < outN; i++) values[i] = red.finish(values[i]!, count);
  }
  return { dims: outDims, values };
}

const REDUCTIONS: Record<string, Reduction> = {
  ReduceSum: { init: 0, step: (a, x) => a + x },
  ReduceMean: { init: 0, step: (a, x) => a + x, finish: (a, n) => a / n },
  ReduceMax: { init: -Infinity, step: (a, x) => (Number.isNaN(x) || x > a ? x : a) },
  ReduceMin: { init: Infinity, step: (a, x) => (Number.isNaN(x) || x < a ? x : a) },
  ReduceProd: { init: 1, step: (a, x) => a * x },
  ReduceL1: { init: 0, step: (a, x) => a + Math.abs(x) },
  ReduceL2: { init: 0, step: (a, x) => a + x * x, finish: (a) => Math.sqrt(a) },
  ReduceLogSum: { init: 0, step: (a, x) => a + x, finish: (a) => Math.log(a) },
  ReduceSumSquare: { init: 0, step: (a, x) => a + x * x },
};

/** Axes from the input (newer opsets) or the attribute; undefined means all axes. */
function reduceAxesOf(inputs: readonly (Value | undefined)[], ctx: KernelContext, inputSince: number): number[] | undefined {
  const fromInput = ctx.opset >= inputSince ? optInts(inputs[1]) : undefined;
  const axes = fromInput ?? ctx.attrs.ints("axes");
  if (axes && axes.length === 0) return undefined;
  return axes;
}

function reduceKernel(name: string, inputSince: number) {
  return (inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const x = t(inputs[0]);
    const rank = x.dims.length;
    const keep = ctx.attrs.int("keepdims", 1) === 1;
    let axes = reduceAxesOf(inputs, ctx, inputSince);
    if (axes === undefined) {
      if (ctx.attrs.int("noop_with_empty_axes", 0) === 1) return [x];
      axes = x.dims.map((_, i) => i);
    }
    const norm = axes.map((a) => axisOf(a, rank));
    if (name === "ReduceLogSumExp") return [logSumExp(x, norm, keep)];
    let red = REDUCTIONS[name]!;
    if (x.dtype === DT.BOOL && (name === "ReduceMax" || name === "ReduceMin")) {
      // an empty bool max is false, an empty min is true
      red = { ...red, init: name === "ReduceMax" ? 0 : 1 };
    }
    if (isBigType(x.dtype) && (name === "ReduceMax" || name === "ReduceMin" || name === "ReduceSum" || name === "ReduceProd")) {
      return [bigReduce(x, norm, keep, name)];
    }
    const { dims, values } = reduceAxes(x, norm, red);
    return [fromNumbers(x.dtype, keep ? dims : dims.filter((_, i) => !norm.includes(i)), values)];
  };
}

function bigReduce(x: Tensor, axes: number[], keep: boolean, name: string): Tensor {
  const rank = x.dims.length;
  const set = new Set(axes);
  const outDims = x.dims.map((d, i) => (set.has(i) ? 1 : d));
  const out = tensor(x.dtype, keep ? outDims : outDims.filter((_, i) => !set.has(i)));
  const o = out.data as BigInt64Array;
  const src = x.data as BigInt64Array;
  const seen = new Uint8Array(o.length);
  const os = stridesOf(outDims);
  const pos = new Array<number>(rank).fill(0);
  if (name === "ReduceProd") o.fill(1n);
  for (let i = 0; i < src.length; i++) {
    let off = 0;
    for (let r = 0; r < rank; r++) if (!set.has(r)) off += pos[r]! * os[r]!;
    const v = src[i]!;
    if (name === "ReduceSum") o[off] = o[off]! + v;
    else if (name === "ReduceProd") o[off] = o[off]! * v;
    else if (!seen[off] || (name === "ReduceMax" ? v > o[off]! : v < o[off]!)) o[off] = v;
    seen[off] = 1;
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < x.dims[r]!) break;
      pos[r] = 0;
    }
  }
  return out;
}

function logSumExp(x: Tensor, axes: number[], keep: boolean): Tensor {
  const max = reduceAxes(x, axes, REDUCTIONS.ReduceMax!);
  const rank = x.dims.length;
  const src = numbers(x);
  const sums = floats64(max.values.length);
  const os = stridesOf(max.dims);
  const pos = new Array<number>(rank).fill(0);
  for (let i = 0; i < src.length; i++) {
    let off = 0;
    for (let r = 0; r < rank; r++) if (max.dims[r] !== 1 || x.dims[r] === 1) off += pos[r]! * os[r]!;
    const m = max.values[off]!;
    sums[off] = sums[off]! + Math.exp(src[i]! - (Number.isFinite(m) ? m : 0));
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < x.dims[r]!) break;
      pos[r] = 0;
    }
  }
  for (let i = 0; i < sums.length; i++) {
    const m = max.values[i]!;
    sums[i] = Math.log(sums[i]!) + (Number.isFinite(m) ? m : 0);
  }
  return fromNumbers(x.dtype, keep ? max.dims : max.dims.filter((_, i) => !axes.includes(i)), sums);
}

function argReduce(isMax: boolean) {
  return ([input]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const x = t(input);
    const axis = axisOf(ctx.attrs.int("axis", 0), x.dims.length);
    const keep = ctx.attrs.int("keepdims", 1) === 1;
    const last = ctx.attrs.int("select_last_index", 0) === 1;
    const [outer, dim, inner] = splitAt(x.dims, axis);
    const src = numbers(x);
    const res = floats64(outer * inner);
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < inner; i++) {
        let best = 0;
        let bv = src[o * dim * inner + i]!;
        for (let k = 1; k < dim; k++) {
          const v = src[(o * dim + k) * inner + i]!;
          if (isMax ? v > bv || (last && v === bv) : v < bv || (last && v === bv)) {
            bv = v;
            best = k;
          }
        }
        res[o * inner + i] = best;
      }
    }
    const dims = x.dims.slice();
    if (keep) dims[axis] = 1;
    else dims.splice(axis, 1);
    return [int64Tensor(dims, res)];
  };
}

/** Softmax over `axis` (opset >= 13) or over the flattened dims from `axis` (older opsets). */
function softmaxKernel(kind: "softmax" | "log" | "hard") {
  return ([input]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const x = t(input);
    const rank = x.dims.length;
    const newStyle = ctx.opset >= 13;
    const axis = axisOf(ctx.attrs.int("axis", newStyle ? -1 : 1), rank);
    let outer: number;
    let dim: number;
    let inner: number;
    if (newStyle) [outer, dim, inner] = splitAt(x.dims, axis);
    else {
      outer = sizeOf(x.dims.slice(0, axis));
      dim = sizeOf(x.dims.slice(axis));
      inner = 1;
    }
    const src = numbers(x);
    const out = floats64(src.length);
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < inner; i++) {
        const base = o * dim * inner + i;
        let max = -Infinity;
        let arg = 0;
        for (let k = 0; k < dim; k++) {
          const v = src[base + k * inner]!;
          if (v > max) {
            max = v;
            arg = k;
          }
        }
        if (kind === "hard") {
          out[base + arg * inner] = 1;
          continue;
        }
        let sum = 0;
        for (let k = 0; k < dim; k++) sum += Math.exp(src[base + k * inner]! - max);
        if (kind === "log") {
          const ls = Math.log(sum);
          for (let k = 0; k < dim; k++) out[base + k * inner] = src[base + k * inner]! - max - ls;
        } else for (let k = 0; k < dim; k++) out[base + k * inner] = Math.exp(src[base + k * inner]! - max) / sum;
      }
    }
    return [fromNumbers(x.dtype, x.dims, out)];
  };
}

/** CumSum and CumProd: a running fold along one axis, optionally exclusive and/or reversed. */
export function cumulative(start: number, step: (acc: number, v: number) => number) {
  return ([input, axisIn]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const x = t(input);
    const axis = axisOf(optInts(axisIn)![0]!, x.dims.length);
    const exclusive = ctx.attrs.int("exclusive", 0) === 1;
    const reverse = ctx.attrs.int("reverse", 0) === 1;
    const [outer, dim, inner] = splitAt(x.dims, axis);
    const src = numbers(x);
    const out = floats64(src.length);
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < inner; i++) {
        let acc = start;
        for (let j = 0; j < dim; j++) {
          const k = reverse ? dim - 1 - j : j;
          const idx = (o * dim + k) * inner + i;
          if (exclusive) out[idx] = acc;
          acc = step(acc, src[idx]!);
          if (!exclusive) out[idx] = acc;
        }
      }
    }
    return [fromNumbers(x.dtype, x.dims, out)];
  };
}

export function registerReductions(r: Registry): void {
  for (const name of Object.keys(REDUCTIONS)) r.register(name, reduceKernel(name, name === "ReduceSum" ? 13 : 18));
  r.register("ReduceLogSumExp", reduceKernel("ReduceLogSumExp", 18));
  r.register("ArgMax", argReduce(true));
  r.register("ArgMin", argReduce(false));
  r.register("Softmax", softmaxKernel("softmax"));
  r.register("LogSoftmax", softmaxKernel("log"));
  r.register("Hardmax", softmaxKernel("hard"));
  r.register(
    "CumSum",
    cumulative(0, (acc, v) => acc + v),
  );
}
