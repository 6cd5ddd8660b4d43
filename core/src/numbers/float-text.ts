// Number text for the printer: the shortest decimal that reads back to the same value at the
// value's own width (float32 or float64), in a form both the official and our parser accept.
// NaN is written `nan` / `-nan`; payloads other than the default need an extension (ext/).

import type { ByteWriter } from "./byte-writer.js";
import { found, shortestDigitsSearch } from "./float32-digits.js";
import type { FillLayout } from "./fill-layout.js";
import { fastFloat32Text, spellScaled, writeFloat32Fill } from "./float32-wasm.js";

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

/** The quiet NaN that `nan` reads as (sign bit clear). */
export const DEFAULT_NAN32 = 0x7fc00000;

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
  const fast = fastFloat32Text(v);
  if (fast !== undefined) return fast;
  const a = Math.abs(v);
  one[0] = a;
  if (shortestDigitsSearch(one, 0)) return spellScaled(found[0]!, found[1]!, v < 0);
  const digits = shortestSlow(a);
  return v < 0 ? "-" + digits : digits;
}

/** Appends `values` as float32 text, a fill broken into lines as `at` says; returns the column. */
export function writeFloat32s(out: ByteWriter, values: Float64Array | Float32Array, at: FillLayout): number {
  return writeFloat32Fill(out, values, at, formatFloat32);
}

/**
 * Float text that the parsers read as a float literal even without a type annotation:
 * `1` becomes `1.0`, `1e+21` stays (it has an exponent).
 */
export function asFloatLiteral(text: string): string {
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}
