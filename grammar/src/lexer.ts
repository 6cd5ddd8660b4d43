// The one shared Chevrotain lexer. Positions are offsets only: lines and columns come from a
// LineIndex when a message needs them. Validations run only when asked (tests), so the CLI
// starts fast.
import { Lexer, type IToken } from "./chevrotain.js";
import type { Comment } from "./ast.js";
import type { Diagnostic } from "./diagnostics.js";
import { TOKENS } from "./tokens.js";

let shared: Lexer | undefined;

function lexer(): Lexer {
  shared ??= new Lexer([...TOKENS], { positionTracking: "onlyOffset", skipValidations: true, ensureOptimizations: false });
  return shared;
}

/** Builds the lexer with Chevrotain's validations on; throws if the token table is broken. */
export function validateTokenTable(): void {
  new Lexer([...TOKENS], { positionTracking: "onlyOffset", skipValidations: false, ensureOptimizations: true });
}

export interface LexResult {
  readonly tokens: IToken[];
  readonly comments: Comment[];
  readonly diagnostics: Diagnostic[];
}

function describeChar(text: string, offset: number): string {
  const c = text.codePointAt(offset) ?? 0;
  if (c === 0xfeff) return "a byte order mark (U+FEFF)";
  if (c === 0xa0) return "a no-break space (U+00A0)";
  if (c < 32 || c === 127) return `the control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  if (c === 39) return "\"'\" (strings are written in double quotes)";
  return `'${String.fromCodePoint(c)}'`;
}

export function tokenize(text: string): LexResult {
  const r = lexer().tokenize(text);
  const comments: Comment[] = (r.groups["comments"] ?? []).map((t) => ({
    span: { start: t.startOffset, end: t.startOffset + t.image.length },
    text: t.image.slice(1),
  }));
  const diagnostics: Diagnostic[] = r.errors.map((e) => ({
    severity: "error",
    code: "syntax",
    message: `unexpected character ${describeChar(text, e.offset)}`,
    span: { start: e.offset, end: e.offset + Math.max(1, e.length) },
  }));
  return { tokens: r.tokens, comments, diagnostics };
}
