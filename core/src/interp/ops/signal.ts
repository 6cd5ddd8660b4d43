// Signal kernels: DFT, STFT and MelWeightMatrix (plain O(n^2) transforms, in doubles).
import { pollRun } from "../budget.js";
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, intList, numbers, type Tensor, type Value, floats64 } from "../value.js";
import { axisOf, fail, t } from "./util.js";

/** DFT of one complex signal of length n (re, im), padded/truncated to `len`. */
function dft1(re: Float64Array, im: Float64Array, len: number, outLen: number, inverse: boolean, outRe: Float64Array, outIm: Float64Array): void {
  const sign = inverse ? 1 : -1;
  for (let k = 0; k < outLen; k++) {
    // O(n^2): a long signal takes long, and the run's deadline must still hold
    if ((k & 0xf) === 0) pollRun();
    let sr = 0;
    let si = 0;
    for (let j = 0; j < len; j++) {
      const ang = (sign * 2 * Math.PI * k * j) / len;
      const c = Math.cos(ang);
      const s = Math.sin(ang);
      sr += re[j]! * c - im[j]! * s;
      si += re[j]! * s + im[j]! * c;
    }
    outRe[k] = inverse ? sr / len : sr;
    outIm[k] = inverse ? si / len : si;
  }
}

/**
 * The signals along `axis` of x, whose last dimension holds 1 (real) or 2 (complex) parts:
 * one per (outer, inner) pair, outer counting the blocks before the axis and inner the
 * positions after it.
 */
interface AxisSignals {
  readonly values: ArrayLike<number>;
  readonly outer: number;
  readonly inner: number;
  /** The signal length (the axis's size). */
  readonly n: number;
  readonly comps: number;
}

function axisSignals(x: Tensor, axis: number): AxisSignals {
  const rank = x.dims.length;
  let outer = 1;
  for (let i = 0; i < axis; i++) outer *= x.dims[i]!;
  let inner = 1;
  for (let i = axis + 1; i < rank - 1; i++) inner *= x.dims[i]!;
  return { values: numbers(x), outer, inner, n: x.dims[axis]!, comps: x.dims[rank - 1]! };
}

/** Loads signal (o, i) into re/im, truncated or zero-padded to their length. */
function loadSignal(s: AxisSignals, o: number, i: number, re: Float64Array, im: Float64Array): void {
  re.fill(0);
  im.fill(0);
  for (let j = 0; j < Math.min(s.n, re.length); j++) {
    const base = ((o * s.n + j) * s.inner + i) * s.comps;
    re[j] = s.values[base]!;
    im[j] = s.comps === 2 ? s.values[base + 1]! : 0;
  }
}

function dft(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const x = t(inputs[0]);
  const rank = x.dims.length;
  const axisRaw = ctx.opset >= 20 ? (inputs[2] === undefined ? -2 : intList(t(inputs[2]))[0]!) : ctx.attrs.int("axis", 1);
  const axis = axisOf(axisRaw, rank);
  if (axis === rank - 1) fail("DFT: the axis cannot be the last (complex) dimension");
  const inverse = ctx.attrs.int("inverse", 0) === 1;
  const onesided = ctx.attrs.int("onesided", 0) === 1;
  const n = x.dims[axis]!;
  const len = inputs[1] === undefined || t(inputs[1]).data.length === 0 ? n : intList(t(inputs[1]))[0]!;
  if (inverse && onesided) {
    const given = inputs[1] !== undefined && t(inputs[1]).data.length > 0;
    return [inverseRealDft(x, axis, given ? len : 2 * (n - 1))];
  }
  const outLen = onesided ? Math.floor(len / 2) + 1 : len;
  const signals = axisSignals(x, axis);
  const { outer, inner } = signals;
  const outDims = x.dims.slice();
  outDims[axis] = outLen;
  outDims[rank - 1] = 2;
  const out = floats64(outer * outLen * inner * 2);
  const re = floats64(len);
  const im = floats64(len);
  const oRe = floats64(outLen);
  const oIm = floats64(outLen);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      loadSignal(signals, o, i, re, im);
      dft1(re, im, len, outLen, inverse, oRe, oIm);
      for (let k = 0; k < outLen; k++) {
        const base = ((o * outLen + k) * inner + i) * 2;
        out[base] = oRe[k]!;
        out[base + 1] = oIm[k]!;
      }
    }
  }
  return [fromNumbers(x.dtype, outDims, out)];
}

/** Inverse of a one-sided spectrum: rebuilds the Hermitian half and returns real values [.., len, 1]. */
function inverseRealDft(x: Tensor, axis: number, len: number): Tensor {
  const rank = x.dims.length;
  const signals = axisSignals(x, axis);
  const { outer, inner, n } = signals;
  const outDims = x.dims.slice();
  outDims[axis] = len;
  outDims[rank - 1] = 1;
  const out = floats64(outer * len * inner);
  const re = floats64(len);
  const im = floats64(len);
  const oRe = floats64(len);
  const oIm = floats64(len);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      loadSignal(signals, o, i, re, im);
      for (let k = 1; k < len; k++) {
        if (k < n && len - k >= n) {
          re[len - k] = re[k]!;
          im[len - k] = -im[k]!;
        }
      }
      dft1(re, im, len, len, true, oRe, oIm);
      for (let k = 0; k < len; k++) out[(o * len + k) * inner + i] = oRe[k]!;
    }
  }
  return fromNumbers(x.dtype, outDims, out);
}

function stft(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const x = t(inputs[0]);
  const step = intList(t(inputs[1]))[0]!;
  const window = inputs[2] === undefined ? undefined : numbers(t(inputs[2]));
  const frameLen = inputs[3] !== undefined ? intList(t(inputs[3]))[0]! : window ? window.length : fail("STFT: needs a window or frame_length");
  const onesided = ctx.attrs.int("onesided", 1) === 1;
  const [B, L] = x.dims as [number, number];
  const comps = x.dims[2] ?? 1;
  const frames = Math.floor((L - frameLen) / step) + 1;
  const bins = onesided ? Math.floor(frameLen / 2) + 1 : frameLen;
  const xv = numbers(x);
  const out = floats64(B * frames * bins * 2);
  const re = floats64(frameLen);
  const im = floats64(frameLen);
  const oRe = floats64(bins);
  const oIm = floats64(bins);
  for (let b = 0; b < B; b++) {
    for (let f = 0; f < frames; f++) {
      for (let j = 0; j < frameLen; j++) {
        const w = window ? window[j]! : 1;
        const base = (b * L + f * step + j) * comps;
        re[j] = xv[base]! * w;
        im[j] = comps === 2 ? xv[base + 1]! * w : 0;
      }
      dft1(re, im, frameLen, bins, false, oRe, oIm);
      for (let k = 0; k < bins; k++) {
        const base = ((b * frames + f) * bins + k) * 2;
        out[base] = oRe[k]!;
        out[base + 1] = oIm[k]!;
      }
    }
  }
  return [fromNumbers(x.dtype, [B, frames, bins, 2], out)];
}

function melWeightMatrix(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const [numMel, dftLen, sampleRate] = inputs.slice(0, 3).map((v) => intList(t(v))[0]!) as [number, number, number];
  const lower = numbers(t(inputs[3]))[0]!;
  const upper = numbers(t(inputs[4]))[0]!;
  const bins = Math.floor(dftLen / 2) + 1;
  const hzToMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const melToHz = (mel: number) => 700 * (10 ** (mel / 2595) - 1);
  const lowMel = hzToMel(lower);
  const highMel = hzToMel(upper);
  const step = (highMel - lowMel) / (numMel + 2);
  const points: number[] = [];
  for (let i = 0; i < numMel + 2; i++) {
    const hz = melToHz(lowMel + i * step);
    points.push(Math.floor(((dftLen + 1) * hz) / sampleRate));
  }
  const out = floats64(bins * numMel);
  for (let m = 0; m < numMel; m++) {
    const lo = points[m]!;
    const center = points[m + 1]!;
    const hi = points[m + 2]!;
    const lowLen = center - lo;
    const highLen = hi - center;
    if (lowLen === 0) out[center * numMel + m] = 1;
    else for (let j = lo; j <= center; j++) if (j < bins) out[j * numMel + m] = (j - lo) / lowLen;
    if (highLen > 0) for (let j = center; j < hi; j++) if (j < bins) out[j * numMel + m] = (hi - j) / highLen;
  }
  return [fromNumbers(ctx.attrs.int("output_datatype", DT.FLOAT), [bins, numMel], out)];
}

export function registerSignal(r: Registry): void {
  r.register("DFT", dft);
  r.register("STFT", stft);
  r.register("MelWeightMatrix", melWeightMatrix);
}
