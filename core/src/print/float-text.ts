// Number text for the printer: the shortest decimal that reads back to the same value at the
// value's own width (float32 or float64), in a form both the official and our parser accept.
// NaN is written `nan` / `-nan`; payloads other than the default need an extension (ext/).

import type { ByteWriter } from "./byte-writer.js";
import { found, shortestDigits } from "./float32-digits.js";

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The IEEE bit pattern of a float32 value. */
export function float32Bits(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

export function float32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}

export function float64Bits(v: number): bigint {
  f64[0] = v;
  return u64[0]!;
}

export function float64FromBits(bits: bigint): number {
  u64[0] = BigInt.asUintN(64, bits);
  return f64[0]!;
}

/** The quiet NaN that `nan` reads as (sign bit clear). */
export const DEFAULT_NAN32 = 0x7fc00000;
export const DEFAULT_NAN64 = 0x7ff8000000000000n;

/** True when `nan`/`-nan` text reproduces this float32 NaN exactly. */
export function isPlainNan32(bits: number): boolean {
  return (bits & 0x7fffffff) === DEFAULT_NAN32;
}

export function isPlainNan64(bits: bigint): boolean {
  return (bits & 0x7fffffffffffffffn) === DEFAULT_NAN64;
}

function special(v: number): string | undefined {
  if (v !== v) return undefined;
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0";
  return undefined;
}

/** Shortest text for a float64 value (JS's own algorithm is shortest round-trip). */
export function formatFloat64(v: number): string {
  if (v !== v) return float64Bits(v) >> 63n ? "-nan" : "nan";
  return special(v) ?? String(v);
}

/** Plain decimal text of k * 10^-s (k a positive integer), in JS number spelling. */
function decimalText(k: number, s: number): string {
  let scale = s;
  while (k >= 10 && k % 10 === 0) {
    k /= 10;
    scale--;
  }
  const digits = String(k);
  const exp = digits.length - 1 - scale; // decimal exponent of the first digit
  if (exp >= 21 || exp < -6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${mant}e${exp >= 0 ? "+" : "-"}${Math.abs(exp)}`;
  }
  if (exp < 0) return "0." + "0".repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return digits + "0".repeat(exp + 1 - digits.length);
  return digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
}

/** The general path: a binary search over toPrecision (shortness is monotonic). */
function shortestSlow(a: number): string {
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(a.toPrecision(mid))) === a) hi = mid;
    else lo = mid + 1;
  }
  return String(Number(a.toPrecision(lo)));
}

const one = new Float64Array(1);

/** Shortest text that reads back (as a float32) to exactly `v`, a float32 value. */
export function formatFloat32(v: number): string {
  if (v !== v) return float32Bits(v) >>> 31 ? "-nan" : "nan";
  const s = special(v);
  if (s !== undefined) return s;
  const a = Math.abs(v);
  one[0] = a;
  const digits = shortestDigits(one, 0) ? decimalText(found[0]!, found[1]!) : shortestSlow(a);
  return v < 0 ? "-" + digits : digits;
}

const POW10_INT = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

/** "0000".."9999" as ASCII bytes, four per number: one division writes four digits. */
const QUADS = new Uint8Array(40000);
for (let n = 0; n < 10000; n++) {
  QUADS[4 * n] = 48 + Math.floor(n / 1000);
  QUADS[4 * n + 1] = 48 + (Math.floor(n / 100) % 10);
  QUADS[4 * n + 2] = 48 + (Math.floor(n / 10) % 10);
  QUADS[4 * n + 3] = 48 + (n % 10);
}

/** Writes the nd digits of k (with leading zeros) ending just before byte `end`. */
function putDigits(b: Uint8Array, end: number, k: number, nd: number): void {
  let i = end;
  while (nd >= 4) {
    const q = (k / 10000) | 0;
    const r = (k - q * 10000) << 2;
    b[i - 4] = QUADS[r]!;
    b[i - 3] = QUADS[r + 1]!;
    b[i - 2] = QUADS[r + 2]!;
    b[i - 1] = QUADS[r + 3]!;
    i -= 4;
    nd -= 4;
    k = q;
  }
  // The last one to three digits are the tail of k's four-digit group.
  const r = k << 2;
  for (let d = 1; d <= nd; d++) b[i - d] = QUADS[r + 4 - d]!;
}

/** The most bytes one float32 takes as text (`-0.00000` and nine digits, `-1e+21` forms). */
export const FLOAT32_TEXT_MAX = 24;

/**
 * Writes k * 10^-scale (k a positive integer) as decimalText would spell it into `b` at `p`
 * (FLOAT32_TEXT_MAX bytes free); returns the end.
 */
function writeDecimal(b: Uint8Array, p: number, k: number, scale: number, negative: boolean): number {
  // k has at most ten digits (< 2^31), so int32 division is exact and much cheaper.
  k |= 0;
  for (;;) {
    const q = (k / 10) | 0;
    if (k < 10 || q * 10 !== k) break;
    k = q;
    scale--;
  }
  let nd = 1;
  while (nd < 10 && k >= POW10_INT[nd]!) nd++;
  return writeDigits(b, p, k, nd, nd - 1 - scale, negative);
}

/**
 * Writes the nd digits of k (no trailing zero) with the first digit at decimal exponent
 * `exp`, spelled as decimalText would; returns the end.
 */
function writeDigits(b: Uint8Array, p: number, k: number, nd: number, exp: number, negative: boolean): number {
  // Signs are random in weights: a store and an add, not a branch.
  b[p] = 45;
  p += negative ? 1 : 0;
  if (exp >= 0 && exp < nd - 1) {
    // The usual case: the point goes after exp + 1 digits. The digits go one byte right,
    // then the integer part moves back over the gap (usually one byte).
    putDigits(b, p + nd + 1, k, nd);
    for (let t = 0; t <= exp; t++) b[p + t] = b[p + t + 1]!;
    b[p + exp + 1] = 46;
    p += nd + 1;
  } else if (exp >= 21 || exp < -6) {
    const lead = (k / POW10_INT[nd - 1]!) | 0;
    b[p++] = 48 + lead;
    if (nd > 1) {
      b[p++] = 46;
      putDigits(b, p + nd - 1, k - lead * POW10_INT[nd - 1]!, nd - 1);
      p += nd - 1;
    }
    b[p++] = 101;
    b[p++] = exp >= 0 ? 43 : 45;
    const e = String(Math.abs(exp));
    for (let i = 0; i < e.length; i++) b[p++] = e.charCodeAt(i);
  } else if (exp < 0) {
    b[p++] = 48;
    b[p++] = 46;
    for (let i = 0; i < -exp - 1; i++) b[p++] = 48;
    putDigits(b, p + nd, k, nd);
    p += nd;
  } else {
    putDigits(b, p + nd, k, nd);
    p += nd;
    for (let i = 0; i < exp + 1 - nd; i++) b[p++] = 48;
  }
  return p;
}

/**
 * formatFloat32 of `values[i]` into a byte buffer, without a string for the common case (the
 * array and index, not the double, cross the call: see float32-digits.ts).
 */
export function writeFloat32(w: ByteWriter, values: Float64Array, i: number): void {
  w.ensure(FLOAT32_TEXT_MAX);
  w.pos = writeFloat32At(values, i, w.buf, w.pos);
}

/** writeFloat32 into `b` at `p` with FLOAT32_TEXT_MAX bytes free; returns the end. */
export function writeFloat32At(values: Float64Array, i: number, b: Uint8Array, p: number): number {
  const v = values[i]!;
  if (v === v && v !== 0 && v !== Infinity && v !== -Infinity && shortestDigits(values, i)) {
    const nd = found[2]!;
    const exp = nd - 1 - found[1]!;
    if (exp >= 0 && exp < nd - 1) {
      // The usual case, inline (see writeDigits).
      b[p] = 45;
      p += v < 0 ? 1 : 0;
      putDigits(b, p + nd + 1, found[0]!, nd);
      for (let t = 0; t <= exp; t++) b[p + t] = b[p + t + 1]!;
      b[p + exp + 1] = 46;
      return p + nd + 1;
    }
    if (nd > 0) return writeDigits(b, p, found[0]!, nd, exp, v < 0);
    return writeDecimal(b, p, found[0]!, found[1]!, v < 0);
  }
  const text = formatFloat32(v);
  for (let j = 0; j < text.length; j++) b[p++] = text.charCodeAt(j);
  return p;
}

/**
 * Float text that the parsers read as a float literal even without a type annotation:
 * `1` becomes `1.0`, `1e+21` stays (it has an exponent).
 */
export function asFloatLiteral(text: string): string {
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}
