// The repository's .pre-commit-hooks.yaml run by Debian's real pre-commit in a temporary git
// repository, as `repo: local` hooks calling this checkout's CLI (language: system, so pre-commit
// installs and downloads nothing): committing an unformatted file reformats it and fails the
// commit; a file with an error blocks the commit; a clean file commits.
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CLI, gitTestEnv, REPO } from "../helpers/paths.js";

const PRE_COMMIT = "/usr/bin/pre-commit";

/** The hooks of .pre-commit-hooks.yaml as `repo: local` hooks running this checkout's CLI. */
function localHooks(): string {
  const published = fs.readFileSync(path.join(REPO, ".pre-commit-hooks.yaml"), "utf8");
  const hooks = published
    .split(/^- /m)
    .slice(1)
    .map((block) => {
      const field = (name: string) => new RegExp(`^\\s*${name}: (.*)$`, "m").exec(`  ${block}`)?.[1];
      const entry = field("entry")!.replace(/^onnxtxt /, `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} `);
      return `      - id: ${field("id")}\n        name: ${field("name")}\n        entry: '${entry}'\n        language: system\n        files: '${field("files")}'\n`;
    });
  assert.equal(hooks.length, 2);
  return `repos:\n  - repo: local\n    hooks:\n${hooks.join("")}`;
}

const UNFORMATTED = `<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) {
   # keep me
   t=Relu(x)
      y = Relu (t)
}
`;

describe("pre-commit hooks (.pre-commit-hooks.yaml)", function () {
  let dir = "";
  let env: NodeJS.ProcessEnv = {};
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const commit = () => spawnSync("git", ["commit", "-qm", "change"], { cwd: dir, env, encoding: "utf8" });

  before(function () {
    if (!fs.existsSync(PRE_COMMIT)) {
      console.log(`    skipped: ${PRE_COMMIT} is not installed (Debian package pre-commit)`);
      this.skip();
    }
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-pre-commit-"));
    env = gitTestEnv({
      HOME: dir,
      PRE_COMMIT_HOME: path.join(dir, ".cache-pre-commit"),
      // nothing may be fetched: a hook that tried would fail here
      http_proxy: "http://127.0.0.1:9",
      https_proxy: "http://127.0.0.1:9",
    });
    git("init", "-q");
    fs.writeFileSync(path.join(dir, ".pre-commit-config.yaml"), localHooks());
    execFileSync(PRE_COMMIT, ["install"], { cwd: dir, env, stdio: "pipe" });
    git("add", ".pre-commit-config.yaml");
    assert.equal(commit().status, 0);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reformats an unformatted file and fails the commit; the reformatted file then commits", () => {
    const file = path.join(dir, "model.onnxtxt");
    fs.writeFileSync(file, UNFORMATTED);
    git("add", "model.onnxtxt");
    const r = commit();
    assert.notEqual(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /onnxtxt format\.+Failed[\s\S]*files were modified by this hook/);
    const formatted = fs.readFileSync(file, "utf8");
    assert.notEqual(formatted, UNFORMATTED);
    assert.ok(formatted.includes("# keep me"));
    // the hook wrote what `onnxtxt format` prints
    assert.equal(formatted, execFileSync(process.execPath, [CLI, "format", "-"], { input: UNFORMATTED, encoding: "utf8" }));
    assert.equal(git("log", "--oneline").trim().split("\n").length, 1);
    git("add", "model.onnxtxt");
    const again = commit();
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.equal(git("log", "--oneline").trim().split("\n").length, 2);
  });

  it("blocks the commit of a file with an error, naming it with FILE:LINE:COL", () => {
    const text = execFileSync(process.execPath, [CLI, "format", "-"], { input: UNFORMATTED, encoding: "utf8" }).replace("Relu (t)", "Relu (missing)");
    fs.writeFileSync(path.join(dir, "bad.onnxtxt"), text);
    git("add", "bad.onnxtxt");
    const r = commit();
    assert.notEqual(r.status, 0);
    assert.match(r.stdout + r.stderr, /onnxtxt check\.+Failed[\s\S]*bad\.onnxtxt:\d+:\d+: error: .*\[undefined-value\]/);
    assert.equal(git("log", "--oneline").trim().split("\n").length, 1);
  });
});
