// Kernels that move elements without arithmetic: reshaping, transposing, slicing,
// gathering and scattering, concatenation, padding, tiling.
import type { Registry } from "../registry.js";
import {
  DT,
  encodeElement,
  fromNumbers,
  int64Tensor,
  intList,
  numbers,
  reshaped,
  sizeOf,
  stridesOf,
  tensor,
  type Tensor,
  type TensorData,
  floats64,
} from "../value.js";
import { at, axisOf, broadcastIndex, broadcastShapes, fail, optInts, splitAt, t } from "./util.js";

type Slots = { [i: number]: unknown; length: number };

function slots(d: TensorData): Slots {
  return d as unknown as Slots;
}

export function transpose(x: Tensor, perm: readonly number[]): Tensor {
  const rank = x.dims.length;
  const outDims = perm.map((p) => x.dims[p]!);
  const out = tensor(x.dtype, outDims);
  const n = sizeOf(outDims);
  if (n === 0) return out;
  const inStrides = stridesOf(x.dims);
  const st = perm.map((p) => inStrides[p]!);
  const src = slots(x.data);
  const dst = slots(out.data);
  const idx = new Array<number>(rank).fill(0);
  let off = 0;
  const last = rank - 1;
  if (rank === 0) {
    dst[0] = src[0];
    return out;
  }
  const innerDim = outDims[last]!;
  const innerStride = st[last]!;
  for (let o = 0; o < n; o += innerDim) {
    for (let k = 0; k < innerDim; k++) dst[o + k] = src[off + k * innerStride];
    for (let r = last - 1; r >= 0; r--) {
      idx[r]!++;
      off += st[r]!;
      if (idx[r]! < outDims[r]!) break;
      off -= st[r]! * idx[r]!;
      idx[r] = 0;
    }
  }
  return out;
}

/** Copies `x` into a new tensor of `outDims`, reading element map(o) for output o. */
function gatherBy(x: Tensor, outDims: readonly number[], map: (o: number) => number): Tensor {
  const out = tensor(x.dtype, outDims);
  const src = slots(x.data);
  const dst = slots(out.data);
  for (let o = 0; o < dst.length; o++) dst[o] = src[map(o)];
  return out;
}

export function expand(x: Tensor, dims: readonly number[]): Tensor {
  const outDims = broadcastShapes(x.dims, dims);
  const b = broadcastIndex(outDims, x.dims);
  return gatherBy(x, outDims, (o) => at(b, o));
}

function reshapeDims(x: Tensor, shape: number[], allowZero: boolean): number[] {
  const dims = shape.map((d, i) => (d === 0 && !allowZero ? (x.dims[i] ?? fail(`Reshape: no input dim ${i} to copy`)) : d));
  const known = dims.reduce((p, d) => (d === -1 ? p : p * d), 1);
  const minus = dims.filter((d) => d === -1).length;
  if (minus > 1) fail("Reshape: more than one -1 in the shape");
  const n = sizeOf(x.dims);
  if (minus === 1) {
    if (known === 0 || n % known !== 0) fail(`Reshape: cannot reshape [${x.dims.join(",")}] to [${shape.join(",")}]`);
    dims[dims.indexOf(-1)] = n / known;
  } else if (known !== n) fail(`Reshape: cannot reshape [${x.dims.join(",")}] (${n} elements) to [${shape.join(",")}]`);
  return dims;
}

export function concat(ts: readonly Tensor[], axisAttr: number): Tensor {
  const first = ts.find((x) => sizeOf(x.dims) > 0 || x.dims.length > 0) ?? ts[0]!;
  const rank = first.dims.length;
  const axis = axisOf(axisAttr, rank);
  const outDims = first.dims.slice();
  outDims[axis] = ts.reduce((s, x) => s + (x.dims[axis] ?? 0), 0);
  const out = tensor(first.dtype, outDims);
  const [outer, , inner] = splitAt(outDims, axis);
  const dst = slots(out.data);
  let offset = 0;
  const rowOut = outDims[axis]! * inner;
  for (const x of ts) {
    const chunk = (x.dims[axis] ?? 0) * inner;
    const src = slots(x.data);
    for (let o = 0; o < outer; o++) {
      const so = o * chunk;
      const d = o * rowOut + offset;
      for (let k = 0; k < chunk; k++) dst[d + k] = src[so + k];
    }
    offset += chunk;
  }
  return out;
}

/** Slices along one axis per entry: [start, end) with a step, already clamped. */
export function sliceTensor(x: Tensor, starts: number[], steps: number[], counts: number[]): Tensor {
  const rank = x.dims.length;
  const inStrides = stridesOf(x.dims);
  const out = tensor(x.dtype, counts);
  const n = sizeOf(counts);
  const src = slots(x.data);
  const dst = slots(out.data);
  const idx = new Array<number>(rank).fill(0);
  let base = 0;
  for (let r = 0; r < rank; r++) base += starts[r]! * inStrides[r]!;
  const st = steps.map((s, r) => s * inStrides[r]!);
  let off = base;
  for (let o = 0; o < n; o++) {
    dst[o] = src[off];
    for (let r = rank - 1; r >= 0; r--) {
      idx[r]!++;
      off += st[r]!;
      if (idx[r]! < counts[r]!) break;
      off -= st[r]! * idx[r]!;
      idx[r] = 0;
    }
  }
  return out;
}

function slice(x: Tensor, startsIn: number[], endsIn: number[], axesIn: number[] | undefined, stepsIn: number[] | undefined): Tensor {
  const rank = x.dims.length;
  const starts = new Array<number>(rank).fill(0);
  const steps = new Array<number>(rank).fill(1);
  const counts = x.dims.slice();
  const axes = axesIn ?? startsIn.map((_, i) => i);
  axes.forEach((a0, i) => {
    const a = axisOf(a0, rank);
    const dim = x.dims[a]!;
    const step = stepsIn?.[i] ?? 1;
    if (step === 0) fail("Slice: step 0");
    let s = startsIn[i]!;
    let e = endsIn[i]!;
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
      s = Math.max(0, Math.min(s, dim));
      e = Math.max(0, Math.min(e, dim));
      counts[a] = Math.max(0, Math.ceil((e - s) / step));
    } else {
      s = Math.max(-1, Math.min(s, dim - 1));
      e = Math.max(-1, Math.min(e, dim - 1));
      counts[a] = Math.max(0, Math.ceil((s - e) / -step));
    }
    starts[a] = s;
    steps[a] = step;
  });
  return sliceTensor(x, starts, steps, counts);
}

function squeeze(x: Tensor, axes: number[] | undefined): Tensor {
  const rank = x.dims.length;
  const drop = new Set((axes ?? x.dims.flatMap((d, i) => (d === 1 ? [i] : []))).map((a) => axisOf(a, rank)));
  for (const a of drop) if (x.dims[a] !== 1) fail(`Squeeze: dim ${a} is ${x.dims[a]}, not 1`);
  return reshaped(
    x,
    x.dims.filter((_, i) => !drop.has(i)),
  );
}

function unsqueeze(x: Tensor, axes: number[]): Tensor {
  const rank = x.dims.length + axes.length;
  const set = new Set(axes.map((a) => axisOf(a, rank)));
  const dims: number[] = [];
  let k = 0;
  for (let i = 0; i < rank; i++) dims.push(set.has(i) ? 1 : x.dims[k++]!);
  return reshaped(x, dims);
}

function normIndex(i: number, dim: number): number {
  const v = i < 0 ? i + dim : i;
  if (v < 0 || v >= dim) fail(`index ${i} is out of bounds for a dimension of ${dim}`);
  return v;
}

function gather(x: Tensor, idx: Tensor, axisAttr: number): Tensor {
  const axis = axisOf(axisAttr, x.dims.length);
  const [outer, dim, inner] = splitAt(x.dims, axis);
  const ind = intList(idx);
  const outDims = [...x.dims.slice(0, axis), ...idx.dims, ...x.dims.slice(axis + 1)];
  const out = tensor(x.dtype, outDims);
  const src = slots(x.data);
  const dst = slots(out.data);
  let o = 0;
  for (let a = 0; a < outer; a++) {
    for (const i0 of ind) {
      const base = (a * dim + normIndex(i0, dim)) * inner;
      for (let k = 0; k < inner; k++) dst[o++] = src[base + k];
    }
  }
  return out;
}

function gatherElements(x: Tensor, idx: Tensor, axisAttr: number): Tensor {
  const rank = x.dims.length;
  const axis = axisOf(axisAttr, rank);
  const ind = intList(idx);
  const xs = stridesOf(x.dims);
  const out = tensor(x.dtype, idx.dims);
  const src = slots(x.data);
  const dst = slots(out.data);
  const pos = new Array<number>(rank).fill(0);
  for (let o = 0; o < ind.length; o++) {
    let off = 0;
    for (let r = 0; r < rank; r++) off += (r === axis ? normIndex(ind[o]!, x.dims[axis]!) : pos[r]!) * xs[r]!;
    dst[o] = src[off];
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < idx.dims[r]!) break;
      pos[r] = 0;
    }
  }
  return out;
}

function scatterElements(x: Tensor, idx: Tensor, upd: Tensor, axisAttr: number, reduction: string): Tensor {
  const rank = x.dims.length;
  const axis = axisOf(axisAttr, rank);
  const ind = intList(idx);
  const xs = stridesOf(x.dims);
  const out = tensor(x.dtype, x.dims, x.data.slice() as TensorData);
  const dst = slots(out.data);
  const src = slots(upd.data);
  const pos = new Array<number>(rank).fill(0);
  const combine = reducer(reduction, x.dtype);
  for (let o = 0; o < ind.length; o++) {
    let off = 0;
    for (let r = 0; r < rank; r++) off += (r === axis ? normIndex(ind[o]!, x.dims[axis]!) : pos[r]!) * xs[r]!;
    dst[off] = combine(dst[off], src[o]);
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < idx.dims[r]!) break;
      pos[r] = 0;
    }
  }
  return out;
}

function reducer(reduction: string, dtype: number): (a: unknown, b: unknown) => unknown {
  const big = dtype === DT.INT64 || dtype === DT.UINT64;
  switch (reduction) {
    case "none":
    case "":
      return (_a, b) => b;
    case "add":
      return big ? (a, b) => (a as bigint) + (b as bigint) : (a, b) => (a as number) + (b as number);
    case "mul":
      return big ? (a, b) => (a as bigint) * (b as bigint) : (a, b) => (a as number) * (b as number);
    case "max":
      return (a, b) => ((a as number) > (b as number) ? a : b);
    case "min":
      return (a, b) => ((a as number) < (b as number) ? a : b);
    default:
      return fail(`unknown reduction '${reduction}'`);
  }
}

function gatherND(x: Tensor, idx: Tensor, batchDims: number): Tensor {
  const ind = intList(idx);
  const q = idx.dims.length;
  const k = idx.dims[q - 1]!;
  const batchShape = x.dims.slice(0, batchDims);
  const batch = sizeOf(batchShape);
  const outDims = [...idx.dims.slice(0, q - 1), ...x.dims.slice(batchDims + k)];
  const inner = sizeOf(x.dims.slice(batchDims + k));
  const xs = stridesOf(x.dims);
  const perBatchIdx = sizeOf(idx.dims.slice(batchDims, q - 1));
  const batchStride = sizeOf(x.dims.slice(batchDims));
  const out = tensor(x.dtype, outDims);
  const src = slots(x.data);
  const dst = slots(out.data);
  let o = 0;
  for (let b = 0; b < batch; b++) {
    for (let j = 0; j < perBatchIdx; j++) {
      const base = (b * perBatchIdx + j) * k;
      let off = b * batchStride;
      for (let r = 0; r < k; r++) off += normIndex(ind[base + r]!, x.dims[batchDims + r]!) * xs[batchDims + r]!;
      for (let e = 0; e < inner; e++) dst[o++] = src[off + e];
    }
  }
  return out;
}

function scatterND(x: Tensor, idx: Tensor, upd: Tensor, reduction: string): Tensor {
  const ind = intList(idx);
  const q = idx.dims.length;
  const k = idx.dims[q - 1]!;
  const n = sizeOf(idx.dims.slice(0, q - 1));
  const inner = sizeOf(x.dims.slice(k));
  const xs = stridesOf(x.dims);
  const out = tensor(x.dtype, x.dims, x.data.slice() as TensorData);
  const dst = slots(out.data);
  const src = slots(upd.data);
  const combine = reducer(reduction, x.dtype);
  for (let j = 0; j < n; j++) {
    let off = 0;
    for (let r = 0; r < k; r++) off += normIndex(ind[j * k + r]!, x.dims[r]!) * xs[r]!;
    for (let e = 0; e < inner; e++) dst[off + e] = combine(dst[off + e], src[j * inner + e]);
  }
  return out;
}

function tile(x: Tensor, repeats: number[]): Tensor {
  const outDims = x.dims.map((d, i) => d * repeats[i]!);
  const rank = x.dims.length;
  const xs = stridesOf(x.dims);
  const os = stridesOf(outDims);
  return gatherBy(x, outDims, (o) => {
    let off = 0;
    for (let r = 0; r < rank; r++) off += ((Math.floor(o / os[r]!) % outDims[r]!) % x.dims[r]!) * xs[r]!;
    return off;
  });
}

function pad(x: Tensor, pads: number[], mode: string, value: unknown, axesIn?: number[]): Tensor {
  const rank = x.dims.length;
  const axes = axesIn ? axesIn.map((a) => axisOf(a, rank)) : x.dims.map((_, i) => i);
  const before = new Array<number>(rank).fill(0);
  const after = new Array<number>(rank).fill(0);
  axes.forEach((a, i) => {
    before[a] = pads[i]!;
    after[a] = pads[i + axes.length]!;
  });
  const outDims = x.dims.map((d, i) => d + before[i]! + after[i]!);
  const out = tensor(x.dtype, outDims);
  const n = sizeOf(outDims);
  const xs = stridesOf(x.dims);
  const src = slots(x.data);
  const dst = slots(out.data);
  const pos = new Array<number>(rank).fill(0);
  for (let o = 0; o < n; o++) {
    let off = 0;
    let inside = true;
    for (let r = 0; r < rank; r++) {
      let i = pos[r]! - before[r]!;
      const d = x.dims[r]!;
      if (i < 0 || i >= d) {
        if (mode === "constant" || d === 0) {
          inside = false;
          break;
        }
        if (mode === "edge") i = i < 0 ? 0 : d - 1;
        else if (mode === "reflect") {
          const period = 2 * (d - 1);
          if (period === 0) i = 0;
          else {
            i = ((i % period) + period) % period;
            if (i >= d) i = period - i;
          }
        } else if (mode === "wrap") i = ((i % d) + d) % d;
      }
      off += i * xs[r]!;
    }
    dst[o] = inside ? src[off] : value;
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < outDims[r]!) break;
      pos[r] = 0;
    }
  }
  return out;
}

/** Casts numbers, strings and bit patterns between element types. */
export function cast(x: Tensor, to: number, saturate = true): Tensor {
  if (x.dtype === to) return x;
  const n = x.data.length;
  if (to === DT.STRING) {
    const out = tensor(DT.STRING, x.dims);
    const d = out.data as string[];
    const v = x.dtype === DT.INT64 || x.dtype === DT.UINT64 ? null : numbers(x);
    for (let i = 0; i < n; i++) d[i] = v ? formatNumber(v[i]!, x.dtype) : String(x.data[i]);
    return [out][0]!;
  }
  if (x.dtype === DT.STRING) {
    const src = x.data as string[];
    const out = tensor(to, x.dims);
    const d = slots(out.data);
    for (let i = 0; i < n; i++) {
      const s = src[i]!.trim();
      if (to === DT.INT64 || to === DT.UINT64) d[i] = BigInt(s);
      else d[i] = encodeElement(to, parseFloatLoose(s), saturate);
    }
    return out;
  }
  if ((x.dtype === DT.INT64 || x.dtype === DT.UINT64) && (to === DT.INT64 || to === DT.UINT64)) {
    const out = tensor(to, x.dims);
    const s = x.data as BigInt64Array;
    const d = out.data as BigInt64Array;
    for (let i = 0; i < n; i++) d[i] = to === DT.INT64 ? BigInt.asIntN(64, s[i]!) : BigInt.asUintN(64, s[i]!);
    return out;
  }
  const src = numbers(x);
  if (to === DT.INT64 || to === DT.UINT64) {
    const out = tensor(to, x.dims);
    const d = out.data as BigInt64Array;
    for (let i = 0; i < n; i++) {
      const v = src[i]!;
      d[i] = Number.isFinite(v)
        ? to === DT.INT64
          ? BigInt.asIntN(64, BigInt(Math.trunc(v)))
          : BigInt.asUintN(64, BigInt(Math.trunc(v)))
        : to === DT.INT64
          ? -(2n ** 63n)
          : 2n ** 63n;
    }
    return out;
  }
  if (to === DT.FLOAT || to === DT.DOUBLE) return fromNumbers(to, x.dims, src);
  const out = tensor(to, x.dims);
  const d = slots(out.data);
  const isIntTarget = to !== DT.FLOAT16 && to !== DT.BFLOAT16 && !isFloat8(to) && to !== DT.BOOL && to !== DT.FLOAT4E2M1;
  for (let i = 0; i < n; i++) {
    const v = src[i]!;
    if (isIntTarget) d[i] = Number.isFinite(v) ? encodeElement(to, Math.trunc(v)) : 0;
    else d[i] = encodeElement(to, v, saturate);
  }
  return out;
}

function isFloat8(dt: number): boolean {
  return dt === DT.FLOAT8E4M3FN || dt === DT.FLOAT8E4M3FNUZ || dt === DT.FLOAT8E5M2 || dt === DT.FLOAT8E5M2FNUZ || dt === DT.FLOAT8E8M0;
}

function parseFloatLoose(s: string): number {
  const l = s.toLowerCase();
  if (l === "nan" || l === "-nan") return NaN;
  if (l === "inf" || l === "infinity" || l === "+inf") return Infinity;
  if (l === "-inf" || l === "-infinity") return -Infinity;
  return Number(s);
}

function formatNumber(v: number, dtype: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "INF";
  if (v === -Infinity) return "-INF";
  if (dtype === DT.FLOAT) {
    // shortest repr that round-trips through float32, like numpy's str()
    for (let p = 1; p <= 9; p++) {
      const s = v.toPrecision(p);
      if (Math.fround(Number(s)) === v) return normalizeExp(Number(s).toString());
    }
  }
  return normalizeExp(v.toString());
}

function normalizeExp(s: string): string {
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (!m) return s;
  return `${m[1]}e${m[2]}${m[3]!.padStart(2, "0")}`;
}

export function registerShapeOps(r: Registry): void {
  r.register("Identity", ([x]) => [x]);
  r.register("Reshape", ([x, s], ctx) => {
    const a = t(x);
    const shape = optInts(s) ?? ctx.attrs.ints("shape") ?? fail("Reshape: no shape");
    return [reshaped(a, reshapeDims(a, shape, ctx.attrs.int("allowzero", 0) === 1))];
  });
  r.register("Flatten", ([x], ctx) => {
    const a = t(x);
    const axis = ctx.attrs.int("axis", 1);
    const ax = axis < 0 ? axis + a.dims.length : axis;
    const outer = sizeOf(a.dims.slice(0, ax));
    return [reshaped(a, [outer, sizeOf(a.dims.slice(ax))])];
  });
  r.register("Shape", ([x], ctx) => {
    const a = x!;
    const dims = a.kind === "tensor" ? a.dims : fail("Shape: expected a tensor");
    const rank = dims.length;
    let start = ctx.attrs.int("start", 0);
    let end = ctx.attrs.int("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = Math.max(0, Math.min(rank, start));
    end = Math.max(0, Math.min(rank, end));
    const d = dims.slice(start, Math.max(start, end));
    return [int64Tensor([d.length], d)];
  });
  r.register("Size", ([x]) => [int64Tensor([], [sizeOf(t(x).dims)])]);
  r.register("Transpose", ([x], ctx) => {
    const a = t(x);
    const perm = ctx.attrs.ints("perm") ?? a.dims.map((_, i) => a.dims.length - 1 - i);
    return [transpose(a, perm)];
  });
  r.register("Squeeze", ([x, axes], ctx) => [squeeze(t(x), optInts(axes) ?? ctx.attrs.ints("axes"))]);
  r.register("Unsqueeze", ([x, axes], ctx) => [unsqueeze(t(x), optInts(axes) ?? ctx.attrs.ints("axes") ?? fail("Unsqueeze: no axes"))]);
  r.register("Concat", (inputs, ctx) => [
    concat(
      inputs.filter((v) => v !== undefined).map((v) => t(v)),
      ctx.attrs.int("axis", 0),
    ),
  ]);
  r.register("Split", ([x, sp], ctx) => {
    const a = t(x);
    const axis = axisOf(ctx.attrs.int("axis", 0), a.dims.length);
    const dim = a.dims[axis]!;
    let sizes = optInts(sp) ?? ctx.attrs.ints("split");
    if (!sizes) {
      const k = ctx.attrs.int("num_outputs") ?? ctx.outputCount;
      const chunk = Math.ceil(dim / k);
      sizes = [];
      for (let i = 0; i < k; i++) sizes.push(Math.max(0, Math.min(chunk, dim - i * chunk)));
    }
    let start = 0;
    return sizes.map((s) => {
      const starts = a.dims.map(() => 0);
      const counts = a.dims.slice();
      starts[axis] = start;
      counts[axis] = s;
      start += s;
      return sliceTensor(
        a,
        starts,
        a.dims.map(() => 1),
        counts,
      );
    });
  });
  r.register("Slice", ([x, s, e, ax, st], ctx) => {
    const a = t(x);
    if (ctx.opset < 10) return [slice(a, ctx.attrs.ints("starts")!, ctx.attrs.ints("ends")!, ctx.attrs.ints("axes"), undefined)];
    return [slice(a, optInts(s)!, optInts(e)!, optInts(ax), optInts(st))];
  });
  r.register("Gather", ([x, i], ctx) => [gather(t(x), t(i), ctx.attrs.int("axis", 0))]);
  r.register("GatherElements", ([x, i], ctx) => [gatherElements(t(x), t(i), ctx.attrs.int("axis", 0))]);
  r.register("GatherND", ([x, i], ctx) => [gatherND(t(x), t(i), ctx.attrs.int("batch_dims", 0))]);
  r.register("ScatterElements", ([x, i, u], ctx) => [scatterElements(t(x), t(i), t(u), ctx.attrs.int("axis", 0), ctx.attrs.string("reduction", "none"))]);
  r.register("Scatter", ([x, i, u], ctx) => [scatterElements(t(x), t(i), t(u), ctx.attrs.int("axis", 0), "none")]);
  r.register("ScatterND", ([x, i, u], ctx) => [scatterND(t(x), t(i), t(u), ctx.attrs.string("reduction", "none"))]);
  r.register("Expand", ([x, s]) => [expand(t(x), optInts(s)!)]);
  r.register("Tile", ([x, rep]) => [tile(t(x), optInts(rep)!)]);
  r.register("Pad", ([x, p, v, ax], ctx) => {
    const a = t(x);
    const mode = ctx.attrs.string("mode", "constant");
    if (ctx.opset < 11) {
      return [pad(a, ctx.attrs.ints("pads")!, mode, encodeElement(a.dtype, ctx.attrs.float("value", 0)))];
    }
    const value = v !== undefined && t(v).data.length > 0 ? t(v).data[0] : encodeElement(a.dtype, 0);
    return [pad(a, optInts(p)!, mode, value, optInts(ax))];
  });
  r.register("ConstantOfShape", ([s], ctx) => {
    const dims = optInts(s)!;
    const bad = dims.find((d) => d < 0);
    if (bad !== undefined) fail(`the shape [${dims.join(", ")}] has a negative dimension ${bad}`);
    const v = ctx.attrs.tensor("value");
    const out = tensor(v?.dtype ?? DT.FLOAT, dims);
    if (v) slots(out.data).length && fillWith(out, v.data[0]);
    return [out];
  });
  r.register("Constant", (_in, ctx) => {
    const a = ctx.attrs;
    const v = a.tensor("value") ?? a.tensor("sparse_value");
    if (v) return [v];
    const f = a.float("value_float");
    if (f !== undefined) return [fromNumbers(DT.FLOAT, [], [f])];
    const fs = a.floats("value_floats");
    if (fs) return [fromNumbers(DT.FLOAT, [fs.length], fs)];
    const i = a.bigint("value_int");
    if (i !== undefined) return [tensor(DT.INT64, [], BigInt64Array.of(i))];
    const is = a.raw("value_ints");
    if (is) return [tensor(DT.INT64, [is.ints.length], BigInt64Array.from(is.ints))];
    const s = a.string("value_string");
    if (s !== undefined) return [tensor(DT.STRING, [], [s])];
    const ss = a.strings("value_strings");
    if (ss) return [tensor(DT.STRING, [ss.length], ss)];
    return fail("Constant: no value attribute");
  });
  r.register("Cast", ([x], ctx) => [cast(t(x), ctx.attrs.int("to") ?? fail("Cast: no 'to'"), ctx.attrs.int("saturate", 1) === 1)]);
  r.register("CastLike", ([x, like], ctx) => [cast(t(x), t(like).dtype, ctx.attrs.int("saturate", 1) === 1)]);
  r.register("Where", ([c, x, y]) => {
    const cond = t(c);
    const a = t(x);
    const b = t(y);
    const dims = broadcastShapes(cond.dims, a.dims, b.dims);
    const ic = broadcastIndex(dims, cond.dims);
    const ia = broadcastIndex(dims, a.dims);
    const ib = broadcastIndex(dims, b.dims);
    const out = tensor(a.dtype, dims);
    const cd = cond.data as Uint8Array;
    const sa = slots(a.data);
    const sb = slots(b.data);
    const dst = slots(out.data);
    for (let o = 0; o < dst.length; o++) dst[o] = cd[at(ic, o)] ? sa[at(ia, o)] : sb[at(ib, o)];
    return [out];
  });
  r.register("Dropout", ([x, ratio, training], ctx) => {
    const a = t(x);
    const train = training !== undefined && Boolean(t(training).data[0]);
    // before opset 10 the mask had the input's element type
    const mask = tensor(ctx.opset < 10 ? a.dtype : DT.BOOL, a.dims);
    if (!train) {
      fillWith(mask, encodeElement(mask.dtype, 1));
      return [a, mask];
    }
    const p = ratio !== undefined ? Number(numbers(t(ratio))[0]) : ctx.attrs.float("ratio", 0.5);
    const scale = 1 / (1 - p);
    const m = slots(mask.data);
    const one = encodeElement(mask.dtype, 1);
    const zero = encodeElement(mask.dtype, 0);
    for (let i = 0; i < m.length; i++) m[i] = ctx.rng.next() >= p ? one : zero;
    const src = numbers(a);
    const out = floats64(src.length);
    for (let i = 0; i < out.length; i++) out[i] = m[i] ? src[i]! * scale : 0;
    return [fromNumbers(a.dtype, a.dims, out), mask];
  });
}

function fillWith(out: Tensor, v: unknown): void {
  const d = slots(out.data);
  for (let i = 0; i < d.length; i++) d[i] = v;
}
