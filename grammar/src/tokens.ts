// The ordered token table. Keywords are not tokens: every word is an Identifier and the parser
// reads meaning from position (syntax doc §1.7). The table is exported for the TextMate
// grammar generator, together with the keyword lists in keywords.ts.
import { createToken, Lexer, type CustomPatternMatcherReturn, type TokenType } from "./chevrotain.js";
import { scanNumber, scanPackedList } from "./number-scan.js";

function matchNumber(text: string, offset: number): CustomPatternMatcherReturn | null {
  const s = scanNumber(text, offset);
  if (s.end < 0) return null;
  const m: CustomPatternMatcherReturn = [text.slice(offset, s.end)];
  m.payload = s.isFloat;
  return m;
}

function matchPackedList(text: string, offset: number): CustomPatternMatcherReturn | null {
  // Chevrotain also calls matchers where the start-character hint does not hold (to resume after an error).
  if (text.charCodeAt(offset) !== 123 /* { */) return null;
  const r = scanPackedList(text, offset);
  if (!r) return null;
  const m: CustomPatternMatcherReturn = [text.slice(offset, r.end)];
  m.payload = r.payload;
  return m;
}

const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\n\v\f\r]+/, group: Lexer.SKIPPED, line_breaks: true });
export const Comment = createToken({ name: "Comment", pattern: /#[^\n\r]*/, group: "comments", line_breaks: false });
/** `{1, 2.5, -inf}`: a whole list of plain numbers as one token, values in the payload. */
export const NumberList = createToken({
  name: "NumberList",
  pattern: { exec: matchPackedList },
  start_chars_hint: ["{"],
  line_breaks: true,
});
/** A number literal; the payload is true for float literals (`.`, exponent or inf/nan). */
export const NumberLit = createToken({
  name: "Number",
  pattern: { exec: matchNumber },
  start_chars_hint: ["-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
  line_breaks: false,
});
export const StringLit = createToken({ name: "String", pattern: /"(?:[^"\\]|\\[^])*"/, line_breaks: true });
/** A string with no closing quote: reported by the parser with a clear message. */
export const UnterminatedString = createToken({ name: "UnterminatedString", pattern: /"(?:[^"\\]|\\[^])*\\?/, line_breaks: true });
export const Identifier = createToken({ name: "Identifier", pattern: /[A-Za-z_][A-Za-z0-9_]*/ });
export const Arrow = createToken({ name: "Arrow", pattern: "=>", label: "'=>'" });
export const Equals = createToken({ name: "Equals", pattern: "=", label: "'='" });
export const LAngle = createToken({ name: "LAngle", pattern: "<", label: "'<'" });
export const RAngle = createToken({ name: "RAngle", pattern: ">", label: "'>'" });
export const LParen = createToken({ name: "LParen", pattern: "(", label: "'('" });
export const RParen = createToken({ name: "RParen", pattern: ")", label: "')'" });
export const LBracket = createToken({ name: "LBracket", pattern: "[", label: "'['" });
export const RBracket = createToken({ name: "RBracket", pattern: "]", label: "']'" });
export const LBrace = createToken({ name: "LBrace", pattern: "{", label: "'{'" });
export const RBrace = createToken({ name: "RBrace", pattern: "}", label: "'}'" });
export const Comma = createToken({ name: "Comma", pattern: ",", label: "','" });
export const Colon = createToken({ name: "Colon", pattern: ":", label: "':'" });
export const Dot = createToken({ name: "Dot", pattern: ".", label: "'.'" });
export const At = createToken({ name: "At", pattern: "@", label: "'@'" });
export const Question = createToken({ name: "Question", pattern: "?", label: "'?'" });
export const Minus = createToken({ name: "Minus", pattern: "-", label: "'-'" });

/** In matching order: blanks first (most frequent), the packed list before `{`, `=>` before `=`. */
export const TOKENS: readonly TokenType[] = [
  WhiteSpace,
  Comment,
  NumberList,
  NumberLit,
  StringLit,
  UnterminatedString,
  Identifier,
  Arrow,
  Equals,
  LAngle,
  RAngle,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Dot,
  At,
  Question,
  Minus,
];
