// Python string literals: where one ends, and the text it stands for (escapes decoded, with a
// map back to the source). Prefixes r/b/u/f in any case and order; f-strings with fields are
// not texts (their fields are computed), and are reported as such.
import { MapBuilder, type OffsetMap } from "./offset-map.js";

export interface PyString {
  /** The literal, prefix to closing quote. */
  readonly start: number;
  readonly end: number;
  /** Between the quotes. */
  readonly contentStart: number;
  readonly contentEnd: number;
  readonly quote: string;
  readonly raw: boolean;
  readonly fstring: boolean;
  readonly terminated: boolean;
}

const PREFIX = /^(?:[rRbBuUfF]{1,2})$/;

/** The string literal starting at `start` (its prefix included), whose quote is at `quoteAt`. */
export function scanPyString(src: string, start: number, quoteAt: number): PyString {
  const prefix = src.slice(start, quoteAt);
  const raw = /[rR]/.test(prefix);
  const fstring = /[fF]/.test(prefix);
  const q = src[quoteAt]!;
  const triple = src.startsWith(q + q + q, quoteAt);
  const quote = triple ? q + q + q : q;
  const contentStart = quoteAt + quote.length;
  let i = contentStart;
  const n = src.length;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 92 /* \ */) {
      i += 2;
      continue;
    }
    if (!triple && (c === 10 || c === 13)) return { start, end: i, contentStart, contentEnd: i, quote, raw, fstring, terminated: false };
    if (src.startsWith(quote, i)) return { start, end: i + quote.length, contentStart, contentEnd: i, quote, raw, fstring, terminated: true };
    i++;
  }
  return { start, end: n, contentStart, contentEnd: n, quote, raw, fstring, terminated: false };
}

export function isPyStringPrefix(text: string): boolean {
  return text === "" || PREFIX.test(text);
}

/** Whether an f-string's content has a replacement field (a `{` that is not `{{`). */
export function hasFields(content: string): boolean {
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === "{" || c === "}") {
      if (content[i + 1] === c) i++;
      else return true;
    }
  }
  return false;
}

const SIMPLE: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** Appends the text a literal's content stands for to `out`. */
export function decodePyContent(src: string, s: PyString, out: MapBuilder): void {
  const end = s.contentEnd;
  let run = s.contentStart;
  let i = run;
  const flush = (to: number) => out.copy(src, run, to);
  while (i < end) {
    const c = src[i];
    if (s.fstring && (c === "{" || c === "}") && src[i + 1] === c) {
      flush(i);
      out.escape(c, i, i + 2);
      i += 2;
      run = i;
      continue;
    }
    if (c !== "\\" || s.raw) {
      i += c === "\\" ? 2 : 1;
      continue;
    }
    flush(i);
    const e = src[i + 1] ?? "";
    let len = 2;
    let decoded: string;
    if (e === "\n") decoded = "";
    else if (e === "\r") {
      decoded = "";
      if (src[i + 2] === "\n") len = 3;
    } else if (SIMPLE[e] !== undefined) decoded = SIMPLE[e]!;
    else if (e >= "0" && e <= "7") {
      const m = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4))![0];
      decoded = String.fromCharCode(Number.parseInt(m, 8));
      len = 1 + m.length;
    } else if (e === "x" || e === "u" || e === "U") {
      const digits = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = src.slice(i + 2, i + 2 + digits);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits ? Number.parseInt(hex, 16) : Number.NaN;
      if (Number.isNaN(code) || code > 0x10ffff) decoded = src.slice(i, i + 2);
      else {
        decoded = String.fromCodePoint(code);
        len = 2 + digits;
      }
    } else if (e === "N" && src[i + 2] === "{") {
      const close = src.indexOf("}", i + 3);
      len = close < 0 || close >= end ? 2 : close + 1 - i;
      decoded = src.slice(i, i + len); // named characters are left as written: no table of names here
    } else decoded = src.slice(i, i + 2); // an unknown escape keeps its backslash, as Python does
    out.escape(decoded, i, i + len);
    i += len;
    run = i;
  }
  flush(end);
}

/** The text of one or more adjacent literals (`"a" "b"` is "ab"), with its map. */
export function decodePyStrings(src: string, parts: readonly PyString[]): { text: string; map: OffsetMap } {
  const out = new MapBuilder();
  for (const p of parts) decodePyContent(src, p, out);
  return out.finish(parts[0]!.contentStart);
}
