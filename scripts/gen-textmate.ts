// Writes client-vscode/syntaxes/onnxtxt.tmLanguage.json from the lexer's token table, and the
// injection grammars that colour ONNX text inside Python, C/C++ and Markdown files.
//   node dist/scripts/gen-textmate.js           regenerate
//   node dist/scripts/gen-textmate.js --check   exit 1 when a committed file is stale
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as keywords from "../grammar/src/keywords.js";
import * as tokens from "../grammar/src/tokens.js";
import { writeOrCheck } from "./generated-file.js";
import { buildTextMateGrammar, type LexicalVocabulary, renderTextMateGrammar } from "./textmate-grammar.js";
import { cppInjection } from "./textmate-injection-cpp.js";
import { markdownInjection } from "./textmate-injection-markdown.js";
import { pythonInjection } from "./textmate-injection-python.js";
import type { Injection } from "./textmate-injections.js";
import { vocabularyFromLexer } from "./textmate-vocabulary.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SYNTAXES_DIR = path.join(REPO, "client-vscode/syntaxes");
export const GRAMMAR_FILE = path.join(SYNTAXES_DIR, "onnxtxt.tmLanguage.json");
const REGENERATE = "node dist/scripts/gen-textmate.js";

function vocabulary(): LexicalVocabulary {
  return vocabularyFromLexer({ ...keywords, tokens });
}

/** The grammar file's text as the current lexer defines it. */
export function generatedGrammarText(): string {
  return renderTextMateGrammar(buildTextMateGrammar(vocabulary()));
}

/** The injection grammars for Python, C/C++ and Markdown hosts. */
export function injections(): Injection[] {
  const v = vocabulary();
  return [pythonInjection(v), cppInjection(v), markdownInjection()];
}

/** Every generated grammar file: its absolute path and its text. */
export function generatedGrammarFiles(): { file: string; text: string }[] {
  return [
    { file: GRAMMAR_FILE, text: generatedGrammarText() },
    ...injections().map((i) => ({ file: path.join(SYNTAXES_DIR, i.file), text: JSON.stringify(i.grammar, null, 2) + "\n" })),
  ];
}

function main(argv: string[]): number {
  let code = 0;
  for (const { file, text } of generatedGrammarFiles()) code = Math.max(code, writeOrCheck(argv, file, text, REGENERATE));
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
