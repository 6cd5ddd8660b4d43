// `format --check --diff`: the diff on stdout is one GNU patch applies to turn the file into
// exactly what `format` prints; a formatted file gives no diff.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../helpers/cli.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("format --check --diff", () => {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-fmtdiff-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints a diff that patch(1) applies to give the formatted text, comments kept; none for a formatted file", () => {
    // an example, mangled: indentation, spacing, and comments in between
    const original = fs.readFileSync(path.join(REPO, "examples/convnet.onnxtxt"), "utf8");
    const mangled = original.replace(/^ {2}(\S+) = (\w+) /gm, "      $1=$2 ").replace(/\n\}\n$/, "\n  # a last word\n}\n");
    assert.notEqual(mangled, original);
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, mangled);
    const formatted = runCli(["format", file]).stdout;
    const r = runCli(["format", "--check", "--diff", file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /m\.onnxtxt: not formatted/);
    assert.match(r.stdout, /^--- .*m\.onnxtxt\n\+\+\+ .*m\.onnxtxt\n@@ /);
    const patched = path.join(dir, "patched.onnxtxt");
    fs.writeFileSync(patched, mangled);
    const p = spawnSync("patch", ["--quiet", patched], { input: r.stdout, encoding: "utf8" });
    assert.equal(p.status, 0, p.stderr + p.stdout);
    assert.equal(fs.readFileSync(patched, "utf8"), formatted);
    assert.ok(formatted.includes("# a last word"));
    assert.equal(fs.readFileSync(file, "utf8"), mangled, "--check --diff writes nothing");
    fs.writeFileSync(file, formatted);
    const clean = runCli(["format", "--diff", file]);
    assert.deepEqual([clean.code, clean.stdout, clean.stderr], [0, "", ""]);
    assert.equal(runCli(["format", "--write", "--diff", file]).code, 2);
  });
});
