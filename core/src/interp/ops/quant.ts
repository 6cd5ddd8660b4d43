// Quantization kernels: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// QLinearMatMul, QLinearConv.
import type { KernelContext, Registry } from "../registry.js";
import { DT, encodeElement, fromNumbers, isFloatType, numbers, tensor, type Tensor, type Value, floats64 } from "../value.js";
import { matmul } from "./linalg.js";
import { conv } from "./nn.js";
import { axisOf, t } from "./util.js";

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const RANGES: Partial<Record<number, [number, number]>> = {
  [DT.UINT8]: [0, 255],
  [DT.INT8]: [-128, 127],
  [DT.UINT16]: [0, 65535],
  [DT.INT16]: [-32768, 32767],
  [DT.INT32]: [-(2 ** 31), 2 ** 31 - 1],
  [DT.UINT4]: [0, 15],
  [DT.INT4]: [-8, 7],
  [DT.UINT2]: [0, 3],
  [DT.INT2]: [-2, 1],
};

/** For each element of x, the index of its scale (scalar, per-axis or blocked). */
function scaleIndex(x: Tensor, scale: Tensor, ctx: KernelContext): (i: number) => number {
  if (scale.data.length === 1) return () => 0;
  const axis = axisOf(ctx.attrs.int("axis", 1), x.dims.length);
  const block = ctx.attrs.int("block_size", 0);
  let inner = 1;
  for (let r = axis + 1; r < x.dims.length; r++) inner *= x.dims[r]!;
  const dim = x.dims[axis]!;
  if (block > 0) {
    const sdim = scale.dims[axis]!;
    return (i) => {
      const outer = Math.floor(i / (dim * inner));
      const a = Math.floor(i / inner) % dim;
      const rest = i % inner;
      return (outer * sdim + Math.floor(a / block)) * inner + rest;
    };
  }
  return (i) => Math.floor(i / inner) % dim;
}

function quantize(x: Tensor, scale: Tensor, zp: Tensor | undefined, ctx: KernelContext, outType: number): Tensor {
  const xv = numbers(x);
  const sv = numbers(scale);
  const zv = zp ? numbers(zp) : undefined;
  const idx = scaleIndex(x, scale, ctx);
  const out = floats64(xv.length);
  if (isFloatType(outType)) {
    for (let i = 0; i < xv.length; i++) out[i] = xv[i]! / sv[idx(i)]! + (zv ? zv[zv.length === 1 ? 0 : idx(i)]! : 0);
    return fromNumbersSat(outType, x.dims, out, ctx.attrs.int("saturate", 1) === 1);
  }
  const [lo, hi] = RANGES[outType] ?? [0, 255];
  const f32 = x.dtype === DT.FLOAT;
  for (let i = 0; i < xv.length; i++) {
    const z = zv ? zv[zv.length === 1 ? 0 : idx(i)]! : 0;
    out[i] = Math.max(lo, Math.min(hi, roundHalfEven(f32 ? Math.fround(xv[i]! / sv[idx(i)]!) : xv[i]! / sv[idx(i)]!) + z));
  }
  return fromNumbers(outType, x.dims, out);
}

function fromNumbersSat(dtype: number, dims: readonly number[], v: Float64Array, saturate: boolean): Tensor {
  const out = tensor(dtype, dims);
  const d = out.data as Uint8Array;
  for (let i = 0; i < v.length; i++) d[i] = encodeElement(dtype, v[i]!, saturate) as number;
  return out;
}

function dequantize(x: Tensor, scale: Tensor, zp: Tensor | undefined, ctx: KernelContext): Tensor {
  const xv = numbers(x);
  const sv = numbers(scale);
  const zv = zp ? numbers(zp) : undefined;
  const idx = scaleIndex(x, scale, ctx);
  const out = floats64(xv.length);
  for (let i = 0; i < xv.length; i++) out[i] = (xv[i]! - (zv ? zv[zv.length === 1 ? 0 : idx(i)]! : 0)) * sv[idx(i)]!;
  const outType = ctx.attrs.int("output_dtype", 0) || scale.dtype;
  return fromNumbers(outType, x.dims, out);
}

function qlinearMatMul(inputs: readonly (Value | undefined)[]): Value[] {
  const [a, as, az, b, bs, bz, ys, yz] = inputs.map((v) => (v === undefined ? undefined : t(v)));
  const av = numbers(a!);
  const bv = numbers(b!);
  const azv = numbers(az!);
  const bzv = numbers(bz!);
  const aShift = floats64(av.length);
  const cols = b!.dims[b!.dims.length - 1]!;
  const rows = a!.dims[a!.dims.length - 2] ?? 1;
  for (let i = 0; i < av.length; i++) aShift[i] = av[i]! - azv[azv.length === 1 ? 0 : Math.floor(i / a!.dims[a!.dims.length - 1]!) % rows]!;
  const bShift = floats64(bv.length);
  for (let i = 0; i < bv.length; i++) bShift[i] = bv[i]! - bzv[bzv.length === 1 ? 0 : i % cols]!;
  const prod = matmul(tensor(DT.DOUBLE, a!.dims, aShift), tensor(DT.DOUBLE, b!.dims, bShift), DT.DOUBLE);
  const asv = numbers(as!);
  const bsv = numbers(bs!);
  const ysv = numbers(ys!)[0]!;
  const yzv = numbers(yz!)[0]!;
  const p = prod.data as Float64Array;
  const out = floats64(p.length);
  const [lo, hi] = RANGES[yz!.dtype] ?? [0, 255];
  for (let i = 0; i < p.length; i++) {
    const s = asv[0]! * bsv[bsv.length === 1 ? 0 : i % cols]!;
    out[i] = Math.max(lo, Math.min(hi, roundHalfEven((p[i]! * s) / ysv) + yzv));
  }
  return [fromNumbers(yz!.dtype, prod.dims, out)];
}

function qlinearConv(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const [x, xs, xz, w, ws, wz, ys, yz, bias] = inputs.map((v) => (v === undefined ? undefined : t(v)));
  const xZero = numbers(xz!)[0]!;
  const { data: acc, dims } = conv({ ...x!, dtype: DT.DOUBLE }, w!, undefined, ctx, xZero, numbers(wz!));
  const M = dims[1]!;
  const per = acc.length / (dims[0]! * M);
  const xsv = numbers(xs!)[0]!;
  const wsv = numbers(ws!);
  const ysv = numbers(ys!)[0]!;
  const yzv = numbers(yz!)[0]!;
  const bv = bias ? numbers(bias) : undefined;
  const [lo, hi] = RANGES[yz!.dtype] ?? [0, 255];
  const out = floats64(acc.length);
  for (let i = 0; i < acc.length; i++) {
    const m = Math.floor(i / per) % M;
    const v = acc[i]! + (bv ? bv[m]! : 0);
    out[i] = Math.max(lo, Math.min(hi, roundHalfEven((v * xsv * wsv[wsv.length === 1 ? 0 : m]!) / ysv) + yzv));
  }
  return [fromNumbers(yz!.dtype, dims, out)];
}

export function registerQuant(r: Registry): void {
  r.register("QuantizeLinear", ([x, s, z], ctx) => {
    const zp = z === undefined ? undefined : t(z);
    const outType = zp?.dtype ?? (ctx.attrs.int("output_dtype", 0) || DT.UINT8);
    return [quantize(t(x), t(s), zp, ctx, outType)];
  });
  r.register("DequantizeLinear", ([x, s, z], ctx) => [dequantize(t(x), t(s), z === undefined ? undefined : t(z), ctx)]);
  r.register("DynamicQuantizeLinear", ([x]) => {
    const a = t(x);
    const v = numbers(a);
    let mx = 0;
    let mn = 0;
    for (let i = 0; i < v.length; i++) {
      if (v[i]! > mx) mx = v[i]!;
      if (v[i]! < mn) mn = v[i]!;
    }
    const scale = Math.fround((mx - mn) / 255);
    const zp = scale === 0 ? 0 : Math.max(0, Math.min(255, roundHalfEven(Math.fround(0 - Math.fround(mn / scale)))));
    const out = floats64(v.length);
    for (let i = 0; i < v.length; i++) out[i] = scale === 0 ? zp : Math.max(0, Math.min(255, roundHalfEven(Math.fround(v[i]! / scale)) + zp));
    return [fromNumbers(DT.UINT8, a.dims, out), fromNumbers(DT.FLOAT, [], [scale]), fromNumbers(DT.UINT8, [], [zp])];
  });
  r.register("QLinearMatMul", qlinearMatMul);
  r.register("QLinearConv", qlinearConv);
}
