// Writes client-vscode/syntaxes/onnxtxt.tmLanguage.json from the lexer's token table.
//   node dist/scripts/gen-textmate.js           regenerate
//   node dist/scripts/gen-textmate.js --check   exit 1 when the committed file is stale
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as keywords from "../grammar/src/keywords.js";
import * as tokens from "../grammar/src/tokens.js";
import { writeOrCheck } from "./generated-file.js";
import { buildTextMateGrammar, renderTextMateGrammar } from "./textmate-grammar.js";
import { vocabularyFromLexer } from "./textmate-vocabulary.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const GRAMMAR_FILE = path.join(REPO, "client-vscode/syntaxes/onnxtxt.tmLanguage.json");

/** The grammar file's text as the current lexer defines it. */
export function generatedGrammarText(): string {
  return renderTextMateGrammar(buildTextMateGrammar(vocabularyFromLexer({ ...keywords, tokens })));
}

function main(argv: string[]): number {
  return writeOrCheck(argv, GRAMMAR_FILE, generatedGrammarText(), "node dist/scripts/gen-textmate.js");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
