// AssemblyScript (compiled to WebAssembly by scripts/gen-float32-wasm.ts; not part of the
// TypeScript build). Float32 tensor text for the printer: the shortest digits of each value
// and their spelling, written straight into linear memory with the fill's line breaking.
// Printing a big float tensor spends most of its time here; the same loop in JavaScript
// took about twice as long (bounds checks, calls, byte-at-a-time stores).
//
// The decision tables are computed in JavaScript (core/src/numbers/float32-digits.ts) and
// copied into memory before `init`, so both sides use the same doubles; this code uses only IEEE basic
// operations on them, which give the same results in both. A value this fast path cannot
// decide with certainty goes back to JavaScript's exact search (the `slow` import).

// Table layout, set by the JavaScript side (float32-wasm.ts) before any call.
const E10_STEP: usize = 0; // f64[255]: first bit pattern of a binade whose log10 is one more
const E10_LOW: usize = E10_STEP + 255 * 8; // i32[255]: floor(log10) at a binade's start
const SCALE: usize = E10_LOW + 255 * 4; // f64[512]: factor to nine-digit units, by binade side
const HALF_ULP: usize = SCALE + 512 * 8; // f64[512]: half an ulp in those units
const START_LEVEL: usize = HALF_ULP + 512 * 8; // i32[512]: a level every interval reaches
const POW10: usize = START_LEVEL + 512 * 4; // f64[23]: 10^i
const INV10: usize = POW10 + 23 * 8; // f64[10]: 10^-i
const QUADS: usize = INV10 + 10 * 8; // u32[10000]: "0000".."9999" as four ASCII bytes
const TABLES_END: usize = QUADS + 10000 * 4;

/** The first byte JavaScript may use for its own data. */
export function tablesEnd(): usize {
  return TABLES_END;
}

/** A value's text for which the fast path has no answer, written by JavaScript at `at`. */
@external("env", "slow")
declare function slow(v: f64, at: usize): usize;

/** Fills QUADS (integers only, so it is built here). */
export function init(): void {
  for (let n: u32 = 0; n < 10000; n++) {
    const d0 = n / 1000;
    const d1 = (n / 100) % 10;
    const d2 = (n / 10) % 10;
    const d3 = n % 10;
    store<u32>(QUADS + (<usize>n << 2), (48 + d0) | ((48 + d1) << 8) | ((48 + d2) << 16) | ((48 + d3) << 24));
  }
}

// The result of `digits`: the value is digitsK * 10^-digitsScale; digitsCount is the digit
// count of digitsK when it is known to have no trailing zero, else 0.
let digitsK: u32 = 0;
let digitsScale: i32 = 0;
let digitsCount: i32 = 0;

export function resultK(): u32 {
  return digitsK;
}
export function resultScale(): i32 {
  return digitsScale;
}

/**
 * Shortest digits of |v| (a normal float32 value), or false when the exact search must
 * decide. One scaling to nine-digit units, where the rounding interval [lo, hi] spans 6 to
 * 120 units; the digits are the multiple of the largest power of ten inside the interval
 * that is nearest to the value. A decision within `tol` (far above the doubles' rounding
 * error) of an interval edge or a tie is left to the search.
 */
export function digits(v: f64): bool {
  const a = abs<f64>(v);
  const bits = reinterpret<u32>(<f32>a);
  const exp = bits >>> 23;
  if (exp == 0 || exp == 255) return false;
  const side: i32 = <f64>bits >= load<f64>(E10_STEP + (<usize>exp << 3)) ? 1 : 0;
  const e10 = load<i32>(E10_LOW + (<usize>exp << 2)) + side;
  const s9 = 8 - e10;
  if (s9 > 22 || e10 > 22) return false;
  const at = (<usize>exp << 1) + side;
  const scaled = a * load<f64>(SCALE + (at << 3));
  const halfUp = load<f64>(HALF_ULP + (at << 3));
  const halfDown = (bits & 0x7fffff) == 0 && exp > 1 ? halfUp / 2 : halfUp;
  const tol = scaled * 2e-15;
  const lo = scaled - halfDown;
  const hi = scaled + halfUp;
  // Multiples of 10^j are integers. Levels are found over the integers that may be inside
  // (ends widened by `tol`); the multiple finally taken must be inside with a margin of
  // `tol`, which also proves its level valid. Anything closer to an edge is the search's.
  const first = ceil<f64>(lo - tol);
  const last = floor<f64>(hi + tol);
  // Levels hold a multiple up to some level and none above it. The next three are tested
  // at once (no branch to mispredict per level); only round values go on from there.
  const start = load<i32>(START_LEVEL + (at << 2));
  let j = start + holds(start + 1, first, last) + holds(start + 2, first, last) + holds(start + 3, first, last);
  if (j == start + 3) while (j < 8 && holds(j + 1, first, last)) j++;
  const unit = load<f64>(POW10 + (<usize>j << 3));
  let k = floor<f64>(scaled * load<f64>(INV10 + (<usize>j << 3)) + 0.5);
  const off = scaled - k * unit; // > 0: the multiple is below the value
  if (unit / 2 - abs<f64>(off) < tol) return false;
  let m = k * unit;
  if (!(m > lo + tol && m < hi - tol)) {
    if (m >= lo - tol && m <= hi + tol) return false;
    // The nearest multiple is outside: the level's multiple is the one on the other side.
    k += off > 0 ? 1 : -1;
    m = k * unit;
    if (!(m > lo + tol && m < hi - tol)) return false;
  }
  digitsK = <u32>k;
  digitsScale = s9 - j;
  // Below eight dropped digits the multiple has no trailing zero (a coarser level would hold
  // it), so it has exactly nine minus the dropped digits.
  digitsCount = j < 8 ? 9 - j : 0;
  return true;
}

/**
 * 1 when a multiple of 10^j lies in [first, last] (integers): when the last multiple at or
 * below `last` is not below `first`. (Adding 0.5 keeps the inexact 10^-j product on the
 * right side of an integer.)
 */
@inline
function holds(j: i32, first: f64, last: f64): i32 {
  const at = <usize>j << 3;
  return <i32>(floor<f64>((last + 0.5) * load<f64>(INV10 + at)) * load<f64>(POW10 + at) >= first);
}

/** Writes the `count` digits of k (leading zeros included) ending just before `end`. */
function putDigits(end: usize, k: u32, count: i32): void {
  while (count >= 4) {
    const q = k / 10000;
    end -= 4;
    store<u32>(end, load<u32>(QUADS + (<usize>(k - q * 10000) << 2)));
    k = q;
    count -= 4;
  }
  // The last one to three digits are the tail of k's four-digit group.
  const quad = load<u32>(QUADS + (<usize>k << 2));
  for (let d = 1; d <= count; d++) store<u8>(end - d, <u8>(quad >>> (32 - 8 * d)));
}

/**
 * Writes the `count` digits of k (no trailing zero), the first at decimal exponent `exp`,
 * spelled as JavaScript spells numbers: plain decimals, exponent form from 1e21 and below
 * 1e-6. Returns the end.
 */
function spell(p: usize, k: u32, count: i32, exp: i32, negative: bool): usize {
  // Signs are random in weights: a store and an add, not a branch.
  store<u8>(p, 45);
  p += <usize>negative;
  if (exp >= 0 && exp < count - 1) {
    // The usual case: the digits go one byte right, then the integer part moves back over
    // the gap and the point goes after it.
    putDigits(p + <usize>count + 1, k, count);
    for (let t: usize = 0; t <= <usize>exp; t++) store<u8>(p + t, load<u8>(p + t + 1));
    store<u8>(p + <usize>exp + 1, 46);
    return p + <usize>count + 1;
  }
  if (exp >= 21 || exp < -6) {
    const lead = k / <u32>pow10(count - 1);
    store<u8>(p++, <u8>(48 + lead));
    if (count > 1) {
      store<u8>(p++, 46);
      putDigits(p + <usize>count - 1, k - lead * <u32>pow10(count - 1), count - 1);
      p += <usize>count - 1;
    }
    store<u8>(p++, 101);
    store<u8>(p++, exp >= 0 ? 43 : 45);
    const e = <u32>abs<i32>(exp);
    if (e >= 10) store<u8>(p++, <u8>(48 + e / 10));
    store<u8>(p++, <u8>(48 + (e % 10)));
    return p;
  }
  if (exp < 0) {
    store<u8>(p++, 48);
    store<u8>(p++, 46);
    for (let z = 0; z < -exp - 1; z++) store<u8>(p++, 48);
    putDigits(p + <usize>count, k, count);
    return p + <usize>count;
  }
  putDigits(p + <usize>count, k, count);
  p += <usize>count;
  for (let z = 0; z < exp + 1 - count; z++) store<u8>(p++, 48);
  return p;
}

function pow10(n: i32): f64 {
  return load<f64>(POW10 + (<usize>n << 3));
}

/** Writes k * 10^-scale (k > 0, trailing zeros allowed) at `p`; returns the end. */
export function spellScaled(p: usize, k: u32, scale: i32, negative: bool): usize {
  while (k >= 10 && k % 10 == 0) {
    k /= 10;
    scale--;
  }
  let count = 1;
  while (count < 10 && <f64>k >= pow10(count)) count++;
  return spell(p, k, count, count - 1 - scale, negative);
}

/**
 * Writes the text of the float32 value v at `p` (p > 0) and returns the end, or returns 0
 * when JavaScript must spell it.
 */
export function format(v: f64, p: usize): usize {
  if (v == 0) {
    if (reinterpret<u64>(v) >> 63) {
      store<u32>(p, 0x302e302d); // "-0.0"
      return p + 4;
    }
    store<u8>(p, 48);
    return p + 1;
  }
  if (v == Infinity) {
    store<u32>(p, 0x00666e69); // "inf"
    return p + 3;
  }
  if (v == -Infinity) {
    store<u32>(p, 0x666e692d); // "-inf"
    return p + 4;
  }
  if (!digits(v)) return 0;
  if (digitsCount == 0) return spellScaled(p, digitsK, digitsScale, v < 0);
  return spell(p, digitsK, digitsCount, digitsCount - 1 - digitsScale, v < 0);
}

/** A fill item: format, or the slow import for what needs JavaScript. */
@inline
function item(v: f64, p: usize): usize {
  const end = format(v, p);
  return end ? end : slow(v, p);
}

let fillColumn: i32 = 0;

/** The column after the last `fill`. */
export function column(): i32 {
  return fillColumn;
}

/**
 * Writes items [from, to) of a fill of `total` float32 values as text at `out`; `values`
 * holds the f64 values of those items. Items are separated by the byte `sep` and a space;
 * an item that would pass `width` starts a new line instead: the separator becomes the
 * `breakLen` bytes at `lineBreak` (separator, newline, indentation), and the column restarts
 * at `indentWidth`. `col` is the column where item `from` (or its separator) starts.
 * Returns the end; `column()` gives the column there.
 */
export function fill(values: usize, from: i32, to: i32, total: i32, out: usize, col: i32, width: i32, indentWidth: i32, lineBreak: usize, breakLen: i32, sep: u8): usize {
  let p = out;
  let i = from;
  if (i == 0 && to > 0) {
    p = item(load<f64>(values), out);
    col += <i32>(p - out);
    i = 1;
  }
  const shift = <usize>(breakLen - 2);
  for (; i < to; i++) {
    const sepStart = p;
    store<u8>(p, sep);
    store<u8>(p + 1, 32);
    const itemStart = p + 2;
    p = item(load<f64>(values + (<usize>(i - from) << 3)), itemStart);
    const len = <i32>(p - itemStart);
    const needed = len + (i < total - 1 ? 1 : 0);
    if (col + 2 + needed > width) {
      memory.copy(itemStart + shift, itemStart, <usize>len);
      memory.copy(sepStart, lineBreak, <usize>breakLen);
      p = sepStart + <usize>breakLen + <usize>len;
      col = indentWidth + len;
    } else col += 2 + len;
  }
  fillColumn = col;
  return p;
}
