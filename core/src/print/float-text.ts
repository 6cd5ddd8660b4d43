// Number text for the printer: the shortest decimal that reads back to the same value at the
// value's own width (float32 or float64), in a form both the official and our parser accept.
// NaN is written `nan` / `-nan`; payloads other than the default need an extension (ext/).

import type { ByteWriter } from "./byte-writer.js";

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

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i); // exact doubles
const POW2 = Array.from({ length: 256 }, (_, e) => 2 ** (e - 150)); // float32 ulp by biased exponent

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

/**
 * The candidate k * 10^-s if it reads back as the float `a`, else undefined. For s <= 0 the
 * candidate is an exact double and the tie rule of fround is the parser's; for s > 0 a
 * candidate on an exact midpoint cannot be decided from the double and is refused.
 */
function candidate(k: number, s: number, a: number, lo: number, hi: number): number | undefined {
  if (k <= 0) return undefined;
  const c = s >= 0 ? k / POW10[s]! : k * POW10[-s]!;
  if (s > 0 && (c === lo || c === hi)) return undefined;
  return Math.fround(c) === a ? k : undefined;
}

/** The shortest-precision integer k (with scale s) that reads back as `a`, for precision p. */
function digitsAt(p: number, e10: number, a: number, lo: number, hi: number): number | undefined {
  const s = p - 1 - e10;
  const scaled = s >= 0 ? a * POW10[s]! : a / POW10[-s]!;
  const k = Math.round(scaled);
  return candidate(k, s, a, lo, hi) ?? candidate(scaled > k ? k + 1 : k - 1, s, a, lo, hi);
}

/**
 * Shortest digits for a positive float32 `a` by scaled integer arithmetic (|s| <= 22 keeps
 * every operation exact or correctly rounded). Validity is monotonic in the precision, so
 * a binary search finds the shortest.
 */
function shortestFast(a: number): "" | undefined {
  const bits = float32Bits(a);
  const exp = bits >>> 23;
  const ulp = exp === 0 ? POW2[1]! : POW2[exp]!;
  const lo = a - ((bits & 0x7fffff) === 0 && exp > 1 ? ulp / 4 : ulp / 2);
  const hi = a + ulp / 2;
  const e10 = Math.floor(Math.log10(a));
  if (9 - 1 - e10 > 22 || -e10 < -22) return undefined;
  // Nine digits always suffice for a float32. Most values need seven to nine, so walk down
  // from eight while shorter forms work, and binary-search only below six.
  let best = digitsAt(8, e10, a, lo, hi);
  let bestP = 8;
  if (best === undefined) {
    best = digitsAt(9, e10, a, lo, hi);
    bestP = 9;
  } else {
    for (let p = 7; p >= 6; p--) {
      const k = digitsAt(p, e10, a, lo, hi);
      if (k === undefined) break;
      best = k;
      bestP = p;
    }
    if (bestP === 6) {
      let loP = 1;
      let hiP = 6;
      while (loP < hiP) {
        const mid = (loP + hiP) >> 1;
        const k = digitsAt(mid, e10, a, lo, hi);
        if (k !== undefined) {
          hiP = mid;
          best = k;
        } else loP = mid + 1;
      }
      bestP = loP;
    }
  }
  if (best === undefined) return undefined;
  found.k = best;
  found.scale = bestP - 1 - e10;
  return "";
}

/** The digits shortestFast found: the value is k * 10^-scale. */
const found = { k: 0, scale: 0 };

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

/** Shortest text that reads back (as a float32) to exactly `v`, a float32 value. */
export function formatFloat32(v: number): string {
  if (v !== v) return float32Bits(v) >>> 31 ? "-nan" : "nan";
  const s = special(v);
  if (s !== undefined) return s;
  const a = Math.abs(v);
  const digits = shortestFast(a) === undefined ? shortestSlow(a) : decimalText(found.k, found.scale);
  return v < 0 ? "-" + digits : digits;
}

const DIGITS = new Uint8Array(24);

/** Writes k * 10^-scale (k a positive integer) as decimalText would spell it, as bytes. */
function writeDecimal(w: ByteWriter, k: number, scale: number, negative: boolean): void {
  while (k >= 10 && k % 10 === 0) {
    k /= 10;
    scale--;
  }
  let nd = 0;
  let x = k;
  do {
    DIGITS[nd++] = 48 + (x % 10);
    x = Math.floor(x / 10);
  } while (x > 0);
  const exp = nd - 1 - scale; // DIGITS holds the digits last first
  w.ensure(nd + 32);
  const b = w.buf;
  let p = w.pos;
  if (negative) b[p++] = 45;
  if (exp >= 21 || exp < -6) {
    b[p++] = DIGITS[nd - 1]!;
    if (nd > 1) {
      b[p++] = 46;
      for (let i = nd - 2; i >= 0; i--) b[p++] = DIGITS[i]!;
    }
    b[p++] = 101;
    b[p++] = exp >= 0 ? 43 : 45;
    const e = String(Math.abs(exp));
    for (let i = 0; i < e.length; i++) b[p++] = e.charCodeAt(i);
  } else if (exp < 0) {
    b[p++] = 48;
    b[p++] = 46;
    for (let i = 0; i < -exp - 1; i++) b[p++] = 48;
    for (let i = nd - 1; i >= 0; i--) b[p++] = DIGITS[i]!;
  } else if (nd <= exp + 1) {
    for (let i = nd - 1; i >= 0; i--) b[p++] = DIGITS[i]!;
    for (let i = 0; i < exp + 1 - nd; i++) b[p++] = 48;
  } else {
    for (let i = nd - 1; i >= nd - 1 - exp; i--) b[p++] = DIGITS[i]!;
    b[p++] = 46;
    for (let i = nd - 2 - exp; i >= 0; i--) b[p++] = DIGITS[i]!;
  }
  w.pos = p;
}

/** formatFloat32 into a byte buffer, without a string for the common case. */
export function writeFloat32(w: ByteWriter, v: number): void {
  if (v === v && v !== 0 && v !== Infinity && v !== -Infinity) {
    const a = Math.abs(v);
    if (shortestFast(a) !== undefined) {
      writeDecimal(w, found.k, found.scale, v < 0);
      return;
    }
  }
  w.ascii(formatFloat32(v));
}

/**
 * Float text that the parsers read as a float literal even without a type annotation:
 * `1` becomes `1.0`, `1e+21` stays (it has an exponent).
 */
export function asFloatLiteral(text: string): string {
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}
