// Writes docs/grammar.html: railroad diagrams of every rule of the Chevrotain parser
// (grammar/src/parser.ts), drawn by Chevrotain's createSyntaxDiagramsCode from the productions
// the parser records. Chevrotain's diagram renderer (its diagrams/ folder: styles, scripts and
// the vendored railroad-diagrams.js) is inlined from the installed package in place of the
// unpkg links createSyntaxDiagramsCode writes, so that the page works offline.
//   node dist/scripts/gen-grammar-diagrams.js           regenerate
//   node dist/scripts/gen-grammar-diagrams.js --check   exit 1 when the committed file is stale
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createSyntaxDiagramsCode } from "../grammar/src/chevrotain.js";
import { OnnxTextParser } from "../grammar/src/parser.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIAGRAMS_FILE = path.join(REPO, "docs/grammar.html");

/** The renderer's license, named where its code is inlined (Apache-2.0 asks that the notice stays with it). */
const RENDERER_NOTICE =
  "Chevrotain's syntax diagrams renderer (chevrotain/diagrams, https://github.com/Chevrotain/chevrotain), Apache License 2.0; railroad-diagrams.js by Tab Atkins Jr., CC0 (its header below).";

/** `<link>` and `<script src>` tags to unpkg's copy of chevrotain/diagrams/... -> the installed files, inline. */
function inlineRenderer(html: string): string {
  // The package exports only its entry (lib/src/api.js): its root is two folders up.
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve("chevrotain")), "../..");
  const read = (rel: string): string => {
    const text = fs.readFileSync(path.join(root, "diagrams", rel), "utf8");
    if (/<\/(script|style)/i.test(text)) throw new Error(`chevrotain/diagrams/${rel} cannot be inlined: it holds a closing tag`);
    return text;
  };
  let notice = false;
  const note = (): string => {
    if (notice) return "";
    notice = true;
    return `<!-- ${RENDERER_NOTICE} -->\n`;
  };
  const out = html
    .replace(
      /<link rel='stylesheet' href='https:\/\/unpkg\.com\/chevrotain@[^/]+\/diagrams\/([^']+)'>/g,
      (_, rel: string) => `${note()}<style>\n${read(rel)}</style>`,
    )
    .replace(/<script src='https:\/\/unpkg\.com\/chevrotain@[^/]+\/diagrams\/([^']+)'><\/script>/g, (_, rel: string) => `<script>\n${read(rel)}</script>`);
  const left = /(?:src|href)=['"]?https?:/i.exec(out);
  if (left) throw new Error(`the diagrams page still loads something from the network: ${out.slice(left.index, left.index + 80)}`);
  return out;
}

/** The diagrams page as the current grammar defines it. */
export function generatedDiagramsText(): string {
  const html = inlineRenderer(createSyntaxDiagramsCode(new OnnxTextParser(true).getSerializedGastProductions()));
  return `<!-- The onnxtxt grammar: node dist/scripts/gen-grammar-diagrams.js draws it from grammar/src/parser.ts. -->\n<title>onnxtxt grammar</title>\n${html}`;
}

function main(argv: string[]): number {
  return writeOrCheck(argv, DIAGRAMS_FILE, generatedDiagramsText(), "node dist/scripts/gen-grammar-diagrams.js");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
