// Number text for the printer: the shortest decimal that reads back to the same value at the
// value's own width (float32 or float64), in a form both the official and our parser accept.
// NaN is written `nan` / `-nan`; payloads other than the default need an extension (ext/).

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
function shortestFast(a: number): string | undefined {
  const bits = float32Bits(a);
  const exp = bits >>> 23;
  const ulp = exp === 0 ? 2 ** -149 : 2 ** (exp - 150);
  const lo = a - ((bits & 0x7fffff) === 0 && exp > 1 ? ulp / 4 : ulp / 2);
  const hi = a + ulp / 2;
  const e10 = Math.floor(Math.log10(a));
  if (9 - 1 - e10 > 22 || -e10 < -22) return undefined;
  // Nine digits always suffice for a float32. Most values need eight or nine, so probe
  // eight first, then search below it only when eight works.
  let best = digitsAt(8, e10, a, lo, hi);
  let bestP = 8;
  if (best === undefined) {
    best = digitsAt(9, e10, a, lo, hi);
    bestP = 9;
  } else {
    const k7 = digitsAt(7, e10, a, lo, hi);
    if (k7 !== undefined) {
      best = k7;
      let lo_p = 1;
      let hi_p = 7;
      while (lo_p < hi_p) {
        const mid = (lo_p + hi_p) >> 1;
        const k = digitsAt(mid, e10, a, lo, hi);
        if (k !== undefined) {
          hi_p = mid;
          best = k;
        } else lo_p = mid + 1;
      }
      bestP = lo_p;
    }
  }
  if (best === undefined) return undefined;
  return decimalText(best, bestP - 1 - e10);
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

/** Shortest text that reads back (as a float32) to exactly `v`, a float32 value. */
export function formatFloat32(v: number): string {
  if (v !== v) return float32Bits(v) >>> 31 ? "-nan" : "nan";
  const s = special(v);
  if (s !== undefined) return s;
  const a = Math.abs(v);
  const digits = shortestFast(a) ?? shortestSlow(a);
  return v < 0 ? "-" + digits : digits;
}

/**
 * Float text that the parsers read as a float literal even without a type annotation:
 * `1` becomes `1.0`, `1e+21` stays (it has an exponent).
 */
export function asFloatLiteral(text: string): string {
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}
