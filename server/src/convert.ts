// LSP positions and ranges <-> the offsets core/ide works in. The only place that knows both.
import type { Diagnostic as LspDiagnostic, Position, Range } from "vscode-languageserver/node";
import { DiagnosticSeverity } from "vscode-languageserver/node";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import type { LineIndex } from "../../grammar/src/line-index.js";
import type { Span } from "../../grammar/src/span.js";
import { TOKEN_MODIFIERS, TOKEN_TYPES, type SemanticToken } from "../../core/src/ide/semantic-tokens.js";

export function toRange(lines: LineIndex, span: Span): Range {
  return { start: lines.position(span.start), end: lines.position(span.end) };
}

export function toOffset(lines: LineIndex, pos: Position): number {
  return lines.offset(pos);
}

export function toSpan(lines: LineIndex, range: Range): Span {
  return { start: lines.offset(range.start), end: lines.offset(range.end) };
}

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

export function toLspDiagnostic(lines: LineIndex, d: Diagnostic): LspDiagnostic {
  const span = d.span ?? { start: 0, end: 0 };
  return {
    range: toRange(lines, span),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: "onnxtxt",
    message: d.where ? `${d.message} (${d.where})` : d.message,
  };
}

const TYPE_INDEX = new Map<string, number>(TOKEN_TYPES.map((t, i) => [t, i]));
const MODIFIER_BIT = new Map<string, number>(TOKEN_MODIFIERS.map((m, i) => [m, 1 << i]));

/** LSP's relative encoding: per token, line delta, start delta, length, type, modifier bits. */
export function encodeSemanticTokens(lines: LineIndex, tokens: readonly SemanticToken[], text: string): number[] {
  // Sized once and filled in place: a 50k-node document has about 200k tokens.
  const data = new Array<number>(tokens.length * 5);
  let n = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of tokens) {
    if (spansLines(text, t)) continue; // tokens cannot span lines
    // Tokens come in text order: each line is found from the previous one.
    const start = lines.positionFrom(t.start, prevLine);
    const deltaLine = start.line - prevLine;
    let modifiers = 0;
    for (const m of t.modifiers) modifiers |= MODIFIER_BIT.get(m)!;
    data[n++] = deltaLine;
    data[n++] = deltaLine === 0 ? start.character - prevChar : start.character;
    data[n++] = t.length;
    data[n++] = TYPE_INDEX.get(t.type)!;
    data[n++] = modifiers;
    prevLine = start.line;
    prevChar = start.character;
  }
  data.length = n;
  return data;
}

function spansLines(text: string, t: SemanticToken): boolean {
  for (let i = t.start; i < t.start + t.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}
