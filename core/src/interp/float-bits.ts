// Exact conversions between JS numbers and the small float formats, which are stored as
// bit patterns (float16/bfloat16 in Uint16Array, float8 and float4 in Uint8Array).

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float32 bits of x (x first rounded to float32). */
function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

export function float16ToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Round-to-nearest-even from a double (exact: rounds once from the double, not via float32). */
export function numberToFloat16(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) {
    // subnormal: units of 2^-24
    const q = roundHalfEven(a * 2 ** 24);
    return sign | q;
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export function bfloat16ToNumber(b: number): number {
  u32[0] = b << 16;
  return f32[0]!;
}

/** Round-to-nearest-even from float32 bits, as onnx does. */
export function numberToBfloat16(x: number): number {
  if (Number.isNaN(x)) return 0x7fc0;
  const bits = bitsOf(x);
  const rounding = 0x7fff + ((bits >>> 16) & 1);
  return ((bits + rounding) >>> 16) & 0xffff;
}

/** A float8 format: exponent bits, mantissa bits, bias, and which special values it has. */
interface MiniFloat {
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** "ieee": inf and NaN patterns (E5M2); "fn": only NaN at all-ones (E4M3FN); "uz": NaN = 0x80, no -0. */
  readonly kind: "ieee" | "fn" | "uz" | "none";
}

export const E4M3FN: MiniFloat = { expBits: 4, manBits: 3, bias: 7, kind: "fn" };
export const E4M3FNUZ: MiniFloat = { expBits: 4, manBits: 3, bias: 8, kind: "uz" };
export const E5M2: MiniFloat = { expBits: 5, manBits: 2, bias: 15, kind: "ieee" };
export const E5M2FNUZ: MiniFloat = { expBits: 5, manBits: 2, bias: 16, kind: "uz" };
export const E2M1: MiniFloat = { expBits: 2, manBits: 1, bias: 1, kind: "none" };

export function miniToNumber(fmt: MiniFloat, v: number): number {
  const total = 1 + fmt.expBits + fmt.manBits;
  const signBit = 1 << (total - 1);
  const expMask = (1 << fmt.expBits) - 1;
  const manMask = (1 << fmt.manBits) - 1;
  if (fmt.kind === "uz" && v === signBit) return NaN;
  const sign = v & signBit ? -1 : 1;
  const exp = (v >> fmt.manBits) & expMask;
  const man = v & manMask;
  if (fmt.kind === "fn" && exp === expMask && man === manMask) return NaN;
  if (fmt.kind === "ieee" && exp === expMask) return man ? NaN : sign * Infinity;
  if (exp === 0) return sign * man * 2 ** (1 - fmt.bias - fmt.manBits);
  return sign * (1 + man / (1 << fmt.manBits)) * 2 ** (exp - fmt.bias);
}

/** The largest finite value of a format. */
function maxFinite(fmt: MiniFloat): number {
  const expMask = (1 << fmt.expBits) - 1;
  const manMask = (1 << fmt.manBits) - 1;
  if (fmt.kind === "fn") return (1 + (manMask - 1) / (1 << fmt.manBits)) * 2 ** (expMask - fmt.bias);
  if (fmt.kind === "ieee") return (1 + manMask / (1 << fmt.manBits)) * 2 ** (expMask - 1 - fmt.bias);
  return (1 + manMask / (1 << fmt.manBits)) * 2 ** (expMask - fmt.bias);
}

/**
 * Round-to-nearest-even conversion; with `saturate`, values beyond the range become the largest
 * finite value (and infinities too), otherwise they become inf (E5M2) or NaN.
 */
export function numberToMini(fmt: MiniFloat, x: number, saturate = true): number {
  const total = 1 + fmt.expBits + fmt.manBits;
  const signBit = 1 << (total - 1);
  const nanBits =
    fmt.kind === "uz" ? signBit : fmt.kind === "ieee" ? (((1 << fmt.expBits) - 1) << fmt.manBits) | 1 : fmt.kind === "fn" ? signBit - 1 : signBit - 1;
  const infBits = ((1 << fmt.expBits) - 1) << fmt.manBits;
  if (Number.isNaN(x)) return fmt.kind === "uz" || fmt.kind === "none" ? signBit : nanBits | (fmt.kind === "fn" ? signBit : 0);
  const neg = x < 0 || Object.is(x, -0);
  const sign = neg ? signBit : 0;
  const a = Math.abs(x);
  const max = maxFinite(fmt);
  const maxBits = encodeAbs(fmt, max);
  if (a === Infinity) {
    if (saturate) return sign | maxBits;
    return fmt.kind === "ieee" ? sign | infBits : fmt.kind === "none" ? sign | maxBits : fmt.kind === "uz" ? signBit : sign | nanBits;
  }
  const bits = encodeAbs(fmt, a);
  if (bits > maxBits) {
    if (saturate || fmt.kind === "none") return sign | maxBits;
    return fmt.kind === "ieee" ? sign | infBits : fmt.kind === "uz" ? signBit : sign | nanBits;
  }
  if (bits === 0 && fmt.kind === "uz") return 0;
  return sign | bits;
}

/** Magnitude bits with round-half-even; may exceed the max finite pattern (overflow). */
function encodeAbs(fmt: MiniFloat, a: number): number {
  const minExp = 1 - fmt.bias;
  if (a < 2 ** minExp) {
    return roundHalfEven(a * 2 ** (fmt.manBits - minExp));
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * (1 << fmt.manBits));
  if (m === 1 << fmt.manBits) {
    m = 0;
    e++;
  }
  return ((e + fmt.bias) << fmt.manBits) | m;
}
