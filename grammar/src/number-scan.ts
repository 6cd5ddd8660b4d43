// Hand-written number scanning (charCodeAt loops, no regex): the single-number token and the
// packed `{1, 2, ...}` list token both use it, so they accept exactly the same literals.

const enum C {
  Minus = 45,
  Plus = 43,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  LowerE = 101,
  UpperE = 69,
  A = 65,
  Z = 90,
  a = 97,
  z = 122,
  Underscore = 95,
}

export function isDigit(c: number): boolean {
  return c >= C.Zero && c <= C.Nine;
}

export function isLetter(c: number): boolean {
  return (c >= C.a && c <= C.z) || (c >= C.A && c <= C.Z);
}

export function isIdentChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === C.Underscore;
}

/** Result flags of scanNumber, packed in the sign of the return: see scanNumber. */
interface NumberScan {
  end: number;
  /** Has a `.`, an exponent, or is a word form. */
  isFloat: boolean;
}

const scratch: NumberScan = { end: -1, isFloat: false };

/**
 * Scans a number literal at `i` (syntax doc §1.5): `-`? then digits with at most one `.` and an
 * optional exponent, or a word form inf/infinity/nan (any case) not followed by an identifier
 * character. Returns a shared scratch object (end = -1 when there is no literal).
 */
export function scanNumber(text: string, i: number): NumberScan {
  const n = text.length;
  let p = i;
  scratch.end = -1;
  scratch.isFloat = false;
  if (p < n && text.charCodeAt(p) === C.Minus) p++;
  if (p >= n) return scratch;
  let c = text.charCodeAt(p);
  if (isDigit(c)) {
    p++;
    while (p < n && isDigit(text.charCodeAt(p))) p++;
    let isFloat = false;
    if (p < n && text.charCodeAt(p) === C.Dot) {
      isFloat = true;
      p++;
      while (p < n && isDigit(text.charCodeAt(p))) p++;
    }
    if (p < n) {
      c = text.charCodeAt(p);
      if (c === C.LowerE || c === C.UpperE) {
        let q = p + 1;
        const s = text.charCodeAt(q);
        if (s === C.Plus || s === C.Minus) q++;
        if (q < n && isDigit(text.charCodeAt(q))) {
          q++;
          while (q < n && isDigit(text.charCodeAt(q))) q++;
          p = q;
          isFloat = true;
        }
      }
    }
    scratch.end = p;
    scratch.isFloat = isFloat;
    return scratch;
  }
  if (!isLetter(c)) return scratch;
  let q = p;
  while (q < n && isLetter(text.charCodeAt(q))) q++;
  if (q < n && isIdentChar(text.charCodeAt(q))) return scratch;
  const len = q - p;
  if (len !== 3 && len !== 8) return scratch;
  const word = text.slice(p, q).toLowerCase();
  if (word === "inf" || word === "nan" || word === "infinity") {
    scratch.end = q;
    scratch.isFloat = true;
  }
  return scratch;
}

/** The double value of a scanned literal (word forms included). */
export function numberValue(literal: string): number {
  const c = literal.charCodeAt(literal.charCodeAt(0) === C.Minus ? 1 : 0);
  if (isDigit(c)) return Number(literal);
  const neg = literal.charCodeAt(0) === C.Minus;
  const w = literal.slice(neg ? 1 : 0).toLowerCase();
  if (w === "nan") return NaN;
  return neg ? -Infinity : Infinity;
}

/** A blank between tokens: space, tab, line feed, vertical tab, form feed, carriage return. */
export function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

export interface PackedPayload {
  readonly values: Float64Array;
  readonly allIntegers: boolean;
}

/**
 * Matches `{ n, n, ... }` with only numbers, commas and blanks inside (at least one number).
 * Returns the end offset and the values, or undefined so that the ordinary `{` path takes over
 * (strings, comments, identifiers, `{}`, a node block, a malformed list). Plain decimal literals
 * are scanned and valued in one pass; anything else goes through scanNumber.
 */
export function scanPackedList(text: string, start: number): { end: number; payload: PackedPayload } | undefined {
  let p = start + 1;
  let values = new Float64Array(64);
  let count = 0;
  let allIntegers = true;
  for (;;) {
    let c = text.charCodeAt(p);
    while (c === 32 || (c >= 9 && c <= 13)) c = text.charCodeAt(++p);
    if (count === values.length) {
      const grown = new Float64Array(count * 2);
      grown.set(values);
      values = grown;
    }
    // Fast path: -?digits(.digits)? with a mantissa below 2^53 and at most 22 fraction digits.
    const first = p;
    const neg = c === C.Minus;
    if (neg) c = text.charCodeAt(++p);
    let m = 0;
    let scale = 0;
    let ok = isDigit(c);
    while (isDigit(c)) {
      m = m * 10 + (c - C.Zero);
      c = text.charCodeAt(++p);
    }
    if (c === C.Dot && ok) {
      allIntegers = false;
      c = text.charCodeAt(++p);
      while (isDigit(c)) {
        m = m * 10 + (c - C.Zero);
        scale++;
        c = text.charCodeAt(++p);
      }
    }
    if (ok && (c === C.LowerE || c === C.UpperE || isIdentChar(c) || m > 9007199254740991 || scale > 22)) ok = false;
    if (ok) {
      const v = scale === 0 ? m : m / POW10[scale]!;
      values[count++] = neg ? -v : v;
    } else {
      const s = scanNumber(text, first);
      if (s.end < 0) return undefined;
      if (s.isFloat) allIntegers = false;
      values[count++] = fastValue(text, first, s.end);
      p = s.end;
      c = text.charCodeAt(p);
    }
    while (c === 32 || (c >= 9 && c <= 13)) c = text.charCodeAt(++p);
    if (c === 44 /* , */) {
      p++;
      continue;
    }
    if (c === 125 /* } */) break;
    return undefined;
  }
  return { end: p + 1, payload: { values: values.subarray(0, count), allIntegers } };
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * The double value of the literal text[start, end). Digits are accumulated in place; when the
 * mantissa is below 2^53 and the power of ten at most 22, one multiplication or division of two
 * exact doubles is correctly rounded (Clinger's fast path). Otherwise Number() decides.
 */
function fastValue(text: string, start: number, end: number): number {
  let p = start;
  const neg = text.charCodeAt(p) === C.Minus;
  if (neg) p++;
  let c = text.charCodeAt(p);
  if (!isDigit(c)) return numberValue(text.slice(start, end));
  let m = 0;
  let digits = 0;
  let scale = 0;
  let seenDot = false;
  for (; p < end; p++) {
    c = text.charCodeAt(p);
    if (isDigit(c)) {
      m = m * 10 + (c - C.Zero);
      if (m !== 0) digits++;
      if (seenDot) scale--;
    } else if (c === C.Dot) {
      seenDot = true;
    } else break;
  }
  if (p < end) {
    // An exponent follows.
    p++;
    let eneg = false;
    c = text.charCodeAt(p);
    if (c === C.Minus || c === C.Plus) {
      eneg = c === C.Minus;
      p++;
    }
    let e = 0;
    for (; p < end && e < 10000; p++) e = e * 10 + (text.charCodeAt(p) - C.Zero);
    scale += eneg ? -e : e;
  }
  if (digits > 15 || m > 9007199254740991 || scale > 22 || scale < -22) return numberValue(text.slice(start, end));
  const v = scale < 0 ? m / POW10[-scale]! : m * POW10[scale]!;
  return neg ? -v : v;
}
