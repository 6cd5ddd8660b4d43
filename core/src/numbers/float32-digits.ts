// The shortest decimal digits of a float32: the tables of the fast path (which runs in
// WebAssembly, core/wasm/float32-text.ts, and gets these tables from here so both sides use
// the same doubles) and the exact search it defers to. |scale| <= 22 keeps every product and
// quotient of the search exact or correctly rounded.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

const POW10 = Float64Array.from({ length: 23 }, (_, i) => 10 ** i); // exact doubles
const POW2 = Float64Array.from({ length: 256 }, (_, e) => 2 ** (e - 150)); // ulp by biased exponent

const log10Floor = (a: number): number => Math.floor(Math.log10(a));

function bitsOf(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

/**
 * Per biased exponent of a normal float32: floor(log10) of the binade's first value, and the
 * first bit pattern in the binade where it is one more (2^32 when none). Found by stepping
 * from the float32 nearest the power of ten, so the table agrees with Math.log10 exactly.
 */
const E10_LOW = new Int32Array(255);
const E10_STEP = new Float64Array(255);
for (let exp = 1; exp < 255; exp++) {
  u32[0] = exp << 23;
  const low = log10Floor(f32[0]!);
  E10_LOW[exp] = low;
  let step = 2 ** 32;
  let b = bitsOf(10 ** (low + 1));
  if (b >>> 23 <= exp) {
    const floorAt = (bits: number): number => {
      u32[0] = bits;
      return log10Floor(f32[0]!);
    };
    while (b > exp << 23 && floorAt(b - 1) > low) b--;
    while (floorAt(b) <= low) b++;
    if (b >>> 23 === exp) step = b;
  }
  E10_STEP[exp] = step;
}

/** floor(log10(a)) for a positive finite float32 with bit pattern `bits`, without the log. */
export function decimalExponent(a: number, bits: number): number {
  const exp = bits >>> 23;
  if (exp === 0) return log10Floor(a);
  return bits >= E10_STEP[exp]! ? E10_LOW[exp]! + 1 : E10_LOW[exp]!;
}

/** The result of shortestDigitsSearch: the value is found[0] * 10^-found[1]. */
export const found = new Int32Array(2);

/** 10^-j for j = 0..9: scaling by them is inexact, but well inside the fast path's tolerance. */
const INV10 = Float64Array.from({ length: 10 }, (_, j) => 10 ** -j);

/**
 * Per binade side (2 * biased exponent + 1 when the decimal exponent is E10_LOW + 1): the
 * factor to nine-digit units (a product, not an exact quotient: the fast path only needs
 * it within its tolerance), the half-ulp in those units, and a level the interval always
 * reaches (10^j below its narrowest width, so the search can start there).
 */
const SCALE = new Float64Array(512);
const HALF_ULP = new Float64Array(512);
const START_LEVEL = new Int32Array(512);
for (let exp = 1; exp < 255; exp++) {
  for (let side = 0; side < 2; side++) {
    const s9 = 8 - (E10_LOW[exp]! + side);
    const at = 2 * exp + side;
    SCALE[at] = s9 >= 0 ? POW10[Math.min(s9, 22)]! : 1 / POW10[Math.min(-s9, 22)]!;
    HALF_ULP[at] = (POW2[exp]! / 2) * SCALE[at]!;
    const narrowest = HALF_ULP[at]! * 1.5 * 0.999; // power-of-two binade start, less the margin
    START_LEVEL[at] = narrowest > 100 ? 2 : narrowest > 10 ? 1 : 0;
  }
}

/**
 * Shortest digits of the positive float32 `values[i]` into `found`; false when its decimal
 * exponent is out of the exact range. At precision p the candidates are the rounded scaled
 * value and its neighbour toward the value; one reads back when its double rounds (fround)
 * to the value, except that a candidate on an exact midpoint (s > 0) cannot be decided from
 * the double and is refused. Validity is monotonic in p. Nine digits always suffice; most
 * values need seven to nine, so the search tries eight, then nine or seven and six, and
 * binary-searches only below six.
 */
export function shortestDigitsSearch(values: Float64Array, i: number): boolean {
  const a = Math.abs(values[i]!);
  f32[0] = a;
  const bits = u32[0]!;
  const exp = bits >>> 23;
  const ulp = exp === 0 ? POW2[1]! : POW2[exp]!;
  const lo = a - ((bits & 0x7fffff) === 0 && exp > 1 ? ulp / 4 : ulp / 2);
  const hi = a + ulp / 2;
  const e10 = exp === 0 ? log10Floor(a) : bits >= E10_STEP[exp]! ? E10_LOW[exp]! + 1 : E10_LOW[exp]!;
  if (8 - e10 > 22 || e10 > 22) return false;
  // phase 0: tried 8; 1: tried 9; 2: walking down 7, 6; 3: binary search in [loP, hiP].
  let phase = 0;
  let p = 8;
  let best = -1;
  let bestP = 0;
  let loP = 1;
  let hiP = 6;
  for (;;) {
    const s = p - 1 - e10;
    const pow = s >= 0 ? POW10[s]! : POW10[-s]!;
    const scaled = s >= 0 ? a * pow : a / pow;
    // Math.round for 1 <= scaled < 2^31 (scaled spans [10^(p-1), 10^p)): adding one half is
    // exact there, and truncation is one instruction where Math.round may be a call.
    const rounded = (scaled + 0.5) | 0;
    // The interval around `a` in scaled units, and a bound on the rounding error of the
    // scaled values (a few 2^-53 relative): a candidate clearly inside or outside is decided
    // without the division; only one within `tol` of an edge takes the exact test below.
    const up = s >= 0 ? (hi - a) * pow : (hi - a) / pow;
    const down = s >= 0 ? (a - lo) * pow : (a - lo) / pow;
    const tol = scaled * 1e-15;
    let k = -1;
    for (let t = 0; t < 2; t++) {
      const cand = t === 0 ? rounded : scaled > rounded ? rounded + 1 : rounded - 1;
      if (cand <= 0) continue;
      const d = cand - scaled;
      if (d > up + tol || -d > down + tol) continue;
      if (d < up - tol && -d < down - tol) {
        k = cand;
        break;
      }
      const c = s >= 0 ? cand / pow : cand * pow;
      if (s > 0 && (c === lo || c === hi)) continue;
      if (Math.fround(c) === a) {
        k = cand;
        break;
      }
    }
    if (phase === 0) {
      if (k < 0) phase = 1;
      else {
        best = k;
        bestP = 8;
        phase = 2;
      }
      p = k < 0 ? 9 : 7;
      continue;
    }
    if (phase === 1) {
      if (k < 0) return false;
      best = k;
      bestP = 9;
      break;
    }
    if (phase === 2) {
      if (k < 0) break;
      best = k;
      bestP = p;
      if (p === 7) {
        p = 6;
        continue;
      }
      phase = 3;
    } else if (k >= 0) {
      hiP = p;
      best = k;
    } else loP = p + 1;
    if (loP < hiP) {
      p = (loP + hiP) >> 1;
      continue;
    }
    bestP = loP;
    break;
  }
  found[0] = best;
  found[1] = bestP - 1 - e10;
  return true;
}

/** The fast path's tables, in the order core/wasm/float32-text.ts lays them out. */
export const FAST_PATH_TABLES = { E10_STEP, E10_LOW, SCALE, HALF_ULP, START_LEVEL, POW10, INV10 } as const;
