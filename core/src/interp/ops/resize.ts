// Resize and Upsample: separable interpolation (nearest, linear, cubic) along each axis,
// with every coordinate transformation mode, antialiasing and extrapolation.
import type { KernelContext, Registry } from "../registry.js";
import { checkAllocation, DT, fromNumbers, intList, numbers, sizeOf, stridesOf, type Tensor, type Value, floats64 } from "../value.js";
import { axisOf, fail, t } from "./util.js";

interface ResizeOptions {
  mode: string;
  coord: string;
  nearest: string;
  cubicA: number;
  excludeOutside: boolean;
  extrapolation: number;
  antialias: boolean;
}

/** For one axis: per output index, the input indices and weights, and whether it falls outside. */
interface AxisPlan {
  idx: Int32Array[];
  w: Float64Array[];
  outside: Uint8Array;
}

/** `outLen` is the unrounded output length (input length times scale), as the spec uses it. */
function originalCoord(o: number, scale: number, inLen: number, outLen: number, outInt: number, coord: string, roiStart: number, roiEnd: number): number {
  switch (coord) {
    case "half_pixel":
      return (o + 0.5) / scale - 0.5;
    case "half_pixel_symmetric": {
      const adj = outInt / outLen;
      const center = inLen / 2;
      return center * (1 - adj) + (o + 0.5) / scale - 0.5;
    }
    case "pytorch_half_pixel":
      return outLen > 1 ? (o + 0.5) / scale - 0.5 : 0;
    case "align_corners":
      return outLen === 1 ? 0 : (o * (inLen - 1)) / (outLen - 1);
    case "asymmetric":
      return o / scale;
    case "tf_half_pixel_for_nn":
      return (o + 0.5) / scale;
    case "tf_crop_and_resize":
      return outLen > 1 ? roiStart * (inLen - 1) + (o * (roiEnd - roiStart) * (inLen - 1)) / (outLen - 1) : 0.5 * (roiStart + roiEnd) * (inLen - 1);
    default:
      return fail(`Resize: unknown coordinate_transformation_mode '${coord}'`);
  }
}

function nearestIndex(x: number, mode: string): number {
  switch (mode) {
    case "round_prefer_ceil":
      return Math.round(x);
    case "floor":
      return Math.floor(x);
    case "ceil":
      return Math.ceil(x);
    default:
      return x % 1 === 0.5 || x % 1 === -0.5 ? Math.floor(x) : Math.round(x);
  }
}

function cubicWeight(d: number, a: number): number {
  const x = Math.abs(d);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

function planAxis(inLen: number, outLen: number, scale: number, roiStart: number, roiEnd: number, o: ResizeOptions): AxisPlan {
  const idx: Int32Array[] = [];
  const w: Float64Array[] = [];
  const outside = new Uint8Array(outLen);
  const clamp = (i: number) => Math.max(0, Math.min(inLen - 1, i));
  for (let i = 0; i < outLen; i++) {
    const x = originalCoord(i, scale, inLen, scale * inLen, outLen, o.coord, roiStart, roiEnd);
    if (o.coord === "tf_crop_and_resize" && (x < 0 || x > inLen - 1)) outside[i] = 1;
    if (o.mode === "nearest") {
      idx.push(Int32Array.of(clamp(nearestIndex(x, o.nearest))));
      w.push(Float64Array.of(1));
      continue;
    }
    const taps: number[] = [];
    const weights: number[] = [];
    const aa = o.antialias && scale < 1;
    const support = o.mode === "linear" ? 1 : 2;
    const width = aa ? support / scale : support;
    const lo = Math.floor(x - width) + 1;
    const hi = Math.floor(x + width);
    for (let j = lo; j <= hi; j++) {
      const d = (x - j) * (aa ? scale : 1);
      let wt = o.mode === "linear" ? Math.max(0, 1 - Math.abs(d)) : cubicWeight(d, o.cubicA);
      if (wt === 0) continue;
      if (o.excludeOutside && (j < 0 || j >= inLen)) wt = 0;
      taps.push(clamp(j));
      weights.push(wt);
    }
    const sum = weights.reduce((s, v) => s + v, 0);
    if (aa || o.excludeOutside) for (let k = 0; k < weights.length; k++) weights[k]! /= sum || 1;
    idx.push(Int32Array.from(taps));
    w.push(Float64Array.from(weights));
  }
  return { idx, w, outside };
}

/** Interpolates along one axis of a Float64 buffer with shape `dims`. */
function applyAxis(src: Float64Array, dims: number[], axis: number, plan: AxisPlan, outLen: number): Float64Array {
  let outer = 1;
  for (let i = 0; i < axis; i++) outer *= dims[i]!;
  const inLen = dims[axis]!;
  const inner = sizeOf(dims.slice(axis + 1));
  const out = floats64(outer * outLen * inner);
  for (let p = 0; p < outer; p++) {
    for (let j = 0; j < outLen; j++) {
      const ids = plan.idx[j]!;
      const ws = plan.w[j]!;
      const ob = (p * outLen + j) * inner;
      for (let k = 0; k < ids.length; k++) {
        const ib = (p * inLen + ids[k]!) * inner;
        const wt = ws[k]!;
        for (let q = 0; q < inner; q++) out[ob + q]! += wt * src[ib + q]!;
      }
    }
  }
  return out;
}

export function resize(x: Tensor, scales: number[], outDims: number[], roi: number[] | undefined, o: ResizeOptions): Tensor {
  // Before planning: the per-index plans alone would take minutes for a huge output.
  checkAllocation(DT.DOUBLE, sizeOf(outDims));
  const rank = x.dims.length;
  let buf: Float64Array = Float64Array.from(numbers(x));
  const dims = x.dims.slice();
  const plans: (AxisPlan | undefined)[] = [];
  for (let a = 0; a < rank; a++) {
    const roiStart = roi ? roi[a]! : 0;
    const roiEnd = roi ? roi[a + rank]! : 1;
    if (outDims[a] === dims[a] && scales[a] === 1 && o.coord !== "tf_crop_and_resize") {
      plans.push(undefined);
      continue;
    }
    const plan = planAxis(dims[a]!, outDims[a]!, scales[a]!, roiStart, roiEnd, o);
    plans.push(plan);
    buf = applyAxis(buf, dims, a, plan, outDims[a]!);
    dims[a] = outDims[a]!;
  }
  if (o.coord === "tf_crop_and_resize") {
    const st = stridesOf(outDims);
    for (let i = 0; i < buf.length; i++) {
      for (let a = 0; a < rank; a++) {
        const p = plans[a];
        if (p && p.outside[Math.floor(i / st[a]!) % outDims[a]!]) {
          buf[i] = o.extrapolation;
          break;
        }
      }
    }
  }
  return fromNumbers(x.dtype, outDims, buf);
}

function resizeKernel(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const x = t(inputs[0]);
  const rank = x.dims.length;
  const a = ctx.attrs;
  const o: ResizeOptions = {
    mode: a.string("mode", "nearest"),
    coord: a.string("coordinate_transformation_mode", ctx.opset < 11 ? "asymmetric" : "half_pixel"),
    // Resize-10 rounds down as Upsample does (onnxruntime agrees); nearest_mode came with 11.
    nearest: a.string("nearest_mode", ctx.opset < 11 ? "floor" : "round_prefer_floor"),
    cubicA: a.float("cubic_coeff_a", -0.75),
    excludeOutside: a.int("exclude_outside", 0) === 1,
    extrapolation: a.float("extrapolation_value", 0),
    antialias: a.int("antialias", 0) === 1,
  };
  let roi: number[] | undefined;
  let scalesIn: number[] | undefined;
  let sizesIn: number[] | undefined;
  if (ctx.opset < 11) scalesIn = Array.from(numbers(t(inputs[1])));
  else {
    const roiT = inputs[1] === undefined ? undefined : t(inputs[1]);
    if (roiT && roiT.data.length > 0) roi = Array.from(numbers(roiT));
    const sc = inputs[2] === undefined ? undefined : t(inputs[2]);
    if (sc && sc.data.length > 0) scalesIn = Array.from(numbers(sc));
    const sz = inputs[3] === undefined ? undefined : t(inputs[3]);
    if (sz && sz.data.length > 0) sizesIn = intList(sz);
  }
  const axes = (a.ints("axes") ?? x.dims.map((_, i) => i)).map((ax) => axisOf(ax, rank));
  const scales = x.dims.map(() => 1);
  const outDims = x.dims.slice();
  if (roi && axes.length < rank) {
    const full = [...x.dims.map(() => 0), ...x.dims.map(() => 1)];
    axes.forEach((ax, i) => {
      full[ax] = roi![i]!;
      full[ax + rank] = roi![i + axes.length]!;
    });
    roi = full;
  }
  if (sizesIn) {
    const policy = a.string("keep_aspect_ratio_policy", "stretch");
    let sizes = sizesIn;
    if (policy !== "stretch") {
      const ratios = axes.map((ax, i) => sizesIn![i]! / x.dims[ax]!);
      const s = policy === "not_larger" ? Math.min(...ratios) : Math.max(...ratios);
      sizes = axes.map((ax) => Math.round(s * x.dims[ax]!));
      axes.forEach((ax, i) => {
        outDims[ax] = sizes[i]!;
        scales[ax] = s;
      });
    } else {
      axes.forEach((ax, i) => {
        outDims[ax] = sizes[i]!;
        scales[ax] = sizes[i]! / x.dims[ax]!;
      });
    }
  } else if (scalesIn) {
    axes.forEach((ax, i) => {
      scales[ax] = scalesIn![i]!;
      outDims[ax] = Math.floor(x.dims[ax]! * scalesIn![i]! + 1e-9);
    });
  } else fail("Resize: neither scales nor sizes given");
  return [resize(x, scales, outDims, roi, o)];
}

function upsampleKernel([x, s]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const scales = s === undefined ? ctx.attrs.floats("scales")! : Array.from(numbers(t(s)));
  const mode = ctx.attrs.string("mode", "nearest");
  const outDims = a.dims.map((d, i) => Math.floor(d * scales[i]!));
  return [
    resize(a, scales, outDims, undefined, {
      mode: mode === "bilinear" ? "linear" : mode,
      coord: "asymmetric",
      nearest: "floor",
      cubicA: -0.75,
      excludeOutside: false,
      extrapolation: 0,
      antialias: false,
    }),
  ];
}

export function registerResize(r: Registry): void {
  r.register("Resize", resizeKernel);
  r.register("Upsample", upsampleKernel);
}
