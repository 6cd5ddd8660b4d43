// Inline suppressions: `# onnxtxt: ignore[code, ...]` at the end of a line silences those codes on
// that line; on a line of its own, on the next line that is not a comment; and
// `# onnxtxt: file-ignore[code, ...]` silences them in the whole file. A suppression that silences
// nothing, or names no known code, is itself reported as a warning.
import type { Diagnostic } from "../diagnostics.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import { isRuleCode } from "./config.js";

const DIRECTIVE = /#\s*onnxtxt:\s*(ignore|file-ignore)\[([^\]\n]*)\]/g;

interface Suppression {
  readonly code: string;
  readonly start: number;
  readonly end: number;
  /** The 0-based line it covers; undefined for the whole file. */
  readonly line: number | undefined;
  used: boolean;
}

/** Is offset `at` of `line` outside a "string" (so a `#` there begins a comment)? */
function outsideString(line: string, at: number): boolean {
  let quotes = 0;
  for (let i = 0; i < at; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === '"') quotes++;
    else if (line[i] === "#" && quotes % 2 === 0) return false; // already in an earlier comment
  }
  return quotes % 2 === 0;
}

function findSuppressions(text: string, lines: LineIndex): Suppression[] {
  const out: Suppression[] = [];
  for (const m of text.matchAll(DIRECTIVE)) {
    const at = m.index;
    const pos = lines.position(at);
    const lineStart = at - pos.character;
    const lineText = text.slice(lineStart, at);
    if (!outsideString(lineText, lineText.length)) continue;
    let line: number | undefined = pos.line;
    if (m[1] === "file-ignore") line = undefined;
    else if (lineText.trim() === "") {
      // on a line of its own: the next line that holds something other than a comment
      let next = pos.line + 1;
      while (next < lines.lineCount) {
        const s = text.slice(lines.offset({ line: next, character: 0 }), lines.offset({ line: next, character: Number.MAX_SAFE_INTEGER })).trim();
        if (s !== "" && !s.startsWith("#")) break;
        next++;
      }
      line = next;
    }
    const listStart = at + m[0].indexOf("[") + 1;
    let offset = listStart;
    for (const part of m[2]!.split(",")) {
      const code = part.trim();
      const start = offset + part.indexOf(code);
      offset += part.length + 1;
      if (code !== "") out.push({ code, start, end: start + code.length, line, used: false });
    }
  }
  return out;
}

/**
 * Drops the diagnostics a suppression in `text` silences and adds a warning for each
 * suppression that silences nothing (`unused-suppression`) or names an unknown code
 * (`unknown-suppression-code`).
 */
export function applySuppressions(text: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (!text.includes("onnxtxt:")) return [...diagnostics];
  const lines = new LineIndex(text);
  const suppressions = findSuppressions(text, lines);
  if (suppressions.length === 0) return [...diagnostics];
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    const first = d.span ? lines.position(d.span.start).line : undefined;
    const last = d.span ? lines.position(Math.max(d.span.start, d.span.end - 1)).line : undefined;
    const by = suppressions.filter(
      (s) => s.code === d.code && (s.line === undefined || (first !== undefined && last !== undefined && first <= s.line && s.line <= last)),
    );
    for (const s of by) s.used = true;
    if (by.length === 0) kept.push(d);
  }
  for (const s of suppressions) {
    const span = { start: s.start, end: s.end };
    if (!isRuleCode(s.code))
      kept.push({ severity: "warning", code: "unknown-suppression-code", message: `'${s.code}' is not a rule code; this suppression silences nothing`, span });
    else if (!s.used)
      kept.push({
        severity: "warning",
        code: "unused-suppression",
        message:
          s.line === undefined
            ? `unused suppression: nothing in this file reports '${s.code}'`
            : `unused suppression: nothing on line ${s.line + 1} reports '${s.code}'`,
        span,
      });
  }
  return kept;
}
