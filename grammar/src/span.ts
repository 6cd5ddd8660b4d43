// Source positions. Every range in the project is a half-open [start, end) pair of UTF-16
// offsets into the document text; line and column come from a LineIndex when needed.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export function span(start: number, end: number): Span {
  return { start, end };
}

export function covers(outer: Span, offset: number): boolean {
  return outer.start <= offset && offset <= outer.end;
}
