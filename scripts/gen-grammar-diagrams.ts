// Writes docs/grammar.html: railroad diagrams of every rule of the Chevrotain parser
// (grammar/src/parser.ts), drawn by Chevrotain's createSyntaxDiagramsCode from the productions
// the parser records. The page loads Chevrotain's diagram renderer from unpkg.
//   node dist/scripts/gen-grammar-diagrams.js           regenerate
//   node dist/scripts/gen-grammar-diagrams.js --check   exit 1 when the committed file is stale
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createSyntaxDiagramsCode } from "../grammar/src/chevrotain.js";
import { OnnxTextParser } from "../grammar/src/parser.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIAGRAMS_FILE = path.join(REPO, "docs/grammar.html");

/** The diagrams page as the current grammar defines it. */
export function generatedDiagramsText(): string {
  const html = createSyntaxDiagramsCode(new OnnxTextParser(true).getSerializedGastProductions());
  return `<!-- The onnxtxt grammar: node dist/scripts/gen-grammar-diagrams.js draws it from grammar/src/parser.ts. -->\n<title>onnxtxt grammar</title>\n${html}`;
}

function main(argv: string[]): number {
  return writeOrCheck(argv, DIAGRAMS_FILE, generatedDiagramsText(), "node dist/scripts/gen-grammar-diagrams.js");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
