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

/** Turns JS number text (`1e-7`, `1.5e+21`, `123`) into our canonical spelling. */
function tidy(s: string): string {
  // JS already drops trailing zeros and uses `e+21` / `e-7`; keep that, it parses everywhere.
  return s;
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
  return special(v) ?? tidy(String(v));
}

/**
 * Shortest text that reads back (as a float32) to exactly `v`, which must already be a
 * float32 value. Shortness is monotonic in the precision, so a binary search over 1..9
 * significant digits needs at most four conversions.
 */
export function formatFloat32(v: number): string {
  if (v !== v) return float32Bits(v) >>> 31 ? "-nan" : "nan";
  const s = special(v);
  if (s !== undefined) return s;
  // Values that are short as doubles are short as floats too (e.g. 0.5, 3, 1e-3 rounded).
  const plain = String(v);
  if (plain.length <= 8 && Math.fround(Number(plain)) === v) return plain;
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(v.toPrecision(mid))) === v) hi = mid;
    else lo = mid + 1;
  }
  return tidy(String(Number(v.toPrecision(lo))));
}

/**
 * Float text that the parsers read as a float literal even without a type annotation:
 * `1` becomes `1.0`, `1e+21` stays (it has an exponent).
 */
export function asFloatLiteral(text: string): string {
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}
