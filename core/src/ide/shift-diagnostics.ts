// Carries diagnostics of an older text across edits: spans after an edit move with it, spans
// an edit touches are dropped. Lets the server show last known semantic problems at once
// while the full analysis of the new text is still running.
import type { Diagnostic, RelatedSpan } from "../../../grammar/src/diagnostics.js";
import type { Span } from "../../../grammar/src/span.js";

/** One replacement, in offsets of the text it was applied to. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly newLength: number;
}

export function shiftDiagnostics(diags: readonly Diagnostic[], changes: readonly TextChange[]): Diagnostic[] {
  const move = (span: Span): Span | undefined => {
    let { start, end } = span;
    for (const c of changes) {
      if (end < c.start) continue;
      if (start > c.end) {
        const delta = c.newLength - (c.end - c.start);
        start += delta;
        end += delta;
        continue;
      }
      return undefined;
    }
    return { start, end };
  };
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const moved = d.span && movedDiagnostic(d, d.span, move);
    if (moved) out.push(moved);
  }
  return out;
}

/**
 * `d` with its span and related spans moved by `move`; undefined when `move` drops any of them
 * (an edit there may have settled the problem).
 */
export function movedDiagnostic(d: Diagnostic, span: Span, move: (s: Span) => Span | undefined): Diagnostic | undefined {
  const at = move(span);
  if (!at) return undefined;
  if (!d.related) return { ...d, span: at };
  const related: RelatedSpan[] = [];
  for (const r of d.related) {
    const moved = move(r.span);
    if (!moved) return undefined;
    related.push({ message: r.message, span: moved });
  }
  return { ...d, span: at, related };
}
