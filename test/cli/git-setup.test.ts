// `onnxtxt git-setup` in a real git repository (a temporary one, without the user's git
// configuration): after it, `git diff` and `git log -p` on a changed .onnx show the change as
// text lines instead of "Binary files differ"; running it twice changes nothing.
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel } from "../../core/src/index.js";
import { runCli } from "../helpers/cli.js";
import { gitTestEnv, LIGHT } from "../helpers/paths.js";
import { bumpIntsAttribute } from "../diff/pairs.js";

const ENV = gitTestEnv();

describe("onnxtxt git-setup", () => {
  let dir = "";
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-git-"));
    git("init", "-q");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("makes git diff and git log -p show a changed .onnx as text", () => {
    const model = decodeModel(fs.readFileSync(path.join(LIGHT, "light_squeezenet.onnx")));
    const file = path.join(dir, "model.onnx");
    fs.writeFileSync(file, encodeModel(model));
    git("add", "model.onnx");
    git("commit", "-qm", "model");
    const changed = bumpIntsAttribute(model, "Conv");
    fs.writeFileSync(file, encodeModel(changed.model));
    assert.match(git("diff"), /Binary files .* differ/);

    const r = runCli(["git-setup", dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /set diff\.onnx\.textconv = .* print --plain --quiet/);
    assert.match(r.stderr, /added '\*\.onnx diff=onnx'/);
    assert.equal(fs.readFileSync(path.join(dir, ".gitattributes"), "utf8"), "*.onnx diff=onnx\n");

    const lines = (text: string) => text.split("\n").filter((l) => /^[-+][^-+]/.test(l));
    const diff = git("diff");
    assert.doesNotMatch(diff, /Binary files/);
    // the textconv says nothing on the terminal around the diff
    const shown = spawnSync("git", ["diff"], { cwd: dir, env: ENV, encoding: "utf8" });
    assert.equal(shown.stderr, "");
    const changedLines = lines(diff);
    assert.equal(changedLines.length, 2, diff);
    assert.ok(changedLines[0]!.includes(`${changed.attribute} = ${changed.from}`), diff);
    assert.ok(changedLines[1]!.includes(`${changed.attribute} = ${changed.to}`), diff);

    git("commit", "-qam", "bump");
    const log = git("log", "-p", "-1", "--", "model.onnx");
    assert.deepEqual(lines(log), changedLines);

    // again: nothing changes, and it says so
    const again = runCli(["git-setup", dir]);
    assert.equal(again.code, 0);
    assert.match(again.stderr, /is already/);
    assert.match(again.stderr, /is there already/);
    assert.equal(fs.readFileSync(path.join(dir, ".gitattributes"), "utf8"), "*.onnx diff=onnx\n");
  });

  it("outside a repository: one line, exit 2", () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-nogit-"));
    try {
      const r = runCli(["git-setup", outside]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^onnxtxt: .*: .*not a git repository.*\n$/i);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
