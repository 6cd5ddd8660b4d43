// Diagnostics as one line each, the form the CLI prints and the editor shows for a failed
// conversion: `FILE:LINE:COL: error: MESSAGE [code]` for text input (1-based line and UTF-16
// column), `FILE: error: WHERE: MESSAGE [code]` when there is no position (binary input). A
// related place follows on a line of its own, as compilers print it: `FILE:LINE:COL: note: ...`.
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";

/** One diagnostic as one line (no newline); `lines` indexes the text the spans point into. */
export function diagnosticLine(file: string, lines: LineIndex | undefined, d: Diagnostic): string {
  const where = d.span && lines ? `:${lines.lineCol(d.span.start)}` : "";
  const context = !where && d.where ? `${d.where}: ` : "";
  return `${file}${where}: ${d.severity}: ${context}${oneLine(d.message)} [${d.code}]`;
}

/** Every diagnostic as a line, each ending in a newline. */
export function diagnosticLines(file: string, text: string | undefined, diagnostics: readonly Diagnostic[]): string {
  const lines = text === undefined ? undefined : new LineIndex(text);
  let out = "";
  for (const d of diagnostics) {
    out += `${diagnosticLine(file, lines, d)}\n`;
    if (lines) for (const r of d.related ?? []) out += `${file}:${lines.lineCol(r.span.start)}: note: ${oneLine(r.message)}\n`;
  }
  return out;
}

/** Messages quote the user's text, which may hold line breaks; one diagnostic stays one line. */
function oneLine(message: string): string {
  return message.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n");
}
