// Tokens of protobuf's text format: identifiers, numbers, quoted strings (already unescaped
// to bytes) and punctuation, each with its line and column; `#` comments are skipped.
import { OnnxtxtError } from "../io/errors.js";

export type TokenKind = "ident" | "number" | "string" | "punct";

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** For strings: the bytes after unescaping. */
  readonly bytes?: Uint8Array;
  readonly line: number;
  readonly col: number;
  /** UTF-16 offset of the token's first character. */
  readonly offset: number;
}

export class TextprotoError extends OnnxtxtError {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly reason: string,
    /** UTF-16 offset of the place, for a span. */
    readonly offset: number,
  ) {
    super(`${line}:${col}: ${reason}`);
    this.name = "TextprotoError";
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  n: 10,
  t: 9,
  r: 13,
  a: 7,
  b: 8,
  f: 12,
  v: 11,
  "\\": 92,
  "'": 39,
  '"': 34,
  "?": 63,
};

function utf8(codePoint: number): number[] {
  return [...new TextEncoder().encode(String.fromCodePoint(codePoint))];
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (at: number, reason: string): never => {
    throw new TextprotoError(line, at - lineStart + 1, reason, at);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v" || c === "\uFEFF") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    const col = i - lineStart + 1;
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][\w.]*/.exec(text.slice(i, i + 256))!;
      tokens.push({ kind: "ident", text: m[0], line, col, offset: i });
      i += m[0].length;
      continue;
    }
    if (/[0-9.+-]/.test(c) && /^[-+]?(\.?[0-9]|inf|nan|infinity)/i.test(text.slice(i, i + 10))) {
      const m = /^[-+]?(inf(?:inity)?f?|nan|0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]*(?:[eE][-+]?[0-9]+)?[fF]?)/i.exec(text.slice(i, i + 512))!;
      tokens.push({ kind: "number", text: m[0], line, col, offset: i });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i;
      const bytes: number[] = [];
      i++;
      for (;;) {
        if (i >= text.length || text[i] === "\n") fail(start, "a string that is not closed on its line");
        const ch = text[i]!;
        if (ch === c) break;
        if (ch !== "\\") {
          const cp = text.codePointAt(i)!;
          bytes.push(...utf8(cp));
          i += cp > 0xffff ? 2 : 1;
          continue;
        }
        const e = text[i + 1] ?? "";
        if (e in SIMPLE_ESCAPES) {
          bytes.push(SIMPLE_ESCAPES[e]!);
          i += 2;
        } else if (/[0-7]/.test(e)) {
          const m = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))!;
          const v = Number.parseInt(m[0], 8);
          if (v > 255) fail(i, `the octal escape \\${m[0]} is more than a byte`);
          bytes.push(v);
          i += 1 + m[0].length;
        } else if (e === "x" || e === "X") {
          const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2, i + 4));
          if (!m) fail(i, "\\x without hex digits");
          bytes.push(Number.parseInt(m![0], 16));
          i += 2 + m![0].length;
        } else if (e === "u" || e === "U") {
          const n = e === "u" ? 4 : 8;
          const hex = text.slice(i + 2, i + 2 + n);
          if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail(i, `\\${e} needs ${n} hex digits`);
          bytes.push(...utf8(Number.parseInt(hex, 16)));
          i += 2 + n;
        } else fail(i, `unknown escape \\${e}`);
      }
      i++;
      tokens.push({ kind: "string", text: text.slice(start, i), bytes: Uint8Array.from(bytes), line, col, offset: start });
      continue;
    }
    if ("{}<>[]:,;".includes(c)) {
      tokens.push({ kind: "punct", text: c, line, col, offset: i });
      i++;
      continue;
    }
    fail(i, `unexpected character '${c}'`);
  }
  return tokens;
}
