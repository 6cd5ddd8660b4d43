// Diagnostics as CLI lines: `FILE:LINE:COL: error: MESSAGE [code]` for text input (1-based line
// and UTF-16 column), `FILE: error: WHERE: MESSAGE [code]` for binary input.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import { FileError } from "./files.js";

export function diagnosticLines(file: string, text: string | undefined, diagnostics: readonly Diagnostic[]): string {
  const index = text === undefined ? undefined : new LineIndex(text);
  let out = "";
  for (const d of diagnostics) {
    const where = d.span && index ? `:${index.lineCol(d.span.start)}` : "";
    const context = !where && d.where ? `${d.where}: ` : "";
    out += `${file}${where}: ${d.severity}: ${context}${oneLine(d.message)} [${d.code}]
`;
  }
  return out;
}

/** Messages quote the user's text, which may hold line breaks; one diagnostic stays one line. */
function oneLine(message: string): string {
  return message.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n");
}

/** The input file has errors (exit code 1); `report` holds one line per diagnostic. */
export class InputError extends FileError {
  constructor(
    file: string,
    readonly report: string,
  ) {
    super(file, "the input has errors");
  }
}
