// Builds the TextMate grammar for .onnxtxt from the lexer's vocabulary. Keywords in the
// text format are contextual (a value may be called `map`), so the grammar leans on
// lookahead: a header key only before `:`, a constructor only before `(`, an op name only
// after `=` and before `<` or `(`.

/** What the highlighter needs to know about the lexer; regexes are given as sources. */
export interface LexicalVocabulary {
  /** Tensor element type keywords: `float`, `int64`, ... */
  readonly elementTypes: readonly string[];
  /** Type constructors written `name(...)`: `seq`, `map`, ... */
  readonly typeConstructors: readonly string[];
  /** Attribute type annotations after `name:` in an attribute: `int`, `floats`, ... */
  readonly attributeTypes: readonly string[];
  /** Keys of the model and function headers: `ir_version`, `opset_import`, ... */
  readonly headerKeys: readonly string[];
  /** Word-form float literals, matched case-insensitively: `inf`, `nan`, ... */
  readonly floatWords: readonly string[];
  /** The identifier pattern (no anchors, no flags). */
  readonly identifier: string;
  /** An integer literal (no anchors, no flags). */
  readonly integer: string;
  /** A float literal in digit form, with a `.` or an exponent (no anchors, no flags). */
  readonly float: string;
  /** The character that starts a comment running to the end of the line. */
  readonly commentStart: string;
  /** The string delimiter and the escape pattern inside strings. */
  readonly stringQuote: string;
  readonly stringEscape: string;
}

/**
 * ONNX text inside another language's string: every rule stops before the host's closing
 * delimiter, so an unbalanced `{` or `<` inside the string never runs past the string's end.
 */
export interface HostEmbedding {
  /** A regex source for the host's closing delimiter, e.g. `"""` or `"|$` (no capture groups). */
  readonly terminator: string;
  /** The host string's quote is the ONNX quote, so ONNX strings are written `\"...\"` in it. */
  readonly escapedQuote: boolean;
}

export interface TextMateGrammar {
  readonly $schema: string;
  readonly name: string;
  readonly scopeName: string;
  readonly fileTypes: readonly string[];
  readonly patterns: readonly Rule[];
  readonly repository: Readonly<Record<string, Rule>>;
}

export interface Rule {
  readonly name?: string;
  readonly match?: string;
  readonly begin?: string;
  readonly end?: string;
  readonly captures?: Readonly<Record<string, { name: string }>>;
  readonly beginCaptures?: Readonly<Record<string, { name: string }>>;
  readonly endCaptures?: Readonly<Record<string, { name: string }>>;
  readonly patterns?: readonly Rule[];
  readonly include?: string;
  readonly comment?: string;
  readonly contentName?: string;
  readonly while?: string;
}

const SUFFIX = ".onnxtxt";

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** `\b(?:a|b)\b`, longest alternative first so a prefix never wins. */
function words(list: readonly string[]): string {
  const sorted = [...new Set(list)].sort((a, b) => b.length - a.length || a.localeCompare(b));
  return `\\b(?:${sorted.map(escapeRegex).join("|")})\\b`;
}

function scopes(...names: string[]): Record<string, { name: string }> {
  const out: Record<string, { name: string }> = {};
  names.forEach((name, i) => {
    if (name) out[String(i + 1)] = { name: name + SUFFIX };
  });
  return out;
}

/** A balanced `( ... )` nested up to `depth` levels, e.g. `(optional(seq(float)) x)` at 3. */
function parenGroup(depth: number): string {
  let inner = String.raw`\([^()]*\)`;
  for (let d = 1; d < depth; d++) inner = String.raw`\((?:[^()]|${inner})*\)`;
  return inner;
}

const PAREN_GROUP = parenGroup(4);

export function buildTextMateGrammar(v: LexicalVocabulary, host?: HostEmbedding): TextMateGrammar {
  const id = v.identifier;
  const quote = escapeRegex(v.stringQuote);
  // Inside a host string, the closing delimiter ends every open rule (it is tried first).
  const end = (source: string): string => (host ? `(?=${host.terminator})|${source}` : source);
  const restOfLine = host ? `(?:(?!${host.terminator}).)*` : ".*$";
  const stringDelimiter = host?.escapedQuote ? `\\\\${quote}` : quote;
  const typeStart = `(?:${words([...v.elementTypes, ...v.typeConstructors])})`;
  // A graph or function signature follows: optional `<params>`, optional `(inputs)`, then `=>`.
  const signatureAhead = String.raw`(?=\s*(?:<[^<>]*>\s*)?(?:${PAREN_GROUP}\s*)?=>)`;

  const repository: Record<string, Rule> = {
    comment: {
      match: `(${escapeRegex(v.commentStart)})${restOfLine}`,
      name: "comment.line.number-sign" + SUFFIX,
      captures: scopes("punctuation.definition.comment"),
    },
    string: {
      name: "string.quoted.double" + SUFFIX,
      begin: stringDelimiter,
      end: end(stringDelimiter),
      beginCaptures: { "0": { name: "punctuation.definition.string.begin" + SUFFIX } },
      endCaptures: { "0": { name: "punctuation.definition.string.end" + SUFFIX } },
      patterns: [{ match: v.stringEscape, name: "constant.character.escape" + SUFFIX }],
    },
    "header-key": {
      comment: "model and function header entries: `ir_version: 10`",
      match: `(${words(v.headerKeys)})\\s*(?=:)`,
      captures: scopes("keyword.other.header"),
    },
    "node-label": {
      comment: "`[name]` before a node's outputs",
      match: `^\\s*(\\[)\\s*(${id}|${quote}(?:[^${quote}\\\\]|\\\\.)*${quote})?\\s*(\\])`,
      captures: scopes("punctuation.definition.label.begin", "entity.name.label", "punctuation.definition.label.end"),
    },
    "graph-name": {
      comment: "the name of a graph or function, before its signature",
      match: `\\b(${id})${signatureAhead}`,
      captures: scopes("entity.name.type.graph"),
    },
    "op-call": {
      comment: "`= domain.Op:overload <...> (...)`, but not a type or a graph after `=`",
      match: `(=)(?!>)\\s*(?!${typeStart})(?!${id}${signatureAhead})` + `((?:${id}\\s*\\.\\s*)*)(${id})(?:\\s*(:)\\s*(${id}))?(?=\\s*[<(])`,
      captures: scopes(
        "keyword.operator.assignment",
        "entity.name.namespace",
        "entity.name.function.operator",
        "punctuation.separator.overload",
        "entity.name.function.overload",
      ),
    },
    "attribute-list": {
      comment: "`<...>`: attributes, header entries, value infos, function parameters",
      begin: "<",
      end: end("(?<!=)>"),
      beginCaptures: { "0": { name: "punctuation.definition.attributes.begin" + SUFFIX } },
      endCaptures: { "0": { name: "punctuation.definition.attributes.end" + SUFFIX } },
      patterns: [{ include: "#comment" }, { include: "#header-key" }, { include: "#attribute-name" }, { include: "#attribute-type" }, { include: "$self" }],
    },
    "attribute-name": {
      match: `(?:(?<=[<,])|^)\\s*(${id})(?=\\s*(?::\\s*${id}\\s*)?=(?!>))`,
      captures: scopes("entity.other.attribute-name"),
    },
    "attribute-type": {
      match: `(:)\\s*(${words(v.attributeTypes)})(?=\\s*=(?!>))`,
      captures: scopes("punctuation.separator.colon", "storage.type.attribute"),
    },
    block: {
      comment: "a node block or tensor data",
      begin: "\\{",
      end: end("\\}"),
      beginCaptures: { "0": { name: "punctuation.section.block.begin" + SUFFIX } },
      endCaptures: { "0": { name: "punctuation.section.block.end" + SUFFIX } },
      patterns: [{ include: "$self" }],
    },
    "type-constructor": {
      match: `(${words(v.typeConstructors)})(?=\\s*\\()`,
      captures: scopes("storage.type.constructor"),
    },
    shape: {
      comment: "`float[N, 3, ?]`: the dims after an element type",
      begin: `(${words(v.elementTypes)})\\s*(\\[)`,
      end: end("\\]"),
      beginCaptures: scopes("storage.type.primitive", "punctuation.definition.shape.begin"),
      endCaptures: { "0": { name: "punctuation.definition.shape.end" + SUFFIX } },
      patterns: [
        { include: "#comment" },
        { include: "#string" },
        { match: `(?<![\\w.])-?(?:${v.integer})(?![\\w.])`, name: "constant.numeric.integer" + SUFFIX },
        { match: "\\?", name: "constant.language.unknown-dimension" + SUFFIX },
        { match: ",", name: "punctuation.separator.comma" + SUFFIX },
        { match: `\\b${id}\\b`, name: "variable.other.dimension" + SUFFIX },
      ],
    },
    "element-type": {
      match: `(${words(v.elementTypes)})`,
      captures: scopes("storage.type.primitive"),
    },
    number: {
      patterns: [
        { match: `(?<![\\w.])-?(?:${v.float})(?![\\w.])`, name: "constant.numeric.float" + SUFFIX },
        { match: `(?<![\\w.])-?(?:${v.integer})(?![\\w.])`, name: "constant.numeric.integer" + SUFFIX },
        { match: `(?<![\\w.])-?(?i:${words(v.floatWords)})`, name: "constant.numeric.float" + SUFFIX },
      ],
    },
    reference: {
      match: `(@)\\s*(${id}|${quote}(?:[^${quote}\\\\]|\\\\.)*${quote})`,
      captures: scopes("keyword.operator.reference", "variable.other.reference"),
    },
    operators: {
      patterns: [
        { match: "=>", name: "keyword.operator.arrow" + SUFFIX },
        { match: "=", name: "keyword.operator.assignment" + SUFFIX },
        { match: "\\?", name: "constant.language.unknown-dimension" + SUFFIX },
        { match: ",", name: "punctuation.separator.comma" + SUFFIX },
        { match: ":", name: "punctuation.separator.colon" + SUFFIX },
        { match: "\\.", name: "punctuation.accessor" + SUFFIX },
        { match: "[()\\[\\]]", name: "punctuation.section.brackets" + SUFFIX },
      ],
    },
    "value-name": {
      match: `\\b${id}\\b`,
      name: "variable.other.value" + SUFFIX,
    },
  };

  const order = [
    "comment",
    "string",
    "header-key",
    "node-label",
    "graph-name",
    "op-call",
    "attribute-list",
    "block",
    "type-constructor",
    "shape",
    "element-type",
    "number",
    "reference",
    "operators",
    "value-name",
  ];
  return {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    name: "ONNX Text",
    scopeName: "source.onnxtxt",
    fileTypes: ["onnxtxt", "onnxtext"],
    patterns: order.map((key) => ({ include: `#${key}` })),
    repository,
  };
}

/** The committed file's exact text: stable key order, two-space indent, final newline. */
export function renderTextMateGrammar(grammar: TextMateGrammar): string {
  return JSON.stringify(grammar, null, 2) + "\n";
}
