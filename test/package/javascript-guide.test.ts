// docs/javascript.md's examples run as written: each ```js block, its imports of onnxtxt and
// onnxtxt/node pointed at the build, runs from the repository's root and must exit cleanly.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";

const GUIDE = path.join(REPO, "docs/javascript.md");

function examples(): string[] {
  const text = fs.readFileSync(GUIDE, "utf8");
  return [...text.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe("docs/javascript.md (#32)", function () {
  this.timeout(60_000);
  const blocks = examples();

  it("has examples", () => assert.ok(blocks.length >= 4, `${blocks.length} js blocks`));

  blocks.forEach((code, i) => {
    const first = code.split("\n").find((l) => l.trim() !== "" && !l.startsWith("import")) ?? "";
    it(`example ${i + 1} runs (${first.slice(0, 50)})`, () => {
      const script = code
        .replaceAll('from "onnxtxt/node"', `from ${JSON.stringify(path.join(REPO, "dist/core/src/node/index.js"))}`)
        .replaceAll('from "onnxtxt"', `from ${JSON.stringify(path.join(REPO, "dist/core/src/index.js"))}`);
      const file = path.join(REPO, "dist", `guide-example-${i + 1}.mjs`);
      fs.writeFileSync(file, script);
      try {
        const r = spawnSync(process.execPath, [file], { cwd: REPO, encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /Assertion failed/);
        // each `// comment` after a console.log shows what it prints (whitespace aside; a
        // comment starting with "the " describes instead, "..." ends a shown prefix)
        const printed = r.stdout.replace(/\s+/g, "");
        for (const [, shown] of code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)) {
          if (shown!.startsWith("the ")) continue;
          const literal = shown!.replace(/\.\.\.$/, "").replace(/\s+/g, "");
          assert.ok(printed.includes(literal), `printed ${JSON.stringify(r.stdout)}, the guide says ${shown}`);
        }
      } finally {
        fs.rmSync(file, { force: true });
      }
    });
  });
});
