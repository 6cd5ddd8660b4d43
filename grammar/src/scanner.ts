// The lexer the tools run: one charCodeAt pass that writes tokens into typed arrays, so a large
// document costs a few flat arrays instead of an object per token (on a 50k-node graph this is
// the difference between ~10 ms and ~100 ms plus the garbage collection of 300k objects).
//
// The token vocabulary and matching rules are those of the Chevrotain table in tokens.ts, which
// stays the executable definition: test/grammar/scanner-oracle.test.ts runs both on the corpus
// and on fuzzed text and requires the same tokens, payloads and errors.
import type { Comment } from "./ast.js";
import type { Diagnostic } from "./diagnostics.js";
import { isBlank, isDigit, isIdentChar, isLetter, scanNumber, scanPackedList, type PackedPayload } from "./number-scan.js";

/** Token kinds; the names are those of the Chevrotain token types. 0 marks the end of input. */
export const Tok = {
  End: 0,
  Identifier: 1,
  Number: 2,
  NumberList: 3,
  String: 4,
  UnterminatedString: 5,
  Arrow: 6,
  Equals: 7,
  LAngle: 8,
  RAngle: 9,
  LParen: 10,
  RParen: 11,
  LBracket: 12,
  RBracket: 13,
  LBrace: 14,
  RBrace: 15,
  Comma: 16,
  Colon: 17,
  Dot: 18,
  At: 19,
  Question: 20,
  Minus: 21,
} as const;
export type Tok = (typeof Tok)[keyof typeof Tok];

/** Token `k` spans text[starts[k], ends[k]); index `count` holds an End sentinel. */
export interface TokenStream {
  readonly count: number;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Number tokens that are floats (a `.`, an exponent or inf/nan). */
  readonly isFloat: Uint8Array;
  /** The values of NumberList tokens, by token index. */
  readonly lists: ReadonlyMap<number, PackedPayload>;
}

interface LexResult {
  readonly tokens: TokenStream;
  readonly comments: Comment[];
  readonly diagnostics: Diagnostic[];
}

/** Single-character tokens by char code; `=` is handled apart for `=>`. */
const PUNCTUATION = new Uint8Array(128);
for (const [ch, kind] of [
  ["<", Tok.LAngle],
  [">", Tok.RAngle],
  ["(", Tok.LParen],
  [")", Tok.RParen],
  ["[", Tok.LBracket],
  ["]", Tok.RBracket],
  ["{", Tok.LBrace],
  ["}", Tok.RBrace],
  [",", Tok.Comma],
  [":", Tok.Colon],
  [".", Tok.Dot],
  ["@", Tok.At],
  ["?", Tok.Question],
] as const)
  PUNCTUATION[ch.charCodeAt(0)] = kind;

function isIdentStart(c: number): boolean {
  return isLetter(c) || c === 95 /* _ */;
}

/** Where some token can begin: the lexer resumes there after characters it cannot read. */
function startsToken(c: number): boolean {
  return isBlank(c) || isIdentChar(c) || (c < 128 && PUNCTUATION[c] !== 0) || c === 61 /* = */ || c === 45 /* - */ || c === 34 /* " */ || c === 35 /* # */;
}

function describeChar(text: string, offset: number): string {
  const c = text.codePointAt(offset) ?? 0;
  if (c === 0xfeff) return "a byte order mark (U+FEFF)";
  if (c === 0xa0) return "a no-break space (U+00A0)";
  if (c < 32 || c === 127) return `the control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  if (c === 39) return '"\'" (strings are written in double quotes)';
  return `'${String.fromCodePoint(c)}'`;
}

/** The end of a string literal starting at `i` (a `"`), or -1 when it is never closed. */
function stringEnd(text: string, i: number): number {
  const n = text.length;
  for (let p = i + 1; p < n; p++) {
    const c = text.charCodeAt(p);
    if (c === 34) return p + 1;
    if (c === 92) p++;
  }
  return -1;
}

/** Growable parallel arrays; `finish` trims them and appends the End sentinel. */
class TokenArrays {
  count = 0;
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  isFloat: Uint8Array;
  readonly lists = new Map<number, PackedPayload>();

  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.isFloat = new Uint8Array(capacity);
  }

  push(kind: Tok, start: number, end: number): void {
    if (this.count === this.kinds.length) this.grow(this.count * 2);
    const k = this.count++;
    this.kinds[k] = kind;
    this.starts[k] = start;
    this.ends[k] = end;
  }

  private grow(capacity: number): void {
    const kinds = new Uint8Array(capacity);
    const starts = new Int32Array(capacity);
    const ends = new Int32Array(capacity);
    const isFloat = new Uint8Array(capacity);
    kinds.set(this.kinds);
    starts.set(this.starts);
    ends.set(this.ends);
    isFloat.set(this.isFloat);
    this.kinds = kinds;
    this.starts = starts;
    this.ends = ends;
    this.isFloat = isFloat;
  }

  finish(textLength: number): TokenStream {
    this.push(Tok.End, textLength, textLength);
    const count = this.count - 1;
    const n = this.count;
    return {
      count,
      kinds: this.kinds.subarray(0, n),
      starts: this.starts.subarray(0, n),
      ends: this.ends.subarray(0, n),
      isFloat: this.isFloat.subarray(0, n),
      lists: this.lists,
    };
  }
}

/**
 * The tokens, comments and lexical errors of `text`. With `from` (where a token of the whole
 * text's lexing begins) and `stopAt`, only a part: the lexing from `from`, as the whole text's
 * goes on from there, up to the first token or comment that starts at or after `stopAt`
 * (included). The scanner reads the whole text, so a token near the end of the part is the one
 * the whole text has.
 */
export function tokenize(text: string, from = 0, stopAt = Number.POSITIVE_INFINITY): LexResult {
  const n = text.length;
  // About one token per four characters in typical text; growth covers the rest.
  const out = new TokenArrays(Math.min(1 << 20, ((Math.min(n, stopAt) - from) >> 2) + 16));
  const comments: Comment[] = [];
  const diagnostics: Diagnostic[] = [];
  // A leading byte order mark is not text: `check` never sees it (UTF-8 decoding drops it), so
  // the editor, which gets it in the document, skips it too.
  let p = from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from;
  let last = -1;
  while (p < n && last < stopAt) {
    const c = text.charCodeAt(p);
    if (isBlank(c)) {
      p++;
      continue;
    }
    const start = p;
    last = start;
    if (isIdentStart(c)) {
      p++;
      while (p < n && isIdentChar(text.charCodeAt(p))) p++;
      out.push(Tok.Identifier, start, p);
    } else if (isDigit(c) || c === 45 /* - */) {
      const s = scanNumber(text, p);
      if (s.end < 0) {
        out.push(Tok.Minus, start, ++p);
      } else {
        p = s.end;
        out.push(Tok.Number, start, p);
        if (s.isFloat) out.isFloat[out.count - 1] = 1;
      }
    } else if (c === 61 /* = */) {
      if (text.charCodeAt(p + 1) === 62 /* > */) {
        p += 2;
        out.push(Tok.Arrow, start, p);
      } else out.push(Tok.Equals, start, ++p);
    } else if (c === 123 /* { */) {
      const list = scanPackedList(text, p);
      if (list) {
        out.lists.set(out.count, list.payload);
        p = list.end;
        out.push(Tok.NumberList, start, p);
      } else out.push(Tok.LBrace, start, ++p);
    } else if (c < 128 && PUNCTUATION[c] !== 0) {
      out.push(PUNCTUATION[c] as Tok, start, ++p);
    } else if (c === 34 /* " */) {
      const end = stringEnd(text, p);
      p = end < 0 ? n : end;
      out.push(end < 0 ? Tok.UnterminatedString : Tok.String, start, p);
    } else if (c === 35 /* # */) {
      while (p < n && text.charCodeAt(p) !== 10 && text.charCodeAt(p) !== 13) p++;
      comments.push({ span: { start, end: p }, text: text.slice(start + 1, p) });
    } else {
      p++;
      while (p < n && !startsToken(text.charCodeAt(p))) p++;
      diagnostics.push({ severity: "error", code: "syntax", message: `unexpected character ${describeChar(text, start)}`, span: { start, end: p } });
    }
  }
  return { tokens: out.finish(n), comments, diagnostics };
}
