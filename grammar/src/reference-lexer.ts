// The Chevrotain lexer built from the token table in tokens.ts: the executable definition of the
// token vocabulary. The tools run scanner.ts, which is several times faster and allocates no
// token objects; test/grammar/scanner-oracle.test.ts requires both to read every input alike.
// Only tests and generators import this module: the tools lex with scanner.ts (the parser reads
// its typed arrays directly, see parser.ts).
import { Lexer } from "./chevrotain.js";
import { TOKENS } from "./tokens.js";

const OPTIONS = { positionTracking: "onlyOffset", skipValidations: false, ensureOptimizations: true } as const;

/** Builds the lexer with Chevrotain's validations on; throws if the token table is broken. */
export function validateTokenTable(): void {
  new Lexer([...TOKENS], OPTIONS);
}

interface ReferenceToken {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly payload?: unknown;
}

export interface ReferenceLex {
  readonly tokens: ReferenceToken[];
  readonly comments: { start: number; end: number }[];
  readonly errors: { start: number; end: number }[];
}

let shared: Lexer | undefined;

export function referenceTokenize(text: string): ReferenceLex {
  shared ??= new Lexer([...TOKENS], OPTIONS);
  // A leading byte order mark is skipped like a blank (as the scanner does).
  const r = shared.tokenize(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);
  return {
    tokens: r.tokens.map((t) => ({
      name: t.tokenType.name,
      start: t.startOffset,
      end: t.startOffset + t.image.length,
      ...(t.payload !== undefined && { payload: t.payload }),
    })),
    comments: (r.groups["comments"] ?? []).map((t) => ({ start: t.startOffset, end: t.startOffset + t.image.length })),
    errors: r.errors.map((e) => ({ start: e.offset, end: e.offset + e.length })),
  };
}
