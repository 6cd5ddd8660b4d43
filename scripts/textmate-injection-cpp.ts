// ONNX text in C and C++: raw strings `R"ONNX( ... )ONNX"` (and `R"onnx(`) anywhere, and the
// one-line node given to a FunctionBuilder, `.Add("y = Relu (x)")` or `.Add(R"(...)")`.
import type { LexicalVocabulary, Rule } from "./textmate-grammar.js";
import { EMBEDDED_BLOCK, EMBEDDED_LINE, embeddedRules, type Injection, injectionGrammar } from "./textmate-injections.js";

export const RAW_STRING_DELIMITERS = ["ONNX", "onnx"];
const ENCODING = "(?:u8|[uUL])?R";
/** Right after `.Add(` (the C++ grammar has already read the call up to its parenthesis). */
const AFTER_ADD = "(?<=\\.Add\\(|\\.Add \\()\\s*";

/** The quotes keep the C++ string scopes; group 1 is the whole delimiter, group 2 the encoding. */
function delimiters(kind: string): Pick<Rule, "beginCaptures" | "endCaptures"> {
  return {
    beginCaptures: { "1": { name: `${kind} punctuation.definition.string.begin.cpp` }, "2": { name: "meta.encoding.cpp" } },
    endCaptures: { "1": { name: `${kind} punctuation.definition.string.end.cpp` } },
  };
}

export function cppInjection(v: LexicalVocabulary): Injection {
  const names = RAW_STRING_DELIMITERS.join("|");
  const repository: Record<string, Rule> = {
    "raw-string": {
      comment: '`R"ONNX( ... )ONNX"`, over any number of lines',
      begin: `((${ENCODING})"(${names})\\()`,
      end: '(\\)\\3")',
      ...delimiters("string.quoted.double.raw.cpp"),
      contentName: EMBEDDED_BLOCK,
      patterns: [{ include: "#onnx-raw" }],
    },
    "add-string": {
      comment: '`builder.Add("y = Relu (x)")`: one node',
      begin: `${AFTER_ADD}(()")`,
      end: '(")|(?=$)',
      ...delimiters("string.quoted.double.cpp"),
      contentName: EMBEDDED_LINE,
      patterns: [{ include: "#onnx-quoted" }, { match: "\\\\.", name: "constant.character.escape.cpp" }],
    },
    "add-raw-string": {
      comment: '`builder.Add(R"(y = Relu (x))")`',
      begin: `${AFTER_ADD}((${ENCODING})"\\()`,
      end: '(\\)")',
      ...delimiters("string.quoted.double.raw.cpp"),
      contentName: EMBEDDED_LINE,
      patterns: [{ include: "#onnx-add-raw" }],
    },
    ...embeddedRules(v, "onnx-raw", { terminator: `\\)(?:${names})"`, escapedQuote: false }),
    ...embeddedRules(v, "onnx-quoted", { terminator: '"|$', escapedQuote: true }),
    ...embeddedRules(v, "onnx-add-raw", { terminator: '\\)"', escapedQuote: false }),
  };
  return {
    file: "onnxtxt.injection.cpp.tmLanguage.json",
    injectTo: ["source.cpp", "source.c"],
    grammar: injectionGrammar(
      "onnxtxt.injection.cpp",
      "L:source.cpp -comment -string, L:source.c -comment -string",
      [{ include: "#raw-string" }, { include: "#add-raw-string" }, { include: "#add-string" }],
      repository,
    ),
  };
}
