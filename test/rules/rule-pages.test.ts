// docs/rules/ is what core/src/check/rule-docs.ts says today, and every code the stages can
// report has a page.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { CHECK_CODES } from "../../core/src/check/codes.js";
import { ruleDocOf } from "../../core/src/check/rule-docs.js";
import { RULES_DIR, rulePages } from "../../scripts/gen-rule-docs.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Codes the source reports: `code: "x"`, `.error("x"`, `.warn("x"` and the CLI's constants. */
function reportedCodes(): Set<string> {
  const codes = new Set<string>();
  const patterns = [/\bcode: "([a-z][a-z0-9-]*)"/g, /\.(?:error|warn)\(\s*"([a-z][a-z0-9-]*)"/g, /_CODE = "([a-z][a-z0-9-]*)"/g];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) {
        const text = fs.readFileSync(p, "utf8");
        for (const re of patterns) for (const mm of text.matchAll(re)) codes.add(mm[1]!);
      }
    }
  };
  for (const d of ["grammar/src", "core/src", "cli/src"]) walk(path.join(REPO, d));
  return codes;
}

describe("rule pages: docs/rules", () => {
  it("are up to date, with no stray page", () => {
    const pages = rulePages();
    for (const [name, text] of pages) assert.equal(fs.readFileSync(path.join(RULES_DIR, name), "utf8"), text, `stale ${name}: run npm run gen:rules`);
    assert.deepEqual(fs.readdirSync(RULES_DIR).sort(), [...pages.keys()].sort());
  });

  it("cover every code in CHECK_CODES and every code the source reports", () => {
    const codes = new Set([...Object.keys(CHECK_CODES), ...reportedCodes()]);
    assert.ok(codes.has("negative-dimension") && codes.has("syntax") && codes.has("external-data"), "the source scan finds codes");
    for (const c of codes) assert.ok(ruleDocOf(c), `no page for ${c}`);
  });
});
