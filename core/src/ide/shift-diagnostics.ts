// Carries diagnostics of an older text across edits: spans after an edit move with it, spans
// an edit touches are dropped. Lets the server show last known semantic problems at once
// while the full analysis of the new text is still running.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";

/** One replacement, in offsets of the text it was applied to. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly newLength: number;
}

export function shiftDiagnostics(diags: readonly Diagnostic[], changes: readonly TextChange[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  outer: for (const d of diags) {
    if (!d.span) continue;
    let { start, end } = d.span;
    for (const c of changes) {
      if (end < c.start) continue;
      if (start > c.end) {
        const delta = c.newLength - (c.end - c.start);
        start += delta;
        end += delta;
        continue;
      }
      continue outer;
    }
    out.push({ ...d, span: { start, end } });
  }
  return out;
}
