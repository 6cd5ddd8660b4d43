// LSP positions and ranges <-> the offsets core/ide works in. The only place that knows both.
import type { Diagnostic as LspDiagnostic, Position, Range } from "vscode-languageserver";
import { DiagnosticSeverity } from "vscode-languageserver";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import type { LineIndex } from "../../grammar/src/line-index.js";
import type { Span } from "../../grammar/src/span.js";
import { TOKEN_MODIFIERS, TOKEN_TYPES, type SemanticToken } from "../../core/src/ide/semantic-tokens.js";
import type { Spliced } from "../../core/src/ide/text-change.js";
import { ruleUrl } from "../../core/src/check/rule-docs.js";
import { finish } from "../../grammar/src/steps.js";

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

/**
 * `related`: whether the client shows relatedInformation (a client that does not sees the
 * related places named in the message instead).
 */
export function toLspDiagnostic(lines: LineIndex, d: Diagnostic, uri: string, related: boolean): LspDiagnostic {
  const span = d.span ?? { start: 0, end: 0 };
  const message = d.where ? `${d.message} (${d.where})` : d.message;
  const others = d.related ?? [];
  const href = ruleUrl(d.code);
  return {
    range: toRange(lines, span),
    severity: SEVERITY[d.severity],
    code: d.code,
    ...(href && { codeDescription: { href } }),
    source: "onnxtxt",
    message: related ? message : [message, ...others.map((r) => `line ${lines.position(r.span.start).line + 1}: ${r.message}`)].join("; "),
    ...(related && others.length > 0 && { relatedInformation: others.map((r) => ({ location: { uri, range: toRange(lines, r.span) }, message: r.message })) }),
  };
}

const TYPE_INDEX = new Map<string, number>(TOKEN_TYPES.map((t, i) => [t, i]));
const MODIFIER_BIT = new Map<string, number>(TOKEN_MODIFIERS.map((m, i) => [m, 1 << i]));

/**
 * LSP's relative encoding: per token, line delta, start delta, length, type, modifier bits. A
 * typed array: a 50k-node document has about 200k tokens, and an edit copies the encoding.
 */
export function encodeSemanticTokens(lines: LineIndex, tokens: readonly SemanticToken[], text: string): Uint32Array {
  return finish(encodeSemanticTokenSteps(lines, tokens, text));
}

/** How many tokens are encoded, or numbers copied, between pauses. */
const ENCODE_STEP = 4096;
const COPY_STEP = 65536;

/** encodeSemanticTokens in steps (see server/src/slices.ts). */
export function* encodeSemanticTokenSteps(lines: LineIndex, tokens: readonly SemanticToken[], text: string): Generator<void, Uint32Array, void> {
  const data = new Uint32Array(tokens.length * 5);
  const prev = { line: 0, character: 0 };
  let n = 0;
  for (let from = 0; from < tokens.length; from += ENCODE_STEP) {
    if (from > 0) yield;
    n = encodeInto(data, n, lines, tokens, from, Math.min(tokens.length, from + ENCODE_STEP), prev, text);
  }
  return data.subarray(0, n);
}

/**
 * The numbers of `data` in a plain array (what a JSON response carries), copied in steps.
 * Pushed, not stored into `new Array(length)`: V8 makes a long preallocated array a
 * dictionary, which JSON.stringify writes 3-5 times slower (35-60 ms for 1.9M numbers).
 */
export function* numberArraySteps(data: Uint32Array): Generator<void, number[], void> {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    if (i % COPY_STEP === COPY_STEP - 1) yield;
    out.push(data[i]!);
  }
  return out;
}

/**
 * Encodes tokens[from, to) into `data` at `n`, the first relative to `prev` (left at the last
 * one encoded); returns the end. Tokens cannot span lines: those that do are left out.
 */
function encodeInto(
  data: Uint32Array,
  n: number,
  lines: LineIndex,
  tokens: readonly SemanticToken[],
  from: number,
  to: number,
  prev: Position,
  text: string,
): number {
  let prevLine = prev.line;
  let prevChar = prev.character;
  for (let k = from; k < to; k++) {
    const t = tokens[k]!;
    if (spansLines(text, t)) continue;
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
  prev.line = prevLine;
  prev.character = prevChar;
  return n;
}

/**
 * The encoding of `spliced.items` from `old`, the encoding of the tokens they were spliced
 * from (five numbers for each, none left out): each token is encoded relative to the one
 * before, so only the fresh ones and the first after them change. Undefined when `old` left a
 * token out or a fresh one spans lines (encode all then).
 */
export function spliceEncodedTokens(old: Uint32Array, lines: LineIndex, spliced: Spliced<SemanticToken>, text: string): Uint32Array | undefined {
  const { items, from, to, fresh } = spliced;
  const oldCount = old.length / 5;
  if (oldCount !== items.length - fresh + (to - from)) return undefined;
  const reencodeEnd = Math.min(items.length, from + fresh + 1);
  const prev = from > 0 ? { ...lines.position(items[from - 1]!.start) } : { line: 0, character: 0 };
  const data = new Uint32Array(items.length * 5);
  data.set(old.subarray(0, from * 5));
  const n = encodeInto(data, from * 5, lines, items, from, reencodeEnd, prev, text);
  if (n !== reencodeEnd * 5) return undefined;
  if (to + 1 < oldCount) data.set(old.subarray((to + 1) * 5), n);
  return data;
}

function spansLines(text: string, t: SemanticToken): boolean {
  for (let i = t.start; i < t.start + t.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}
