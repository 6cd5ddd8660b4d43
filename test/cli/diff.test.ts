// `onnxtxt diff A B` as a user runs it: the text report with FILE:LINE:COL in both inputs, the
// unified and JSON formats, stdin, diff(1)'s exit codes (0 equal, 1 different, 2 trouble), and
// bad input: not a model, a damaged binary, a syntax error, cycles, duplicate names, subgraphs
// nested 100 levels deep (and deeper), never a stack trace.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel, printModel } from "../../core/src/index.js";
import { runCli } from "../helpers/cli.js";
import { CLI, LIGHT, REPO } from "../helpers/paths.js";
import { bumpIntsAttribute, renameAll } from "../diff/pairs.js";
import { externalAddModel } from "../robust/harness/external-model.js";

const HEADER = `<ir_version: 8, opset_import: ["" : 18]>`;

const A = `${HEADER}
g (float[N] x) => (float[N] y) {
  a = Relu (x)
  b = LeakyRelu <alpha = 0.5> (a)
  y = Sigmoid (b)
}
`;

const B = `${HEADER}
g (float[N] x) => (float[N] y) {
  a = Relu (x)
  b = LeakyRelu <alpha = 0.25> (a)
  y = Sigmoid (b)
}
`;

/** If nodes nested `depth` levels, the innermost computing `op (x)`. */
function nested(depth: number, op: string): string {
  let body = `y${depth} = ${op} (x)`;
  for (let d = depth - 1; d >= 0; d--) {
    const inner = `then_branch = t${d} () => (float[2] y${d + 1}) {\n${body}\n}, else_branch = e${d} () => (float[2] z${d}) {\nz${d} = Identity (x)\n}`;
    body = `y${d} = If (c) <${inner}>`;
  }
  return `${HEADER}\ng (bool c, float[2] x) => (float[2] y0) {\n${body}\n}\n`;
}

const noStack = (s: string) => !/\n\s+at /.test(s);

describe("onnxtxt diff", () => {
  let dir = "";
  const file = (name: string, content: string | Uint8Array): string => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, content);
    return f;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-diff-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reports a changed attribute with FILE:LINE:COL in both inputs and exits 1", () => {
    const a = file("a.onnxtxt", A);
    const b = file("b.onnxtxt", B);
    const r = runCli(["diff", a, b]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, `~ node LeakyRelu: attribute alpha: 0.5 -> 0.25\n    ${a}:4:3\n    ${b}:4:3\n1 change: 1 changed\n`);
    assert.equal(r.stderr, "");
  });

  it("exits 0 and prints nothing for a model against itself printed as text, also from stdin", () => {
    const bin = path.join(LIGHT, "light_resnet50.onnx");
    const text = file("resnet.onnxtxt", printModel(decodeModel(fs.readFileSync(bin))));
    const r = runCli(["diff", bin, text]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "");
    const piped = spawnSync(process.execPath, [CLI, "diff", "-", bin], { input: fs.readFileSync(text), encoding: "utf8" });
    assert.equal(piped.status, 0, piped.stderr);
  });

  it("--format json: each change with its kind, message and places in both inputs", () => {
    const r = runCli(["diff", "--format", "json", file("a.onnxtxt", A), file("b.onnxtxt", B)]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.equal(out.equal, false);
    assert.equal(out.changes.length, 1);
    const c = out.changes[0];
    assert.equal(c.kind, "node-changed");
    assert.deepEqual(c.details, ["attribute alpha: 0.5 -> 0.25"]);
    assert.deepEqual([c.a.line, c.a.column, c.b.line, c.b.column], [4, 3, 4, 3]);
    assert.equal(c.a.path, "main / node 1 (LeakyRelu)");
  });

  it("--format unified: the canonical texts with names aligned; renames alone make no lines", () => {
    const resnet = decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx")));
    const a = file("a.onnx", encodeModel(resnet));
    const renamed = file("renamed.onnx", encodeModel(renameAll(resnet).model));
    const same = runCli(["diff", "--format", "unified", a, renamed]);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, "");
    const bumped = bumpIntsAttribute(renameAll(resnet).model, "Conv");
    const b = file("b.onnx", encodeModel(bumped.model));
    const r = runCli(["diff", "--format", "unified", a, b]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split("\n");
    assert.deepEqual(lines.slice(0, 2), [`--- ${a}`, `+++ ${b}`]);
    assert.match(lines[2]!, /^@@ -\d+,7 \+\d+,7 @@$/);
    const changed = lines.filter((l) => /^[-+][^-+]/.test(l));
    assert.equal(changed.length, 2, r.stdout);
    assert.ok(changed[0]!.includes(`${bumped.attribute} = ${bumped.from}`) && changed[1]!.includes(`${bumped.attribute} = ${bumped.to}`), r.stdout);
    // the patch applies: patch(1) turns A's text into B's (names aligned)
    const aText = file("a.txt", printModel(resnet));
    const patched = spawnSync("patch", ["-o", path.join(dir, "out.txt"), aText], { input: r.stdout, encoding: "utf8" });
    assert.equal(patched.status, 0, patched.stdout + patched.stderr);
  });

  it("--ignore-weights and --rtol/--atol reach the comparison; bad values are usage errors", () => {
    const a = file("a.onnxtxt", `${HEADER}\ng (float[2] x) => (float[2] y) <float[2] w = {1, 2}> {\n  y = Add (x, w)\n}\n`);
    const b = file("b.onnxtxt", `${HEADER}\ng (float[2] x) => (float[2] y) <float[2] w = {1, 2.001}> {\n  y = Add (x, w)\n}\n`);
    const r = runCli(["diff", a, b]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /initializer w: float\[2\]: 1 of 2 elements differ, max abs diff 0\.000999928/);
    assert.equal(runCli(["diff", "--ignore-weights", a, b]).code, 0);
    assert.equal(runCli(["diff", "--atol", "0.01", a, b]).code, 0);
    assert.equal(runCli(["diff", "--rtol", "1e-6", a, b]).code, 1);
    const bad = runCli(["diff", "--rtol", "abc", a, b]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--rtol takes a number >= 0, not 'abc'/);
    assert.equal(runCli(["diff", "-", "-"]).code, 2);
    assert.equal(runCli(["diff", a]).code, 2);
  });

  it("compares external data by value, read beside each model; unreadable data by its reference, with a note", () => {
    const floats = (xs: number[]) => new Uint8Array(new Float32Array(xs).buffer);
    fs.mkdirSync(path.join(dir, "b"));
    const a = file("m.onnx", encodeModel(externalAddModel(4, "w.bin")));
    const b = file("b/m.onnx", encodeModel(externalAddModel(4, "w.bin")));
    file("w.bin", floats([1, 2, 3, 4]));
    file("b/w.bin", floats([1, 2, 3.5, 4]));
    const r = runCli(["diff", a, b]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /initializer w: float\[4\]: 1 of 4 elements differ, max abs diff 0\.5, max rel diff 0\.142857/);
    assert.equal(runCli(["diff", "--ignore-weights", a, b]).code, 0);
    fs.rmSync(path.join(dir, "b/w.bin"));
    const unread = runCli(["diff", a, b]);
    assert.equal(unread.code, 0, unread.stdout);
    assert.match(unread.stderr, /^onnxtxt diff: note: .*b\/m\.onnx: external data of tensor 'w' not read \(.*\); compared by its reference\n$/);
  });

  describe("bad input: a clear error (exit 2) or a correct report, no crash", () => {
    it("a file that is not a model", () => {
      const r = runCli(["diff", file("a.onnxtxt", A), path.join(REPO, "package.json")]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^onnxtxt: .*package\.json: this file looks like JSON, not a model\n$/);
    });

    it("a damaged binary", () => {
      const bytes = fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"));
      const damaged = file("damaged.onnx", bytes.subarray(0, bytes.length >> 1));
      const r = runCli(["diff", path.join(LIGHT, "light_resnet50.onnx"), damaged]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^onnxtxt: .*damaged\.onnx: .+\n$/);
      assert.ok(noStack(r.stderr));
    });

    it("a text with a syntax error: FILE:LINE:COL, exit 2 (not 1, which means different)", () => {
      const bad = file("bad.onnxtxt", A.replace("a = Relu (x)", "a = Relu (x"));
      const r = runCli(["diff", file("a.onnxtxt", A), bad]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`^${bad}:\\d+:\\d+: error: .+ \\[syntax\\]\n$`));
      assert.equal(r.stdout, "");
    });

    it("a graph with a cycle", () => {
      const cycle = (op: string) => `${HEADER}\ng (float[2] x) => (float[2] y) {\n  a = Add (x, b)\n  b = ${op} (a)\n  y = Identity (b)\n}\n`;
      const a = file("a.onnxtxt", cycle("Relu"));
      assert.equal(runCli(["diff", a, file("same.onnxtxt", cycle("Relu"))]).code, 0);
      const r = runCli(["diff", "--format", "json", a, file("b.onnxtxt", cycle("Sigmoid"))]);
      assert.equal(r.code, 1, r.stderr);
      const changes = JSON.parse(r.stdout).changes as { kind: string; message: string }[];
      assert.deepEqual(
        changes.map((c) => c.message),
        ["node removed: b = Relu (a)", "node added: b = Sigmoid (a)"],
      );
    });

    it("duplicate names", () => {
      const dup = (op: string) => `${HEADER}\ng (float[2] x) => (float[2] y) {\n  a = Relu (x)\n  a = ${op} (x)\n  y = Identity (a)\n}\n`;
      const a = file("a.onnxtxt", dup("Abs"));
      assert.equal(runCli(["diff", a, file("same.onnxtxt", dup("Abs"))]).code, 0);
      const r = runCli(["diff", a, file("b.onnxtxt", dup("Neg"))]);
      assert.equal(r.code, 1);
      assert.ok(noStack(r.stderr));
      assert.match(r.stdout, /Neg/);
    });

    it("subgraphs nested 100 levels deep: the change at the bottom, with its path and line", () => {
      const a = file("a.onnxtxt", nested(100, "Relu"));
      const b = file("b.onnxtxt", nested(100, "Sigmoid"));
      assert.equal(runCli(["diff", a, file("same.onnxtxt", nested(100, "Relu"))]).code, 0);
      const r = runCli(["diff", "--format", "json", a, b]);
      assert.equal(r.code, 1, r.stderr);
      const changes = JSON.parse(r.stdout).changes as { kind: string; message: string; a: { path: string; line: number } }[];
      assert.equal(changes.length, 1, r.stdout);
      assert.equal(changes[0]!.a.path.split("then_branch").length - 1, 100);
      assert.match(fs.readFileSync(a, "utf8").split("\n")[changes[0]!.a.line - 1]!, /^y100 = Relu \(x\)$/);
      assert.equal(changes[0]!.kind, "node-changed");
    });

    it("subgraphs nested 1000 levels deep: an answer or a one-line error, never a crash", () => {
      const r = runCli(["diff", file("a.onnxtxt", nested(1000, "Relu")), file("b.onnxtxt", nested(1000, "Sigmoid"))]);
      assert.ok(r.code === 1 || r.code === 2, r.stderr);
      assert.ok(noStack(r.stderr), r.stderr);
      // (the parser refuses nesting past 128 levels, at its place)
      if (r.code === 2) assert.match(r.stderr, /^(onnxtxt: .*: .+|.*a\.onnxtxt:\d+:\d+: error: .+)\n$/);
    });
  });
});
