// What every stage must guarantee for any input: diagnostics are well formed and located.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";

/** Problems with a list of diagnostics for a text of `length` UTF-16 units; empty when fine. */
export function textDiagnosticProblems(diagnostics: readonly Diagnostic[], length: number): string[] {
  const problems: string[] = [];
  for (const d of diagnostics) {
    const label = `[${d.code}] ${d.message}`;
    if (!d.message || !d.code) problems.push(`diagnostic without message or code: ${JSON.stringify(d)}`);
    if (/[\r\n]/.test(d.message)) problems.push(`message on more than one line: ${JSON.stringify(d.message)}`);
    if (d.code === "internal") problems.push(`internal error reported: ${label}`);
    if (!d.span) problems.push(`diagnostic without a location: ${label}`);
    else if (!(d.span.start >= 0 && d.span.start <= d.span.end && d.span.end <= length)) {
      problems.push(`diagnostic span [${d.span.start}, ${d.span.end}) outside the text (${length}): ${label}`);
    }
  }
  return problems;
}

/** For binary input a diagnostic is located by `where` (a path in the model) or a span. */
export function binaryDiagnosticProblems(diagnostics: readonly Diagnostic[]): string[] {
  const problems: string[] = [];
  for (const d of diagnostics) {
    if (!d.message || !d.code) problems.push(`diagnostic without message or code: ${JSON.stringify(d)}`);
    if (d.code === "internal") problems.push(`internal error reported: [${d.code}] ${d.message}`);
    if (!d.where && !d.span) problems.push(`diagnostic without a location: [${d.code}] ${d.message}`);
  }
  return problems;
}
