// Source positions. Every range in the project is a half-open [start, end) pair of UTF-16
// offsets into the document text; line and column come from a LineIndex when needed.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export function span(start: number, end: number): Span {
  return { start, end };
}

/**
 * A copy of `s`, for results kept beyond the text they describe: an incremental analysis moves
 * the spans of the tree it takes over in place, and a kept result must not move with them.
 */
export function copySpan(s: Span): Span {
  return { start: s.start, end: s.end };
}

/** Whether two spans share a character (as half-open ranges: spans that only meet do not). */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

export function covers(outer: Span, offset: number): boolean {
  return outer.start <= offset && offset <= outer.end;
}
