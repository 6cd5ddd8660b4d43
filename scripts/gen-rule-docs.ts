// Writes docs/rules/CODE.md for every diagnostic code and the index docs/rules/README.md, from
// core/src/check/rule-docs.ts. With --check, fails when a page is stale or a stray page remains.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RULE_DOCS, RULE_DOCS_DIR, ruleIndexText, rulePageText } from "../core/src/check/rule-docs.js";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const RULES_DIR = path.join(REPO, RULE_DOCS_DIR);
const REGENERATE = "npm run gen:rules";

/** Every generated page: file name -> text. */
export function rulePages(): Map<string, string> {
  const pages = new Map<string, string>([["README.md", ruleIndexText()]]);
  for (const r of RULE_DOCS) pages.set(`${r.code}.md`, rulePageText(r));
  return pages;
}

function main(argv: readonly string[]): number {
  fs.mkdirSync(RULES_DIR, { recursive: true });
  const pages = rulePages();
  let code = 0;
  for (const [name, text] of pages) code = Math.max(code, writeOrCheck(argv, path.join(RULES_DIR, name), text, REGENERATE));
  for (const name of fs.readdirSync(RULES_DIR)) {
    if (pages.has(name)) continue;
    if (argv.includes("--check")) {
      process.stderr.write(`${RULE_DOCS_DIR}/${name} documents no code: run ${REGENERATE}\n`);
      code = 1;
    } else fs.rmSync(path.join(RULES_DIR, name));
  }
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = main(process.argv.slice(2));
