// Reads the highlighter's vocabulary out of the lexer's token table and keyword lists, so the
// TextMate grammar follows the lexer whenever a keyword or token pattern changes.
import type { LexicalVocabulary } from "./textmate-grammar.js";

/** The slice of grammar/src that the highlighter depends on. */
export interface LexerTable {
  readonly ELEMENT_TYPES: readonly string[];
  readonly TYPE_CONSTRUCTORS: readonly string[];
  readonly ATTRIBUTE_TYPES: Readonly<Record<string, number>>;
  readonly MODEL_HEADER_KEYS: readonly string[];
  readonly FUNCTION_HEADER_KEYS: readonly string[];
  readonly tokens: {
    readonly Identifier: { readonly PATTERN?: unknown };
    readonly Comment: { readonly PATTERN?: unknown };
    readonly StringLit: { readonly PATTERN?: unknown };
  };
}

/** The number scanner is hand-written (no regex), so its shape is restated here (syntax doc §1.5). */
const INTEGER = String.raw`\d+`;
const FLOAT = String.raw`\d+(?:\.\d*(?:[eE][+-]?\d+)?|[eE][+-]?\d+)`;
const FLOAT_WORDS = ["inf", "infinity", "nan"];

function regexSource(pattern: unknown, token: string): string {
  if (pattern instanceof RegExp) return pattern.source;
  throw new Error(`the ${token} token has no regular-expression pattern`);
}

export function vocabularyFromLexer(table: LexerTable): LexicalVocabulary {
  const comment = regexSource(table.tokens.Comment.PATTERN, "Comment");
  const string = regexSource(table.tokens.StringLit.PATTERN, "String");
  return {
    elementTypes: table.ELEMENT_TYPES,
    typeConstructors: table.TYPE_CONSTRUCTORS,
    attributeTypes: Object.keys(table.ATTRIBUTE_TYPES),
    headerKeys: [...new Set([...table.MODEL_HEADER_KEYS, ...table.FUNCTION_HEADER_KEYS])],
    floatWords: FLOAT_WORDS,
    identifier: regexSource(table.tokens.Identifier.PATTERN, "Identifier"),
    integer: INTEGER,
    float: FLOAT,
    commentStart: comment.charAt(0),
    stringQuote: string.charAt(0),
    // The lexer writes "any character" as `[^]`, which Oniguruma rejects; `.` is the same here
    // because a TextMate rule only ever sees one line.
    stringEscape: String.raw`\\.`,
  };
}
