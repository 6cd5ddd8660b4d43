// ONNX text in Python: the first argument of onnx's parse_model/parse_graph/parse_function/
// parse_node and onnxscript's from_onnx_text when it is a string literal, and the string right
// after a `# onnxtxt: model` marker line. f-strings and bytes are left to the Python grammar.
import type { LexicalVocabulary, Rule } from "./textmate-grammar.js";
import { EMBEDDED_BLOCK, EMBEDDED_LINE, embeddedRules, type Injection, injectionGrammar, literal } from "./textmate-injections.js";

export const PYTHON_PARSER_CALLS = ["parse_model", "parse_graph", "parse_function", "parse_node", "from_onnx_text"];
export const MARKER_KINDS = ["model", "graph", "function", "node", "nodes"];

interface PythonQuote {
  readonly key: string;
  readonly quote: string;
  readonly multiLine: boolean;
}

const QUOTES: readonly PythonQuote[] = [
  { key: "triple-double", quote: '"""', multiLine: true },
  { key: "triple-single", quote: "'''", multiLine: true },
  { key: "double", quote: '"', multiLine: false },
  { key: "single", quote: "'", multiLine: false },
];

/** Where a string literal may start: an optional u/r prefix, then a quote (not an f-string). */
const STRING_AHEAD = `[rRuU]?["']`;

function stringRule(q: PythonQuote, raw: boolean): Rule {
  const kind = `string.quoted.${raw ? "raw." : ""}${q.multiLine ? "multi" : "single"}.python`;
  const delimiter = literal(q.quote);
  return {
    begin: `(?<![\\w])(${raw ? "[rR]" : "[uU]?"})(${delimiter})`,
    beginCaptures: { "0": { name: kind }, "1": { name: "storage.type.string.python" }, "2": { name: "punctuation.definition.string.begin.python" } },
    end: q.multiLine ? `(${delimiter})` : `(${delimiter})|((?<!\\\\)\\n)`,
    endCaptures: { "0": { name: kind }, "1": { name: "punctuation.definition.string.end.python" }, "2": { name: "invalid.illegal.newline.python" } },
    contentName: q.multiLine ? EMBEDDED_BLOCK : EMBEDDED_LINE,
    patterns: [{ include: `#onnx-${q.key}` }, raw ? { match: "\\\\." } : { match: "\\\\.", name: "constant.character.escape.python" }],
  };
}

export function pythonInjection(v: LexicalVocabulary): Injection {
  const strings: Rule[] = QUOTES.flatMap((q) => [stringRule(q, true), stringRule(q, false)]);
  const repository: Record<string, Rule> = {
    "parser-call": {
      comment: '`onnx.parser.parse_model("""...""")`: the first argument, when it is a string literal, is ONNX text',
      begin: `\\b(${PYTHON_PARSER_CALLS.join("|")})\\s*(\\()(?=\\s*(?:${STRING_AHEAD}|$))`,
      beginCaptures: { "1": { name: "meta.function-call.generic.python" }, "2": { name: "punctuation.definition.arguments.begin.python" } },
      end: "(\\))",
      endCaptures: { "1": { name: "punctuation.definition.arguments.end.python" } },
      name: "meta.function-call.python",
      patterns: [
        {
          comment: "the first argument only (it may start on the next line)",
          begin: "\\G",
          end: `(?<=["'])|(?=[^\\s"'rRuU])|(?=[rRuU][^"'])`,
          patterns: [{ include: "#strings" }],
        },
        { include: "source.python" },
      ],
    },
    marker: {
      comment: '`# onnxtxt: graph` marks the string on the next line, possibly `NAME = """...`',
      begin: `^\\s*((#)\\s*onnxtxt\\s*:\\s*(?:${MARKER_KINDS.join("|")})\\b.*)$`,
      beginCaptures: { "1": { name: "comment.line.number-sign.python" }, "2": { name: "punctuation.definition.comment.python" } },
      end: `(?<=["'])|^(?!\\s*(?:[\\w.]+\\s*(?::[^=]*)?=\\s*)?${STRING_AHEAD})`,
      patterns: [
        { comment: "indentation first, so that a string here is not read as a docstring", match: "^\\s+" },
        { include: "#strings" },
        { include: "source.python" },
      ],
    },
    strings: { patterns: strings },
  };
  for (const q of QUOTES) {
    const terminator = literal(q.quote) + (q.multiLine ? "" : "|$");
    Object.assign(repository, embeddedRules(v, `onnx-${q.key}`, { terminator, escapedQuote: q.quote === v.stringQuote }));
  }
  return {
    file: "onnxtxt.injection.python.tmLanguage.json",
    injectTo: ["source.python"],
    grammar: injectionGrammar(
      "onnxtxt.injection.python",
      "L:source.python -comment -string",
      [{ include: "#marker" }, { include: "#parser-call" }],
      repository,
    ),
  };
}
