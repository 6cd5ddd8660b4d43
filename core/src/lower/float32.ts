// Correctly rounded float32 values from decimal text. `Math.fround(Number(text))` rounds twice
// (decimal -> double -> float) and is wrong when the double lands exactly on a midpoint between
// two floats while the decimal does not; that case is decided exactly with BigInt.
import { numberValue } from "../../../grammar/src/number-scan.js";

/** Splits a finite double into an integer mantissa and a power-of-two exponent. */
function binaryParts(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  if (exp === 0) return { m: frac, e: -1074 };
  return { m: frac | (1n << 52n), e: exp - 1075 };
}

/** Sign of |decimal text| - |x|, exactly. */
function compareMagnitude(text: string, x: number): number {
  const body = text.replace(/^-/, "");
  const match = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(body);
  if (!match) return 0;
  const intPart = match[1] ?? "";
  const fracPart = match[2] ?? "";
  const mant = BigInt((intPart + fracPart).replace(/^0+(?=\d)/, "") || "0");
  const exp10 = Number(match[3] ?? "0") - fracPart.length;
  const { m, e } = binaryParts(x);
  let left = mant;
  let right = m;
  if (exp10 >= 0) left *= 10n ** BigInt(exp10);
  else right *= 10n ** BigInt(-exp10);
  if (e >= 0) right <<= BigInt(e);
  else left <<= BigInt(-e);
  return left === right ? 0 : left > right ? 1 : -1;
}

/**
 * The float32 nearest to the decimal literal (ties to even), as a double. Returns Infinity with
 * the literal's sign when the literal is finite but beyond the float range: callers report that.
 */
export function parseFloat32(text: string): number {
  return roundToFloat32(numberValue(text), () => text);
}

/**
 * `d` is the correctly rounded double of a decimal literal; `textOf` gives that literal and is
 * called only in the rare midpoint case, so bulk data stays fast.
 */
export function roundToFloat32(d: number, textOf: () => string): number {
  const f = Math.fround(d);
  if (f === d || !Number.isFinite(f) || Number.isNaN(d)) return f;
  // d is a midpoint between f and its neighbour g exactly when 2d - f (exact, by Sterbenz) is a
  // float32: that neighbour. Otherwise 2d - f lies strictly between two adjacent floats.
  const g = 2 * d - f;
  if (Math.fround(g) !== g || !Number.isFinite(g)) return f;
  const cmp = compareMagnitude(textOf(), d);
  if (cmp === 0) return f;
  const larger = Math.abs(f) > Math.abs(g) ? f : g;
  const smaller = larger === f ? g : f;
  return cmp > 0 ? larger : smaller;
}
