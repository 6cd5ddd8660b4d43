// Which quick fixes answer a diagnostic the user is shown. The configuration and inline
// suppressions drop some diagnostics (and may copy others with a new severity); a fix of a
// dropped one is not offered in the editor, nor applied by `check --fix`.
import { overlaps, type Span } from "../../../grammar/src/span.js";
import type { Diagnostic } from "../diagnostics.js";

export interface FixAnswers {
  /** The diagnostic a fix answers: the first at exactly its span, else the first overlapping it. */
  answered(fixes: Span): Diagnostic | undefined;
  /** Whether that diagnostic is among the reported ones, matched by code and place (true when all are). */
  isReported(fixes: Span): boolean;
}

/** How fixes meet `diagnostics`, of which `reported` (all when left out) are shown to the user. */
export function fixAnswers(diagnostics: readonly Diagnostic[], reported?: readonly Diagnostic[]): FixAnswers {
  const atSpan = new Map<string, Diagnostic>();
  for (const d of diagnostics) if (d.span && !atSpan.has(`${d.span.start}-${d.span.end}`)) atSpan.set(`${d.span.start}-${d.span.end}`, d);
  const answered = (fixes: Span): Diagnostic | undefined =>
    atSpan.get(`${fixes.start}-${fixes.end}`) ?? diagnostics.find((x) => x.span && overlaps(x.span, fixes));
  const key = (d: Diagnostic): string => `${d.code}@${d.span?.start}-${d.span?.end}`;
  const shown = reported && new Set(reported.map(key));
  return {
    answered,
    isReported: (fixes: Span): boolean => {
      if (!shown) return true;
      const d = answered(fixes);
      return d !== undefined && shown.has(key(d));
    },
  };
}
