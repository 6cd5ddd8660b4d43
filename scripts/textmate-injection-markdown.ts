// ONNX text in Markdown: fenced code blocks tagged `onnx`, `onnxtxt` or `onnx-text`, written as
// VS Code's Markdown grammar writes its own fences (a `while` rule ends the block at any
// closing fence, whatever the ONNX inside left open).
import { EMBEDDED_BLOCK, type Injection, injectionGrammar } from "./textmate-injections.js";

export const FENCE_LANGUAGES = ["onnx", "onnxtxt", "onnx-text"];

export function markdownInjection(): Injection {
  const languages = [...FENCE_LANGUAGES].sort((a, b) => b.length - a.length).join("|");
  return {
    file: "onnxtxt.injection.markdown.tmLanguage.json",
    injectTo: ["text.html.markdown"],
    grammar: injectionGrammar("onnxtxt.injection.markdown", "L:text.html.markdown -markup.fenced_code.block.markdown", [{ include: "#fenced-code-block" }], {
      "fenced-code-block": {
        begin: `(^|\\G)([ ]{0,3})(\`{3,}|~{3,})\\s*(?i:(${languages})((?:\\s+|[,:?{])[^\`]*)?$)`,
        beginCaptures: {
          "3": { name: "punctuation.definition.markdown" },
          "4": { name: "fenced_code.block.language.markdown" },
          "5": { name: "fenced_code.block.language.attributes.markdown" },
        },
        end: "(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$",
        endCaptures: { "3": { name: "punctuation.definition.markdown" } },
        name: "markup.fenced_code.block.markdown",
        patterns: [
          {
            begin: "(^|\\G)(\\s*)(.*)",
            while: "(^|\\G)(?!\\s*([`~]{3,})\\s*$)",
            contentName: EMBEDDED_BLOCK,
            patterns: [{ include: "source.onnxtxt" }],
          },
        ],
      },
    }),
  };
}
