// The README's quick start as a newcomer runs it: every line of its block, one by one, in a fresh
// checkout (the repository's tracked files only, as `git clone` gives them). `npm ci` is stood in
// for by the repository's node_modules and build: the install itself is what `.ci/run` does.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";

/** The block after the `<!-- quick-start` marker. */
function quickStart(readme: string): string[] {
  const m = /<!-- quick-start[^\n]*-->\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "the README has a quick-start block");
  return m[1]!.trimEnd().split("\n");
}

function checkout(to: string): void {
  const r = spawnSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  for (const file of r.stdout.split("\0").filter((f) => f !== "")) {
    const from = path.join(REPO, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(to, "node_modules"));
  fs.symlinkSync(path.join(REPO, "dist"), path.join(to, "dist"));
}

describe("the README's quick start", function () {
  this.timeout(300_000);
  let clone = "";
  before(() => {
    clone = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-readme-"));
    checkout(clone);
  });
  after(() => fs.rmSync(clone, { recursive: true, force: true }));

  it("runs line by line in a fresh checkout and says what the README says", () => {
    const readme = fs.readFileSync(path.join(clone, "README.md"), "utf8");
    const lines = quickStart(readme);
    assert.ok(lines.length >= 6, "a quick start of several steps");
    const outputs: string[] = [];
    for (const line of lines) {
      const r = spawnSync("bash", ["-c", line], { cwd: clone, encoding: "utf8" });
      // diff exits 1 when the models differ, as diff(1) does: that is what this line shows
      const expected = /^npx onnxtxt diff /.test(line) ? 1 : 0;
      assert.equal(r.status, expected, `${line}\n${r.stdout}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${line}: a stack trace`);
      outputs.push(r.stdout);
    }
    const all = outputs.join("");
    // what the prose after the block promises
    assert.match(all, /^y: float\[2,2\] \{/m);
    assert.match(all, /compare ort: y agrees within rtol 0\.001, atol 1e-5/);
    assert.match(all, /op Relu -> LeakyRelu/);
    assert.match(all, /attribute alpha added: 0\.1/);
    assert.ok(fs.statSync(path.join(clone, "mlp.svg")).size > 0);
    assert.match(fs.readFileSync(path.join(clone, "mlp.onnxtxt"), "utf8"), /LeakyRelu <alpha = 0\.1>/);
    // the typo message the README quotes, exactly
    const quoted = /A typo gets a line such as\n`([^`]+)`/.exec(readme);
    assert.ok(quoted, "the README quotes a typo's message");
    const text = path.join(clone, "mlp.onnxtxt");
    fs.writeFileSync(text, fs.readFileSync(text, "utf8").replace("LeakyRelu <", "LeakyRelux <"));
    const typo = spawnSync("npx", ["onnxtxt", "check", "mlp.onnxtxt"], { cwd: clone, encoding: "utf8" });
    assert.equal(typo.status, 1);
    assert.ok((typo.stdout + typo.stderr).includes(quoted[1]!), typo.stdout + typo.stderr);
  });

  it("keeps the two set-up commands and promises no registry install", () => {
    const readme = fs.readFileSync(path.join(clone, "README.md"), "utf8");
    assert.match(readme, /```sh\nnpm ci {6}#[^\n]*\nnpm test {4}#/);
    assert.doesNotMatch(readme, /npm install (-g )?onnxtxt\b/);
    for (const link of readme.matchAll(/\]\(((?:docs|CONTRIBUTING)[^)#]*)\)/g)) {
      if (link[1] === "docs/javascript.md") continue; // written by the library-guide work (#32)
      assert.ok(fs.existsSync(path.join(clone, link[1]!)), `README links to a missing ${link[1]}`);
    }
  });
});
