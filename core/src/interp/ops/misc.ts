// Assorted tensor kernels: Clip, Range, Trilu, OneHot, EyeLike, Compress, TopK, NonZero,
// DepthToSpace/SpaceToDepth, ReverseSequence, Unique, Det, window functions.
import type { KernelContext, Registry } from "../registry.js";
import {
  DT,
  fromNumbers,
  getElement,
  int64Tensor,
  intList,
  isBigType,
  numbers,
  reshaped,
  sizeOf,
  stridesOf,
  tensor,
  type TensorData,
  type Value,
  floats64,
} from "../value.js";
import { transpose } from "./shape.js";
import { axisOf, fail, splitAt, t } from "./util.js";

type Slots = { [i: number]: unknown; length: number };
const slots = (d: TensorData) => d as unknown as Slots;

function clip(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const x = t(inputs[0]);
  let lo: number | bigint = -Infinity;
  let hi: number | bigint = Infinity;
  if (ctx.opset < 11) {
    lo = ctx.attrs.float("min", -Infinity);
    hi = ctx.attrs.float("max", Infinity);
  } else {
    if (inputs[1] !== undefined) lo = getElement(t(inputs[1]), 0) as number | bigint;
    if (inputs[2] !== undefined) hi = getElement(t(inputs[2]), 0) as number | bigint;
  }
  if (isBigType(x.dtype)) {
    const out = tensor(x.dtype, x.dims);
    const s = x.data as BigInt64Array;
    const o = out.data as BigInt64Array;
    for (let i = 0; i < s.length; i++) {
      let v = s[i]!;
      if (typeof lo === "bigint" && v < lo) v = lo;
      if (typeof hi === "bigint" && v > hi) v = hi;
      o[i] = v;
    }
    return [out];
  }
  const l = Number(lo);
  const h = Number(hi);
  const src = numbers(x);
  const out = floats64(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i]!;
    const low = v < l ? l : v;
    out[i] = low > h ? h : low;
  }
  return [fromNumbers(x.dtype, x.dims, out)];
}

function range([s, l, d]: readonly (Value | undefined)[]): Value[] {
  const st = t(s);
  const start = Number(getElement(st, 0));
  const limit = Number(getElement(t(l), 0));
  const delta = Number(getElement(t(d), 0));
  if (delta === 0) fail("delta is 0 (the number of elements would divide by zero)");
  if (![start, limit, delta].every(Number.isFinite)) fail(`start ${start}, limit ${limit} and delta ${delta} must be finite`);
  const n = Math.max(Math.ceil((limit - start) / delta), 0);
  // claimed before it is allocated: a tiny delta asks for a huge output
  const out = floats64(n);
  for (let i = 0; i < n; i++) out[i] = start + i * delta;
  return [fromNumbers(st.dtype, [n], out)];
}

function trilu([x, k]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const kk = k === undefined ? 0 : intList(t(k))[0]!;
  const upper = ctx.attrs.int("upper", 1) === 1;
  const rank = a.dims.length;
  const rows = a.dims[rank - 2]!;
  const cols = a.dims[rank - 1]!;
  const out = tensor(a.dtype, a.dims);
  const src = slots(a.data);
  const dst = slots(out.data);
  const zero = out.data[0];
  for (let i = 0; i < dst.length; i++) {
    const c = i % cols;
    const r = Math.floor(i / cols) % rows;
    const keep = upper ? c - r >= kk : c - r <= kk;
    dst[i] = keep ? src[i] : zero;
  }
  return [out];
}

function oneHot([idx, depth, values]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const ind = numbers(t(idx));
  const d = Number(getElement(t(depth), 0));
  const v = t(values);
  const rank = t(idx).dims.length + 1;
  const axis = axisOf(ctx.attrs.int("axis", -1), rank);
  const dims = t(idx).dims.slice();
  dims.splice(axis, 0, d);
  const out = tensor(v.dtype, dims);
  const [outer, , inner] = splitAt(dims, axis);
  const dst = slots(out.data);
  const off = v.data[0];
  const on = v.data[1];
  for (let i = 0; i < dst.length; i++) dst[i] = off;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let k = Math.trunc(ind[o * inner + i]!);
      if (k < 0) k += d;
      if (k >= 0 && k < d) dst[(o * d + k) * inner + i] = on;
    }
  }
  return [out];
}

function eyeLike([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const dtype = ctx.attrs.int("dtype", a.dtype);
  const k = ctx.attrs.int("k", 0);
  const [rows, cols] = a.dims as [number, number];
  const vals = floats64(rows * cols);
  for (let r = 0; r < rows; r++) {
    const c = r + k;
    if (c >= 0 && c < cols) vals[r * cols + c] = 1;
  }
  return [fromNumbers(dtype, a.dims, vals)];
}

function compress([x, c]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  let a = t(x);
  const cond = t(c).data as Uint8Array;
  let axis = ctx.attrs.int("axis");
  if (axis === undefined) {
    a = reshaped(a, [sizeOf(a.dims)]);
    axis = 0;
  }
  const ax = axisOf(axis, a.dims.length);
  const [outer, dim, inner] = splitAt(a.dims, ax);
  const keep: number[] = [];
  for (let i = 0; i < Math.min(dim, cond.length); i++) if (cond[i]) keep.push(i);
  const dims = a.dims.slice();
  dims[ax] = keep.length;
  const out = tensor(a.dtype, dims);
  const src = slots(a.data);
  const dst = slots(out.data);
  let o = 0;
  for (let p = 0; p < outer; p++) for (const k of keep) for (let i = 0; i < inner; i++) dst[o++] = src[(p * dim + k) * inner + i];
  return [out];
}

function topK([x, kIn]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const k = kIn === undefined ? ctx.attrs.int("k", 1) : intList(t(kIn))[0]!;
  const axis = axisOf(ctx.attrs.int("axis", -1), a.dims.length);
  if (!Number.isInteger(k) || k < 0 || k > (a.dims[axis] ?? 1)) {
    fail(`k = ${k} must be from 0 to the size of axis ${axis} (${a.dims[axis] ?? 1})`);
  }
  const largest = ctx.attrs.int("largest", 1) === 1;
  const [outer, dim, inner] = splitAt(a.dims, axis);
  const src = numbers(a);
  const dims = a.dims.slice();
  dims[axis] = k;
  const vals = floats64(outer * k * inner);
  const idxs = floats64(outer * k * inner);
  const order = new Array<number>(dim);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      for (let j = 0; j < dim; j++) order[j] = j;
      const at = (j: number) => src[(o * dim + j) * inner + i]!;
      order.sort((p, q) => {
        const d = largest ? at(q) - at(p) : at(p) - at(q);
        return d !== 0 && !Number.isNaN(d) ? d : p - q;
      });
      for (let j = 0; j < k; j++) {
        vals[(o * k + j) * inner + i] = at(order[j]!);
        idxs[(o * k + j) * inner + i] = order[j]!;
      }
    }
  }
  if (isBigType(a.dtype)) {
    const big = a.data as BigInt64Array;
    const out = tensor(a.dtype, dims);
    const od = out.data as BigInt64Array;
    for (let o = 0; o < outer; o++)
      for (let j = 0; j < k; j++) for (let i = 0; i < inner; i++) od[(o * k + j) * inner + i] = big[(o * dim + idxs[(o * k + j) * inner + i]!) * inner + i]!;
    return [out, int64Tensor(dims, idxs)];
  }
  return [fromNumbers(a.dtype, dims, vals), int64Tensor(dims, idxs)];
}

function nonZero([x]: readonly (Value | undefined)[]): Value[] {
  const a = t(x);
  const src = a.dtype === DT.STRING ? (a.data as string[]).map((s) => (s ? 1 : 0)) : numbers(a);
  const rank = a.dims.length;
  const strides = stridesOf(a.dims);
  const hits: number[] = [];
  for (let i = 0; i < src.length; i++) if (src[i]) hits.push(i);
  const out = floats64(rank * hits.length);
  hits.forEach((h, j) => {
    for (let r = 0; r < rank; r++) out[r * hits.length + j] = Math.floor(h / strides[r]!) % a.dims[r]!;
  });
  return [int64Tensor([rank, hits.length], out)];
}

function depthToSpace([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const b = ctx.attrs.int("blocksize") ?? fail("DepthToSpace: no blocksize");
  const [n, c, h, w] = a.dims as [number, number, number, number];
  const crd = ctx.attrs.string("mode", "DCR") === "CRD";
  const tmp = crd ? reshaped(a, [n, c / (b * b), b, b, h, w]) : reshaped(a, [n, b, b, c / (b * b), h, w]);
  const perm = crd ? [0, 1, 4, 2, 5, 3] : [0, 3, 4, 1, 5, 2];
  return [reshaped(transpose(tmp, perm), [n, c / (b * b), h * b, w * b])];
}

function spaceToDepth([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const b = ctx.attrs.int("blocksize") ?? fail("SpaceToDepth: no blocksize");
  const [n, c, h, w] = a.dims as [number, number, number, number];
  const tmp = reshaped(a, [n, c, h / b, b, w / b, b]);
  const perm = ctx.attrs.string("mode", "DCR") === "CRD" ? [0, 1, 3, 5, 2, 4] : [0, 3, 5, 1, 2, 4];
  return [reshaped(transpose(tmp, perm), [n, c * b * b, h / b, w / b])];
}

function reverseSequence([x, lens]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const batchAxis = ctx.attrs.int("batch_axis", 1);
  const timeAxis = ctx.attrs.int("time_axis", 0);
  const l = intList(t(lens));
  const out = tensor(a.dtype, a.dims, a.data.slice() as TensorData);
  const st = stridesOf(a.dims);
  const src = slots(a.data);
  const dst = slots(out.data);
  for (let i = 0; i < src.length; i++) {
    const b = Math.floor(i / st[batchAxis]!) % a.dims[batchAxis]!;
    const tm = Math.floor(i / st[timeAxis]!) % a.dims[timeAxis]!;
    if (tm < l[b]!) {
      const target = i + (l[b]! - 1 - 2 * tm) * st[timeAxis]!;
      dst[target] = src[i];
    }
  }
  return [out];
}

function unique([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const sorted = ctx.attrs.int("sorted", 1) === 1;
  const axisAttr = ctx.attrs.int("axis");
  const src = slots(a.data);
  let outer: number;
  let dim: number;
  let inner: number;
  let axis: number | undefined;
  if (axisAttr === undefined) [outer, dim, inner] = [1, src.length, 1];
  else {
    axis = axisOf(axisAttr, a.dims.length);
    [outer, dim, inner] = splitAt(a.dims, axis);
  }
  const keyOf = (j: number): unknown[] => {
    const k: unknown[] = [];
    for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) k.push(src[(o * dim + j) * inner + i]);
    return k;
  };
  const keys: unknown[][] = [];
  const firstIdx: number[] = [];
  const counts: number[] = [];
  const inverse: number[] = [];
  const lookup = new Map<string, number>();
  for (let j = 0; j < dim; j++) {
    const k = keyOf(j);
    const s = JSON.stringify(k, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    let u = lookup.get(s);
    if (u === undefined) {
      u = keys.length;
      lookup.set(s, u);
      keys.push(k);
      firstIdx.push(j);
      counts.push(0);
    }
    counts[u]!++;
    inverse.push(u);
  }
  let order = keys.map((_, i) => i);
  if (sorted) {
    const cmp = (p: unknown, q: unknown) => ((p as number) < (q as number) ? -1 : (p as number) > (q as number) ? 1 : 0);
    order.sort((i, j) => {
      for (let e = 0; e < keys[i]!.length; e++) {
        const c = cmp(keys[i]![e], keys[j]![e]);
        if (c) return c;
      }
      return 0;
    });
  }
  const rank = new Array<number>(keys.length);
  order.forEach((u, i) => (rank[u] = i));
  const dims = axis === undefined ? [keys.length] : a.dims.map((d, i) => (i === axis ? keys.length : d));
  const y = tensor(a.dtype, dims);
  const dst = slots(y.data);
  order.forEach((u, j) => {
    const k = keys[u]!;
    let e = 0;
    for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) dst[(o * keys.length + j) * inner + i] = k[e++];
  });
  order = order.slice();
  return [
    y,
    int64Tensor(
      [keys.length],
      order.map((u) => firstIdx[u]!),
    ),
    int64Tensor(
      [dim],
      inverse.map((u) => rank[u]!),
    ),
    int64Tensor(
      [keys.length],
      order.map((u) => counts[u]!),
    ),
  ];
}

function det([x]: readonly (Value | undefined)[]): Value[] {
  const a = t(x);
  const rank = a.dims.length;
  const n = a.dims[rank - 1]!;
  const batch = sizeOf(a.dims.slice(0, rank - 2));
  const src = numbers(a);
  const out = floats64(batch);
  const m = floats64(n * n);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n * n; i++) m[i] = src[b * n * n + i]!;
    let d = 1;
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[p * n + c]!)) p = r;
      if (m[p * n + c] === 0) {
        d = 0;
        break;
      }
      if (p !== c) {
        for (let k = 0; k < n; k++) [m[c * n + k], m[p * n + k]] = [m[p * n + k]!, m[c * n + k]!];
        d = -d;
      }
      d *= m[c * n + c]!;
      for (let r = c + 1; r < n; r++) {
        const f = m[r * n + c]! / m[c * n + c]!;
        for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
      }
    }
    out[b] = d;
  }
  return [fromNumbers(a.dtype, a.dims.slice(0, rank - 2), out)];
}

function windowKernel(f: (n: number, N: number) => number) {
  return ([size]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const len = intList(t(size))[0]!;
    const periodic = ctx.attrs.int("periodic", 1) === 1;
    const N = periodic ? len : len - 1;
    const out = floats64(len);
    for (let i = 0; i < len; i++) out[i] = f(i, N);
    return [fromNumbers(ctx.attrs.int("output_datatype", DT.FLOAT), [len], out)];
  };
}

export function registerMisc(r: Registry): void {
  r.register("Clip", clip);
  r.register("Range", range);
  r.register("Trilu", trilu);
  r.register("OneHot", oneHot);
  r.register("EyeLike", eyeLike);
  r.register("Compress", compress);
  r.register("TopK", topK);
  r.register("NonZero", nonZero);
  r.register("DepthToSpace", depthToSpace);
  r.register("SpaceToDepth", spaceToDepth);
  r.register("ReverseSequence", reverseSequence);
  r.register("Unique", unique);
  r.register("Det", det);
  r.register(
    "HannWindow",
    windowKernel((n, N) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / N)),
  );
  r.register(
    "HammingWindow",
    windowKernel((n, N) => 25 / 46 - (21 / 46) * Math.cos((2 * Math.PI * n) / N)),
  );
  r.register(
    "BlackmanWindow",
    windowKernel((n, N) => 0.42 - 0.5 * Math.cos((2 * Math.PI * n) / N) + 0.08 * Math.cos((4 * Math.PI * n) / N)),
  );
}
