// Newer ai.onnx kernels: BitCast, CumProd, CenterCropPad, TensorScatter, Col2Im,
// StringSplit, RegexFullMatch.
import type { KernelContext, Registry } from "../registry.js";
import { DT, allocData, fromNumbers, int64Tensor, intList, numbers, sizeOf, stridesOf, tensor, type TensorData, type Value, floats64 } from "../value.js";
import { cumulative } from "./reduce.js";
import { axisOf, fail, t } from "./util.js";
import { maxOf } from "../../arrays.js";

type Slots = { [i: number]: unknown; length: number };
const slots = (d: TensorData) => d as unknown as Slots;

function bitCast([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const to = ctx.attrs.int("to") ?? fail("BitCast: no 'to'");
  if (a.dtype === DT.STRING || to === DT.STRING) fail("BitCast does not take strings");
  const src = a.data as Exclude<TensorData, string[]>;
  const out = allocData(to, src.length) as Exclude<TensorData, string[]>;
  if (out.byteLength !== src.byteLength) fail("BitCast needs element types of the same width");
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  if (to === DT.BOOL) for (let i = 0; i < out.length; i++) (out as Uint8Array)[i] = (out as Uint8Array)[i] ? 1 : 0;
  return [tensor(to, a.dims, out)];
}

function centerCropPad([x, s]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const shape = intList(t(s));
  const rank = a.dims.length;
  const axes = (ctx.attrs.ints("axes") ?? a.dims.map((_, i) => i)).map((ax) => axisOf(ax, rank));
  const outDims = a.dims.slice();
  const srcStart = new Array<number>(rank).fill(0);
  const dstStart = new Array<number>(rank).fill(0);
  const count = a.dims.slice();
  axes.forEach((ax, i) => {
    const want = shape[i]!;
    const dim = a.dims[ax]!;
    outDims[ax] = want;
    if (want < dim) {
      srcStart[ax] = Math.floor((dim - want) / 2);
      count[ax] = want;
    } else if (want > dim) dstStart[ax] = Math.floor((want - dim) / 2);
  });
  const out = tensor(a.dtype, outDims);
  const src = slots(a.data);
  const dst = slots(out.data);
  const ss = stridesOf(a.dims);
  const ds = stridesOf(outDims);
  const n = sizeOf(count);
  const pos = new Array<number>(rank).fill(0);
  for (let k = 0; k < n; k++) {
    let so = 0;
    let dOff = 0;
    for (let r = 0; r < rank; r++) {
      so += (srcStart[r]! + pos[r]!) * ss[r]!;
      dOff += (dstStart[r]! + pos[r]!) * ds[r]!;
    }
    dst[dOff] = src[so];
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < count[r]!) break;
      pos[r] = 0;
    }
  }
  return [out];
}

function tensorScatter([cache, update, writeIdx]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const c = t(cache);
  const u = t(update);
  const rank = c.dims.length;
  const axis = axisOf(ctx.attrs.int("axis", -2), rank);
  const circular = ctx.attrs.string("mode", "linear") === "circular";
  const idx = writeIdx === undefined ? new Array<number>(c.dims[0]!).fill(0) : intList(t(writeIdx));
  const out = tensor(c.dtype, c.dims, c.data.slice() as TensorData);
  const dst = slots(out.data);
  const src = slots(u.data);
  const maxLen = c.dims[axis]!;
  const cs = stridesOf(c.dims);
  const us = stridesOf(u.dims);
  const n = sizeOf(u.dims);
  const pos = new Array<number>(rank).fill(0);
  for (let k = 0; k < n; k++) {
    let uo = 0;
    let co = 0;
    for (let r = 0; r < rank; r++) {
      uo += pos[r]! * us[r]!;
      let p = pos[r]!;
      if (r === axis) {
        p += idx[pos[0]!]!;
        if (circular) p %= maxLen;
      }
      co += p * cs[r]!;
    }
    dst[co] = src[uo];
    for (let r = rank - 1; r >= 0; r--) {
      if (++pos[r]! < u.dims[r]!) break;
      pos[r] = 0;
    }
  }
  return [out];
}

function col2im([x, imageShape, blockShape]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const image = intList(t(imageShape));
  const block = intList(t(blockShape));
  const nd = image.length;
  const dil = ctx.attrs.ints("dilations") ?? new Array<number>(nd).fill(1);
  const strides = ctx.attrs.ints("strides") ?? new Array<number>(nd).fill(1);
  const pads = ctx.attrs.ints("pads") ?? new Array<number>(2 * nd).fill(0);
  const [N, CK, L] = a.dims as [number, number, number];
  const kSize = sizeOf(block);
  const C = CK / kSize;
  const blocks = image.map((d, i) => Math.floor((d + pads[i]! + pads[i + nd]! - dil[i]! * (block[i]! - 1) - 1) / strides[i]!) + 1);
  if (sizeOf(blocks) !== L) fail(`Col2Im: expected ${sizeOf(blocks)} blocks, got ${L}`);
  const xv = numbers(a);
  const imgSize = sizeOf(image);
  const out = floats64(N * C * imgSize);
  const bs = stridesOf(blocks);
  const ks = stridesOf(block);
  const is = stridesOf(image);
  for (let n = 0; n < N; n++)
    for (let c = 0; c < C; c++)
      for (let k = 0; k < kSize; k++)
        for (let l = 0; l < L; l++) {
          let off = 0;
          let inside = true;
          for (let r = 0; r < nd; r++) {
            const kp = Math.floor(k / ks[r]!) % block[r]!;
            const bp = Math.floor(l / bs[r]!) % blocks[r]!;
            const p = bp * strides[r]! - pads[r]! + kp * dil[r]!;
            if (p < 0 || p >= image[r]!) {
              inside = false;
              break;
            }
            off += p * is[r]!;
          }
          if (inside) out[(n * C + c) * imgSize + off]! += xv[(n * CK + c * kSize + k) * L + l]!;
        }
  return [fromNumbers(a.dtype, [N, C, ...image], out)];
}

function stringSplit([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const delim = ctx.attrs.string("delimiter", "");
  const maxSplit = ctx.attrs.int("maxsplit");
  const parts = (a.data as string[]).map((s) => {
    if (delim === "") {
      const words = s
        .trim()
        .split(/\s+/)
        .filter((w) => w.length > 0);
      if (maxSplit === undefined || words.length <= maxSplit + 1) return words;
      // keep the rest of the string after maxsplit splits
      let rest = s.trimStart();
      const head: string[] = [];
      for (let i = 0; i < maxSplit; i++) {
        const m = /^(\S+)\s+/.exec(rest)!;
        head.push(m[1]!);
        rest = rest.slice(m[0].length);
      }
      return [...head, rest];
    }
    const all = s.split(delim);
    if (maxSplit === undefined || all.length <= maxSplit + 1) return all;
    return [...all.slice(0, maxSplit), all.slice(maxSplit).join(delim)];
  });
  const width = maxOf(
    parts.map((p) => p.length),
    0,
  );
  const out: string[] = [];
  for (const p of parts) for (let i = 0; i < width; i++) out.push(p[i] ?? "");
  return [
    tensor(DT.STRING, [...a.dims, width], out),
    int64Tensor(
      a.dims,
      parts.map((p) => p.length),
    ),
  ];
}

function regexFullMatch([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const pattern = ctx.attrs.string("pattern") ?? fail("RegexFullMatch: no pattern");
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, "u");
  } catch (e) {
    return fail(`RegexFullMatch: invalid pattern: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out = tensor(DT.BOOL, a.dims);
  (a.data as string[]).forEach((s, i) => ((out.data as Uint8Array)[i] = re.test(s) ? 1 : 0));
  return [out];
}

/** A depthwise causal 1-d convolution that carries its last k-1 inputs as state. */
function causalConvWithState([x, w, b, past]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const [B, C, L] = a.dims as [number, number, number];
  const k = t(w).dims[2]!;
  const act = ctx.attrs.string("activation", "none");
  if (act !== "none" && act !== "silu" && act !== "swish") fail(`CausalConvWithState: unknown activation '${act}'`);
  const xv = numbers(a);
  const wv = numbers(t(w));
  const bv = b === undefined ? undefined : numbers(t(b));
  const pv = past === undefined ? undefined : numbers(t(past));
  const P = L + k - 1;
  const padded = floats64(B * C * P);
  for (let n = 0; n < B; n++)
    for (let c = 0; c < C; c++) {
      const base = (n * C + c) * P;
      for (let i = 0; i < k - 1; i++) padded[base + i] = pv ? pv[(n * C + c) * (k - 1) + i]! : 0;
      for (let i = 0; i < L; i++) padded[base + k - 1 + i] = xv[(n * C + c) * L + i]!;
    }
  const out = floats64(B * C * L);
  for (let n = 0; n < B; n++)
    for (let c = 0; c < C; c++) {
      const base = (n * C + c) * P;
      for (let i = 0; i < L; i++) {
        let acc = bv ? bv[c]! : 0;
        for (let j = 0; j < k; j++) acc += padded[base + i + j]! * wv[c * k + j]!;
        if (act !== "none") {
          const v = Math.fround(acc);
          acc = v / (1 + Math.exp(-v));
        }
        out[(n * C + c) * L + i] = acc;
      }
    }
  const state = floats64(B * C * (k - 1));
  for (let n = 0; n < B; n++) for (let c = 0; c < C; c++) for (let i = 0; i < k - 1; i++) state[(n * C + c) * (k - 1) + i] = padded[(n * C + c) * P + L + i]!;
  return [fromNumbers(a.dtype, [B, C, L], out), fromNumbers(a.dtype, [B, C, k - 1], state)];
}

export function registerExtra(r: Registry): void {
  r.register("CausalConvWithState", causalConvWithState);
  r.register("BitCast", bitCast);
  r.register(
    "CumProd",
    cumulative(1, (acc, v) => acc * v),
  );
  r.register("CenterCropPad", centerCropPad);
  r.register("TensorScatter", tensorScatter);
  r.register("Col2Im", col2im);
  r.register("StringSplit", stringSplit);
  r.register("RegexFullMatch", regexFullMatch);
}
