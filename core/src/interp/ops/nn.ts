// Convolution, pooling and normalization kernels (N-d, NCHW layout). Conv lowers to
// im2col + `gemm`, so a faster gemm speeds it up too.
import { claimBytes, pollRun } from "../budget.js";
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, int64Tensor, numbers, sizeOf, tensor, type Tensor, type Value, floats64, floats32, ints32 } from "../value.js";
import { gemm } from "./linalg.js";
import { axisOf, fail, splitAt, t } from "./util.js";

interface Window {
  kernel: number[];
  strides: number[];
  dilations: number[];
  padsBegin: number[];
  padsEnd: number[];
  out: number[];
}

/** Output size and padding of a sliding window, following auto_pad and ceil_mode. */
export function windowOf(ctx: KernelContext, spatial: readonly number[], kernel: number[], ceil = false): Window {
  const n = spatial.length;
  const strides = ctx.attrs.ints("strides") ?? new Array<number>(n).fill(1);
  const dilations = ctx.attrs.ints("dilations") ?? new Array<number>(n).fill(1);
  const pads = ctx.attrs.ints("pads") ?? new Array<number>(2 * n).fill(0);
  const autoPad = ctx.attrs.string("auto_pad", "NOTSET");
  const op = ctx.node.opType;
  if (kernel.length !== n || kernel.some((k) => !Number.isInteger(k) || k < 1)) fail(`kernel_shape [${kernel.join(", ")}] must have ${n} sizes of at least 1`);
  if (strides.length !== n || strides.some((v) => !Number.isInteger(v) || v < 1)) fail(`strides [${strides.join(", ")}] must have ${n} values of at least 1`);
  if (dilations.length !== n || dilations.some((v) => !Number.isInteger(v) || v < 1))
    fail(`dilations [${dilations.join(", ")}] must have ${n} values of at least 1`);
  if (pads.length !== 2 * n || pads.some((v) => !Number.isInteger(v) || v < 0)) fail(`pads [${pads.join(", ")}] must have ${2 * n} values of at least 0`);
  // as onnxruntime requires: a window that is all padding has no value to pool
  if (op.endsWith("Pool")) {
    pads.forEach((p, i) => {
      if (p >= kernel[i % n]!) fail(`pad ${p} of axis ${i % n} must be smaller than the kernel size ${kernel[i % n]}`);
    });
  }
  const padsBegin = pads.slice(0, n);
  const padsEnd = pads.slice(n, 2 * n);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const dk = (kernel[i]! - 1) * dilations[i]! + 1;
    const s = strides[i]!;
    const inp = spatial[i]!;
    if (autoPad === "SAME_UPPER" || autoPad === "SAME_LOWER") {
      const o = Math.ceil(inp / s);
      const total = Math.max(0, (o - 1) * s + dk - inp);
      const small = Math.floor(total / 2);
      padsBegin[i] = autoPad === "SAME_UPPER" ? small : total - small;
      padsEnd[i] = total - padsBegin[i]!;
      out.push(o);
    } else {
      if (autoPad === "VALID") {
        padsBegin[i] = 0;
        padsEnd[i] = 0;
      }
      const span = inp + padsBegin[i]! + padsEnd[i]! - dk;
      let o = (ceil ? Math.ceil(span / s) : Math.floor(span / s)) + 1;
      if (ceil && (o - 1) * s >= inp + padsBegin[i]!) o--;
      out.push(Math.max(0, o));
    }
  }
  return { kernel, strides, dilations, padsBegin, padsEnd, out };
}

/** Every index tuple of `dims`, in row-major order. */
function positions(dims: readonly number[]): number[][] {
  const n = sizeOf(dims);
  // one small array per position: a huge kernel or output asks for a lot of memory
  claimBytes(n * (dims.length + 4) * 8, () => `the ${n} positions of a window of shape [${dims.join(", ")}]`);
  const pos = new Array<number>(dims.length).fill(0);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    out.push(pos.slice());
    for (let r = dims.length - 1; r >= 0; r--) {
      if (++pos[r]! < dims[r]!) break;
      pos[r] = 0;
    }
  }
  return out;
}

/** Convolution result: float32 storage for float32 input, doubles otherwise. */
interface ConvResult {
  readonly data: Float32Array | Float64Array;
  readonly dims: number[];
}

export function conv(x: Tensor, w: Tensor, b: Tensor | undefined, ctx: KernelContext, xZero = 0, wZero: ArrayLike<number> | undefined = undefined): ConvResult {
  const [N, C] = x.dims as [number, number];
  const spatial = x.dims.slice(2);
  const M = w.dims[0]!;
  const kernel = ctx.attrs.ints("kernel_shape") ?? w.dims.slice(2);
  const group = ctx.attrs.int("group", 1);
  const win = windowOf(ctx, spatial, kernel);
  const cg = C / group;
  const mg = M / group;
  if (w.dims[1] !== cg) fail(`Conv: weight has ${w.dims[1]} input channels, expected ${cg}`);
  const kSize = sizeOf(kernel);
  const outSize = sizeOf(win.out);
  const inSize = sizeOf(spatial);
  const xv = numbers(x);
  let wv: ArrayLike<number> = numbers(w);
  if (wZero) {
    const shifted = floats64(wv.length);
    const per = wv.length / M;
    for (let i = 0; i < wv.length; i++) shifted[i] = wv[i]! - wZero[wZero.length === 1 ? 0 : Math.floor(i / per)]!;
    wv = shifted;
  }
  const isF32 = x.dtype === DT.FLOAT;
  const out = isF32 ? floats32(N * M * outSize) : floats64(N * M * outSize);
  const cols = isF32 ? floats32(cg * kSize * outSize) : floats64(cg * kSize * outSize);
  const rank = spatial.length;
  // precompute, per (kernel pos, out pos), the input offset or -1 when in padding
  const offsets = ints32(kSize * outSize);
  let ki = 0;
  const outPositions = positions(win.out);
  for (const kp of positions(kernel)) {
    let oi = 0;
    for (const op of outPositions) {
      let off = 0;
      let inside = true;
      for (let r = 0; r < rank; r++) {
        const p = op[r]! * win.strides[r]! - win.padsBegin[r]! + kp[r]! * win.dilations[r]!;
        if (p < 0 || p >= spatial[r]!) {
          inside = false;
          break;
        }
        off = off * spatial[r]! + p;
      }
      offsets[ki * outSize + oi] = inside ? off : -1;
      oi++;
    }
    ki++;
  }
  for (let n = 0; n < N; n++) {
    for (let g = 0; g < group; g++) {
      for (let c = 0; c < cg; c++) {
        pollRun();
        const xBase = (n * C + g * cg + c) * inSize;
        for (let k = 0; k < kSize; k++) {
          const row = (c * kSize + k) * outSize;
          const offRow = k * outSize;
          for (let o = 0; o < outSize; o++) {
            const off = offsets[offRow + o]!;
            cols[row + o] = off < 0 ? 0 : xv[xBase + off]! - xZero;
          }
        }
      }
      gemm(wv, g * mg * cg * kSize, cols, 0, out, (n * M + g * mg) * outSize, mg, cg * kSize, outSize);
    }
  }
  if (b) {
    const bv = numbers(b);
    for (let n = 0; n < N; n++)
      for (let m = 0; m < M; m++) {
        const base = (n * M + m) * outSize;
        const bias = bv[m]!;
        for (let o = 0; o < outSize; o++) out[base + o]! += bias;
      }
  }
  return { data: out, dims: [N, M, ...win.out] };
}

function convKernel([x, w, b]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const { data, dims } = conv(xt, t(w), b === undefined ? undefined : t(b), ctx);
  if (data instanceof Float32Array) return [tensor(DT.FLOAT, dims, data)];
  return [fromNumbers(xt.dtype, dims, data)];
}

function convTranspose([x, w, b]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const wt = t(w);
  const [N, C] = xt.dims as [number, number];
  const spatial = xt.dims.slice(2);
  const rank = spatial.length;
  const group = ctx.attrs.int("group", 1);
  const mg = wt.dims[1]!;
  const M = mg * group;
  const cg = C / group;
  const kernel = ctx.attrs.ints("kernel_shape") ?? wt.dims.slice(2);
  const strides = ctx.attrs.ints("strides") ?? new Array<number>(rank).fill(1);
  const dil = ctx.attrs.ints("dilations") ?? new Array<number>(rank).fill(1);
  const outPad = ctx.attrs.ints("output_padding") ?? new Array<number>(rank).fill(0);
  let pads = ctx.attrs.ints("pads") ?? new Array<number>(2 * rank).fill(0);
  const autoPad = ctx.attrs.string("auto_pad", "NOTSET");
  const outShape = ctx.attrs.ints("output_shape");
  const full = spatial.map((d, i) => strides[i]! * (d - 1) + outPad[i]! + (kernel[i]! - 1) * dil[i]! + 1);
  let outDims: number[];
  if (outShape) {
    const os = outShape.slice(-rank);
    pads = new Array<number>(2 * rank).fill(0);
    os.forEach((o, i) => {
      const total = full[i]! - o;
      const half = Math.floor(total / 2);
      if (autoPad === "SAME_UPPER") {
        pads[i] = half;
        pads[i + rank] = total - half;
      } else {
        pads[i] = total - half;
        pads[i + rank] = half;
      }
    });
    outDims = os;
  } else if (autoPad === "SAME_UPPER" || autoPad === "SAME_LOWER") {
    outDims = spatial.map((d, i) => d * strides[i]!);
    pads = new Array<number>(2 * rank).fill(0);
    outDims.forEach((o, i) => {
      const total = Math.max(0, full[i]! - o);
      const half = Math.floor(total / 2);
      if (autoPad === "SAME_UPPER") {
        pads[i] = half;
        pads[i + rank] = total - half;
      } else {
        pads[i] = total - half;
        pads[i + rank] = half;
      }
    });
  } else outDims = full.map((f, i) => f - pads[i]! - pads[i + rank]!);
  const outSize = sizeOf(outDims);
  const inSize = sizeOf(spatial);
  const kSize = sizeOf(kernel);
  const xv = numbers(xt);
  const wv = numbers(wt);
  const out = floats64(N * M * outSize);
  const kps = positions(kernel);
  const ips = positions(spatial);
  for (let n = 0; n < N; n++) {
    for (let g = 0; g < group; g++) {
      for (let c = 0; c < cg; c++) {
        pollRun();
        const ci = g * cg + c;
        for (let ii = 0; ii < inSize; ii++) {
          const xval = xv[(n * C + ci) * inSize + ii]!;
          if (xval === 0) continue;
          const ip = ips[ii]!;
          for (let k = 0; k < kSize; k++) {
            const kp = kps[k]!;
            let off = 0;
            let inside = true;
            for (let r = 0; r < rank; r++) {
              const p = ip[r]! * strides[r]! + kp[r]! * dil[r]! - pads[r]!;
              if (p < 0 || p >= outDims[r]!) {
                inside = false;
                break;
              }
              off = off * outDims[r]! + p;
            }
            if (!inside) continue;
            for (let m = 0; m < mg; m++) {
              out[(n * M + g * mg + m) * outSize + off]! += xval * wv[(ci * mg + m) * kSize + k]!;
            }
          }
        }
      }
    }
  }
  if (b) {
    const bv = numbers(t(b));
    for (let n = 0; n < N; n++) for (let m = 0; m < M; m++) for (let o = 0; o < outSize; o++) out[(n * M + m) * outSize + o]! += bv[m]!;
  }
  return [fromNumbers(xt.dtype, [N, M, ...outDims], out)];
}

function pool(kind: "max" | "avg" | "lp") {
  return ([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const xt = t(x);
    const [N, C] = xt.dims as [number, number];
    const spatial = xt.dims.slice(2);
    const rank = spatial.length;
    const kernel = ctx.attrs.ints("kernel_shape") ?? fail("pooling: no kernel_shape");
    const win = windowOf(ctx, spatial, kernel, ctx.attrs.int("ceil_mode", 0) === 1);
    const includePad = ctx.attrs.int("count_include_pad", 0) === 1;
    const p = ctx.attrs.int("p", 2);
    const storageOrder = ctx.attrs.int("storage_order", 0);
    const outSize = sizeOf(win.out);
    const inSize = sizeOf(spatial);
    const xv = numbers(xt);
    const out = floats64(N * C * outSize);
    const wantIdx = kind === "max" && ctx.outputCount > 1;
    const idx = wantIdx ? floats64(N * C * outSize) : undefined;
    const kps = positions(kernel);
    const ops = positions(win.out);
    const inStr: number[] = [];
    let acc = 1;
    for (let r = rank - 1; r >= 0; r--) {
      inStr[r] = acc;
      acc *= spatial[r]!;
    }
    for (let nc = 0; nc < N * C; nc++) {
      const base = nc * inSize;
      for (let oi = 0; oi < outSize; oi++) {
        if ((oi & 0x3ff) === 0) pollRun();
        const op = ops[oi]!;
        let best = -Infinity;
        let bestIdx = -1;
        let sum = 0;
        let count = 0;
        let padCount = 0;
        for (const kp of kps) {
          let off = 0;
          let inside = true;
          let inPadded = true;
          for (let r = 0; r < rank; r++) {
            const q = op[r]! * win.strides[r]! - win.padsBegin[r]! + kp[r]! * win.dilations[r]!;
            if (q < -win.padsBegin[r]! || q >= spatial[r]! + win.padsEnd[r]!) inPadded = false;
            if (q < 0 || q >= spatial[r]!) inside = false;
            else off += q * inStr[r]!;
          }
          if (inPadded) padCount++;
          if (!inside) continue;
          const v = xv[base + off]!;
          count++;
          if (kind === "max") {
            if (v > best || bestIdx < 0) {
              best = v;
              bestIdx = off;
            }
          } else if (kind === "avg") sum += v;
          else sum += Math.abs(v) ** p;
        }
        const o = nc * outSize + oi;
        if (kind === "max") {
          out[o] = best;
          if (idx) {
            let flat = bestIdx;
            if (storageOrder === 1 && rank === 2) {
              const h = Math.floor(bestIdx / spatial[1]!);
              const w = bestIdx % spatial[1]!;
              flat = w * spatial[0]! + h;
            }
            idx[o] = nc * inSize + flat;
          }
        } else if (kind === "avg") out[o] = sum / (includePad ? padCount : count);
        else out[o] = sum ** (1 / p);
      }
    }
    const dims = [N, C, ...win.out];
    const res: Value[] = [fromNumbers(xt.dtype, dims, out)];
    if (idx) res.push(int64Tensor(dims, idx));
    return res;
  };
}

function globalPool(kind: "max" | "avg" | "lp") {
  return ([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const xt = t(x);
    const [N, C] = xt.dims as [number, number];
    const inSize = sizeOf(xt.dims.slice(2));
    const p = ctx.attrs.int("p", 2);
    const xv = numbers(xt);
    const out = floats64(N * C);
    for (let i = 0; i < N * C; i++) {
      let acc = kind === "max" ? -Infinity : 0;
      for (let k = 0; k < inSize; k++) {
        const v = xv[i * inSize + k]!;
        if (kind === "max") acc = v > acc ? v : acc;
        else if (kind === "avg") acc += v;
        else acc += Math.abs(v) ** p;
      }
      out[i] = kind === "avg" ? acc / inSize : kind === "lp" ? acc ** (1 / p) : acc;
    }
    return [fromNumbers(xt.dtype, [N, C, ...xt.dims.slice(2).map(() => 1)], out)];
  };
}

function batchNorm([x, scale, bias, mean, variance]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const eps = ctx.attrs.float("epsilon", 1e-5);
  const training = ctx.attrs.int("training_mode", 0) === 1;
  const N = xt.dims[0]!;
  const C = xt.dims[1] ?? 1;
  const inner = sizeOf(xt.dims.slice(2));
  const xv = numbers(xt);
  const sv = numbers(t(scale));
  const bv = numbers(t(bias));
  let mv = numbers(t(mean));
  let vv = numbers(t(variance));
  const extra: Value[] = [];
  if (training) {
    const momentum = ctx.attrs.float("momentum", 0.9);
    const bm = floats64(C);
    const bvar = floats64(C);
    const cnt = N * inner;
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) for (let i = 0; i < inner; i++) bm[c]! += xv[(n * C + c) * inner + i]! / cnt;
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) for (let i = 0; i < inner; i++) bvar[c]! += (xv[(n * C + c) * inner + i]! - bm[c]!) ** 2 / cnt;
    const runMean = floats64(C);
    const runVar = floats64(C);
    for (let c = 0; c < C; c++) {
      runMean[c] = mv[c]! * momentum + bm[c]! * (1 - momentum);
      runVar[c] = vv[c]! * momentum + bvar[c]! * (1 - momentum);
    }
    extra.push(fromNumbers(t(mean).dtype, [C], runMean), fromNumbers(t(variance).dtype, [C], runVar));
    mv = bm;
    vv = bvar;
  }
  const out = floats64(xv.length);
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) {
      const k = sv[c]! / Math.sqrt(vv[c]! + eps);
      const off = bv[c]! - mv[c]! * k;
      const base = (n * C + c) * inner;
      for (let i = 0; i < inner; i++) out[base + i] = xv[base + i]! * k + off;
    }
  }
  return [fromNumbers(xt.dtype, xt.dims, out), ...extra].slice(0, Math.max(1, ctx.outputCount));
}

function instanceNorm([x, scale, bias]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const eps = ctx.attrs.float("epsilon", 1e-5);
  const [N, C] = xt.dims as [number, number];
  const inner = sizeOf(xt.dims.slice(2));
  const xv = numbers(xt);
  const sv = numbers(t(scale));
  const bv = numbers(t(bias));
  const out = floats64(xv.length);
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) {
      const base = (n * C + c) * inner;
      let mean = 0;
      for (let i = 0; i < inner; i++) mean += xv[base + i]!;
      mean /= inner;
      let v = 0;
      for (let i = 0; i < inner; i++) v += (xv[base + i]! - mean) ** 2;
      v /= inner;
      const k = sv[c]! / Math.sqrt(v + eps);
      for (let i = 0; i < inner; i++) out[base + i] = (xv[base + i]! - mean) * k + bv[c]!;
    }
  }
  return [fromNumbers(xt.dtype, xt.dims, out)];
}

function layerNorm([x, scale, bias]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const axis = axisOf(ctx.attrs.int("axis", -1), xt.dims.length);
  const eps = ctx.attrs.float("epsilon", 1e-5);
  const outer = sizeOf(xt.dims.slice(0, axis));
  const inner = sizeOf(xt.dims.slice(axis));
  const xv = numbers(xt);
  const sv = numbers(t(scale));
  const st = t(scale);
  const bv = bias === undefined ? undefined : numbers(t(bias));
  const bt = bias === undefined ? undefined : t(bias);
  const out = floats64(xv.length);
  const means = floats64(outer);
  const inv = floats64(outer);
  const sIdx = (i: number) => i % sizeOf(st.dims);
  for (let o = 0; o < outer; o++) {
    const base = o * inner;
    let mean = 0;
    for (let i = 0; i < inner; i++) mean += xv[base + i]!;
    mean /= inner;
    let v = 0;
    for (let i = 0; i < inner; i++) v += (xv[base + i]! - mean) ** 2;
    v /= inner;
    const r = 1 / Math.sqrt(v + eps);
    means[o] = mean;
    inv[o] = r;
    for (let i = 0; i < inner; i++) out[base + i] = (xv[base + i]! - mean) * r * sv[sIdx(i)]! + (bv ? bv[i % sizeOf(bt!.dims)]! : 0);
  }
  const statDims = xt.dims.map((d, i) => (i < axis ? d : 1));
  const stashType = ctx.attrs.int("stash_type", 1);
  return [
    fromNumbers(xt.dtype, xt.dims, out),
    fromNumbers(stashType === 1 ? DT.FLOAT : xt.dtype, statDims, means),
    fromNumbers(stashType === 1 ? DT.FLOAT : xt.dtype, statDims, inv),
  ].slice(0, Math.max(1, ctx.outputCount));
}

function groupNorm([x, scale, bias]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const eps = ctx.attrs.float("epsilon", 1e-5);
  const G = ctx.attrs.int("num_groups") ?? fail("GroupNormalization: no num_groups");
  const [N, C] = xt.dims as [number, number];
  const inner = sizeOf(xt.dims.slice(2));
  const cpg = C / G;
  const xv = numbers(xt);
  const sv = numbers(t(scale));
  const bv = numbers(t(bias));
  const perChannel = sv.length === C;
  const out = floats64(xv.length);
  for (let n = 0; n < N; n++) {
    for (let g = 0; g < G; g++) {
      const base = (n * C + g * cpg) * inner;
      const len = cpg * inner;
      let mean = 0;
      for (let i = 0; i < len; i++) mean += xv[base + i]!;
      mean /= len;
      let v = 0;
      for (let i = 0; i < len; i++) v += (xv[base + i]! - mean) ** 2;
      v /= len;
      const r = 1 / Math.sqrt(v + eps);
      for (let i = 0; i < len; i++) {
        const c = g * cpg + Math.floor(i / inner);
        const si = perChannel ? c : g;
        out[base + i] = (xv[base + i]! - mean) * r * sv[si]! + bv[si]!;
      }
    }
  }
  return [fromNumbers(xt.dtype, xt.dims, out)];
}

function lrn([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const size = ctx.attrs.int("size") ?? fail("LRN: no size");
  const alpha = ctx.attrs.float("alpha", 1e-4);
  const beta = ctx.attrs.float("beta", 0.75);
  const bias = ctx.attrs.float("bias", 1);
  const [N, C] = xt.dims as [number, number];
  const inner = sizeOf(xt.dims.slice(2));
  const xv = numbers(xt);
  const out = floats64(xv.length);
  const lo = Math.floor((size - 1) / 2);
  const hi = Math.ceil((size - 1) / 2);
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++)
      for (let i = 0; i < inner; i++) {
        let sq = 0;
        for (let k = Math.max(0, c - lo); k <= Math.min(C - 1, c + hi); k++) sq += xv[(n * C + k) * inner + i]! ** 2;
        const idx = (n * C + c) * inner + i;
        out[idx] = xv[idx]! / (bias + (alpha / size) * sq) ** beta;
      }
  return [fromNumbers(xt.dtype, xt.dims, out)];
}

function meanVarianceNorm([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const axes = ctx.attrs.ints("axes") ?? [0, 2, 3];
  const rank = xt.dims.length;
  const set = new Set(axes.map((a) => axisOf(a, rank)));
  const xv = numbers(xt);
  const statDims = xt.dims.map((d, i) => (set.has(i) ? 1 : d));
  const sums = floats64(sizeOf(statDims));
  const sq = floats64(sums.length);
  const count = xv.length / sums.length;
  const statIdx = (i: number) => {
    let rem = i;
    let off = 0;
    let mul = 1;
    for (let r = rank - 1; r >= 0; r--) {
      const p = rem % xt.dims[r]!;
      rem = Math.floor(rem / xt.dims[r]!);
      if (!set.has(r)) {
        off += p * mul;
        mul *= xt.dims[r]!;
      }
    }
    return off;
  };
  for (let i = 0; i < xv.length; i++) {
    const s = statIdx(i);
    sums[s]! += xv[i]!;
    sq[s]! += xv[i]! ** 2;
  }
  const out = floats64(xv.length);
  for (let i = 0; i < xv.length; i++) {
    const s = statIdx(i);
    const mean = sums[s]! / count;
    const variance = sq[s]! / count - mean * mean;
    out[i] = (xv[i]! - mean) / (Math.sqrt(Math.max(variance, 0)) + 1e-9);
  }
  return [fromNumbers(xt.dtype, xt.dims, out)];
}

function lpNorm([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const axis = axisOf(ctx.attrs.int("axis", -1), xt.dims.length);
  const p = ctx.attrs.int("p", 2);
  const [outer, dim, inner] = splitAt(xt.dims, axis);
  const xv = numbers(xt);
  const out = floats64(xv.length);
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      let s = 0;
      for (let k = 0; k < dim; k++) s += Math.abs(xv[(o * dim + k) * inner + i]!) ** p;
      const norm = p === 1 ? s : Math.sqrt(s);
      for (let k = 0; k < dim; k++) {
        const idx = (o * dim + k) * inner + i;
        out[idx] = norm === 0 ? 0 : xv[idx]! / norm;
      }
    }
  return [fromNumbers(xt.dtype, xt.dims, out)];
}

function convInteger([x, w, xz, wz]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const xt = t(x);
  const xZero = xz === undefined ? 0 : numbers(t(xz))[0]!;
  const wZero = wz === undefined ? undefined : numbers(t(wz));
  const out = conv({ ...xt, dtype: DT.DOUBLE }, t(w), undefined, ctx, xZero, wZero);
  return [fromNumbers(DT.INT32, out.dims, out.data)];
}

/** Bilinear sample of a channel at (y, x) in pixel coordinates; outside pixels count as 0. */
function bilinearZero(v: ArrayLike<number>, base: number, H: number, W: number, y: number, x: number): number {
  const y0 = Math.floor(y);
  const x0 = Math.floor(x);
  const fy = y - y0;
  const fx = x - x0;
  let acc = 0;
  for (let dy = 0; dy < 2; dy++) {
    const yy = y0 + dy;
    if (yy < 0 || yy >= H) continue;
    const wy = dy ? fy : 1 - fy;
    for (let dx = 0; dx < 2; dx++) {
      const xx = x0 + dx;
      if (xx < 0 || xx >= W) continue;
      acc += wy * (dx ? fx : 1 - fx) * v[base + yy * W + xx]!;
    }
  }
  return acc;
}

/** DeformConv (2-d): each kernel tap samples the input at a learned offset, optionally masked. */
function deformConv([x, w, off, b, m]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(x);
  const Wt = t(w);
  const O = t(off);
  if (X.dims.length !== 4) fail("DeformConv: only 2-d inputs are supported");
  const [N, C, H, Wd] = X.dims as [number, number, number, number];
  const M = Wt.dims[0]!;
  const [kh, kw] = (ctx.attrs.ints("kernel_shape") ?? Wt.dims.slice(2)) as [number, number];
  const [sh, sw] = (ctx.attrs.ints("strides") ?? [1, 1]) as [number, number];
  const [dh, dw] = (ctx.attrs.ints("dilations") ?? [1, 1]) as [number, number];
  const pads = ctx.attrs.ints("pads") ?? [0, 0, 0, 0];
  const group = ctx.attrs.int("group", 1);
  const offGroups = ctx.attrs.int("offset_group", 1);
  const [OH, OW] = O.dims.slice(2) as [number, number];
  const cg = C / group;
  const mg = M / group;
  const cPerOff = C / offGroups;
  const xv = numbers(X);
  const wv = numbers(Wt);
  const ov = numbers(O);
  const mv = m === undefined ? undefined : numbers(t(m));
  const bv = b === undefined ? undefined : numbers(t(b));
  const K = kh * kw;
  const out = floats64(N * M * OH * OW);
  const sampled = floats64(C * K * OH * OW);
  for (let n = 0; n < N; n++) {
    // sample every (channel, tap, output position) once, then contract with the weights
    for (let c = 0; c < C; c++) {
      const g = Math.floor(c / cPerOff);
      for (let i = 0; i < kh; i++)
        for (let j = 0; j < kw; j++) {
          const k = i * kw + j;
          for (let oy = 0; oy < OH; oy++)
            for (let ox = 0; ox < OW; ox++) {
              const pos = oy * OW + ox;
              const offBase = ((n * offGroups + g) * K + k) * 2;
              const y = oy * sh - pads[0]! + i * dh + ov[offBase * OH * OW + pos]!;
              const xx = ox * sw - pads[1]! + j * dw + ov[(offBase + 1) * OH * OW + pos]!;
              const mask = mv ? mv[((n * offGroups + g) * K + k) * OH * OW + pos]! : 1;
              sampled[(c * K + k) * OH * OW + pos] = mask * bilinearZero(xv, (n * C + c) * H * Wd, H, Wd, y, xx);
            }
        }
    }
    for (let mo = 0; mo < M; mo++) {
      const g = Math.floor(mo / mg);
      for (let pos = 0; pos < OH * OW; pos++) {
        let acc = bv ? bv[mo]! : 0;
        for (let ci = 0; ci < cg; ci++) for (let k = 0; k < K; k++) acc += wv[(mo * cg + ci) * K + k]! * sampled[((g * cg + ci) * K + k) * OH * OW + pos]!;
        out[(n * M + mo) * OH * OW + pos] = acc;
      }
    }
  }
  return [fromNumbers(X.dtype, [N, M, OH, OW], out)];
}

export function registerNN(r: Registry): void {
  r.register("DeformConv", deformConv);
  r.register("Conv", convKernel);
  r.register("ConvInteger", convInteger);
  r.register("ConvTranspose", convTranspose);
  r.register("MaxPool", pool("max"));
  r.register("AveragePool", pool("avg"));
  r.register("LpPool", pool("lp"));
  r.register("GlobalMaxPool", globalPool("max"));
  r.register("GlobalAveragePool", globalPool("avg"));
  r.register("GlobalLpPool", globalPool("lp"));
  r.register("BatchNormalization", batchNorm);
  r.register("InstanceNormalization", instanceNorm);
  r.register("LayerNormalization", layerNorm);
  r.register("GroupNormalization", groupNorm);
  r.register("LRN", lrn);
  r.register("MeanVarianceNormalization", meanVarianceNorm);
  r.register("LpNormalization", lpNorm);
}
