// Diagnostics for a person at a terminal, as rustc and `tsc --pretty` show them: the one-line
// `FILE:LINE:COL: error: MESSAGE [code]` (unchanged, so it stays machine-readable), then the
// source line with a caret under the span, colour when asked, and at most `maxErrors` shown with
// a "N more" line. With no options it is exactly `diagnosticLines`. Browser-safe: no Node APIs.
import type { Diagnostic, Severity } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import { diagnosticLine } from "./diagnostic-lines.js";

export interface FormatDiagnosticsOptions {
  /** The name shown before each position. */
  readonly file: string;
  /** The text the spans point into; without it no source lines are shown. */
  readonly text?: string;
  /** ANSI colours (bold red errors, yellow warnings, cyan notes). */
  readonly color?: boolean;
  /** Show the source line with a caret under each span. */
  readonly source?: boolean;
  /** Show at most this many diagnostics, then a line saying how many more there are. */
  readonly maxErrors?: number;
  /** Applied to the user's text (messages, source lines) before colour is added, e.g. to escape control characters. */
  readonly sanitize?: (text: string) => string;
}

const RESET = "\x1b[0m";
const BOLD = "\x1b[1m";
const SEVERITY_COLOR: Readonly<Record<Severity | "note", string>> = {
  error: "\x1b[1;31m",
  warning: "\x1b[1;33m",
  info: "\x1b[1;36m",
  hint: "\x1b[1;36m",
  note: "\x1b[1;36m",
};
const GUTTER = "\x1b[1;34m";

/** Every diagnostic formatted for reading; each line ends in a newline. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatDiagnosticsOptions): string {
  const { file, text, color = false, source = false, maxErrors, sanitize = (t: string) => t } = options;
  const lines = text === undefined ? undefined : new LineIndex(text);
  const paint = (style: string, s: string) => (color ? `${style}${s}${RESET}` : s);
  const shown = maxErrors === undefined ? diagnostics : diagnostics.slice(0, Math.max(0, maxErrors));
  let out = "";
  for (const d of shown) {
    out += `${colorLine(sanitize(diagnosticLine(file, lines, d)), d.severity, paint)}\n`;
    if (source && lines && text !== undefined && d.span)
      out += sourceExcerpt(text, lines, d.span.start, d.span.end, SEVERITY_COLOR[d.severity], paint, sanitize);
    if (lines)
      for (const r of d.related ?? []) {
        out += `${colorLine(sanitize(`${file}:${lines.lineCol(r.span.start)}: note: ${r.message.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n")}`), "note", paint)}\n`;
        if (source && text !== undefined) out += sourceExcerpt(text, lines, r.span.start, r.span.end, SEVERITY_COLOR.note, paint, sanitize);
      }
  }
  const more = diagnostics.length - shown.length;
  if (more > 0) out += `${paint(BOLD, `... and ${more} more diagnostic${more === 1 ? "" : "s"}`)} (use --max-errors to see more)\n`;
  return out;
}

/** Colours the `error:` word and the message of one line made by `diagnosticLine`. */
function colorLine(line: string, severity: Severity | "note", paint: (style: string, s: string) => string): string {
  const marker = `: ${severity}: `;
  const at = line.indexOf(marker);
  if (at < 0) return line;
  return `${paint(BOLD, line.slice(0, at + 1))} ${paint(SEVERITY_COLOR[severity], `${severity}:`)} ${paint(BOLD, line.slice(at + marker.length))}`;
}

/** The line a span starts on, with a gutter, and carets under the span (to the line's end at most). */
function sourceExcerpt(
  text: string,
  lines: LineIndex,
  start: number,
  end: number,
  style: string,
  paint: (style: string, s: string) => string,
  sanitize: (text: string) => string,
): string {
  const pos = lines.position(start);
  const lineStart = start - pos.character;
  let lineEnd = text.slice(lineStart).search(/\r\n|[\r\n]/);
  lineEnd = lineEnd < 0 ? text.length : lineStart + lineEnd;
  const lineText = sanitize(text.slice(lineStart, lineEnd).replace(/\t/g, " "));
  const number = String(pos.line + 1);
  const pad = " ".repeat(number.length);
  const width = Math.max(1, Math.min(end, lineEnd) - start);
  return (
    `${paint(GUTTER, `${pad} |`)}\n` +
    `${paint(GUTTER, `${number} |`)} ${lineText}\n` +
    `${paint(GUTTER, `${pad} |`)} ${" ".repeat(pos.character)}${paint(style, "^".repeat(width))}\n`
  );
}
