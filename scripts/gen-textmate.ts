// Writes client-vscode/syntaxes/onnxtxt.tmLanguage.json from the lexer's token table.
//   node dist/scripts/gen-textmate.js           regenerate
//   node dist/scripts/gen-textmate.js --check   exit 1 when the committed file is stale
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as keywords from "../grammar/src/keywords.js";
import * as tokens from "../grammar/src/tokens.js";
import { buildTextMateGrammar, renderTextMateGrammar } from "./textmate-grammar.js";
import { vocabularyFromLexer } from "./textmate-vocabulary.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const GRAMMAR_FILE = path.join(REPO, "client-vscode/syntaxes/onnxtxt.tmLanguage.json");

/** The grammar file's text as the current lexer defines it. */
export function generatedGrammarText(): string {
  return renderTextMateGrammar(buildTextMateGrammar(vocabularyFromLexer({ ...keywords, tokens })));
}

function main(argv: string[]): number {
  const text = generatedGrammarText();
  if (argv.includes("--check")) {
    const current = fs.existsSync(GRAMMAR_FILE) ? fs.readFileSync(GRAMMAR_FILE, "utf8") : "";
    if (current === text) return 0;
    process.stderr.write(`${path.relative(REPO, GRAMMAR_FILE)} is stale: run node dist/scripts/gen-textmate.js\n`);
    return 1;
  }
  fs.writeFileSync(GRAMMAR_FILE, text);
  process.stdout.write(`wrote ${path.relative(REPO, GRAMMAR_FILE)}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
