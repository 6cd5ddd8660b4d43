// `onnxtxt check` and `onnxtxt convert` on text input: every syntax error on its own line as
// FILE:LINE:COL: error: MESSAGE [code], exit 1 on errors, no output file written.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { PRINTED } from "../helpers/paths.js";

const THREE_ERRORS = `<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) {
  a = Relu (x
  b = Add (a a)
  c = Mul <alpha = > (b, b)
  y = Identity (c)
}
`;

describe("onnxtxt check / convert on text", () => {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-check-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reports three syntax errors on three lines and exits 1", () => {
    const file = path.join(dir, "bad.onnxtxt");
    fs.writeFileSync(file, THREE_ERRORS);
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 3, r.stderr);
    assert.deepEqual(
      lines.map((l) => /^(.*):(\d+):(\d+): error: .+ \[syntax\]$/.exec(l)?.slice(1, 3)),
      [
        [file, "3"],
        [file, "4"],
        [file, "5"],
      ],
    );
  });

  it("reports errors the reference parser finds while reading values beside syntax errors, in one pass", () => {
    const file = path.join(dir, "mixed.onnxtxt");
    fs.writeFileSync(
      file,
      `<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  a = Relu (x x)
  y = Identity (a) <perm = [1, 2.5]>
  z = Cast <to = [1, "s"]> (a, )
}
`,
    );
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    const found = r.stderr
      .trimEnd()
      .split("\n")
      .map((l) => /^.*:(\d+):\d+: error: .+ \[([a-z-]+)\]$/.exec(l)?.slice(1, 3));
    assert.deepEqual(
      found,
      [
        ["3", "syntax"],
        ["4", "type-mismatch"],
        ["5", "type-mismatch"],
      ],
      r.stderr,
    );
  });

  it("is silent and exits 0 on clean files, text and binary", () => {
    const text = path.join(PRINTED, "test_loop11.onnxtxt");
    const binary = path.join(PRINTED, "test_loop11.parsed.onnx");
    const r = runCli(["check", text, binary]);
    assert.deepEqual([r.code, r.stderr, r.stdout], [0, "", ""]);
  });

  it("reports lowering errors with their codes", () => {
    const file = path.join(dir, "types.onnxtxt");
    fs.writeFileSync(file, "g () => (y) <float16[1] h = {1.5}> {\n  y = Op <a: int = 2.5> ()\n}\n");
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^.*types\.onnxtxt:1:30: error: float16 tensor elements must be integers, found 1\.5 .*\[bad-literal\]\n.*types\.onnxtxt:2:20: error: .* \[type-mismatch\]\n$/,
    );
  });

  it("convert fails with exit 1 on syntax errors and writes nothing", () => {
    const file = path.join(dir, "bad.onnxtxt");
    fs.writeFileSync(file, THREE_ERRORS);
    const out = path.join(dir, "bad.onnx");
    const r = runCli(["convert", file, out]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trimEnd().split("\n").length, 3);
    assert.ok(!fs.existsSync(out));
    assert.deepEqual(fs.readdirSync(dir), ["bad.onnxtxt"]);
  });

  it("convert turns printed texts into the reference parser's bytes, one by one and in a batch", () => {
    const names = ["test_loop11", "test_if_seq", "test_cast_FLOAT_to_INT4", "test_layer_normalization_2d_axis0_expanded"];
    const inputs = names.map((n) => path.join(PRINTED, `${n}.onnxtxt`));
    const one = path.join(dir, "one.onnx");
    assert.equal(runCli(["convert", inputs[0]!, one]).code, 0);
    assert.ok(fs.readFileSync(one).equals(fs.readFileSync(path.join(PRINTED, `${names[0]}.parsed.onnx`))));
    const out = path.join(dir, "out");
    const r = runCli(["convert", "--to", "onnx", "--out-dir", out, ...inputs]);
    assert.equal(r.code, 0, r.stderr);
    for (const n of names) {
      assert.ok(fs.existsSync(path.join(out, `${n}.onnx`)), n);
    }
  });

  it("a batch with a broken text reports it, converts the rest and exits 1", () => {
    const bad = path.join(dir, "bad.onnxtxt");
    fs.writeFileSync(bad, THREE_ERRORS);
    const good = path.join(dir, "good.onnxtxt");
    fs.copyFileSync(path.join(PRINTED, "test_abs.onnxtxt"), good);
    const out = path.join(dir, "out");
    const r = runCli(["convert", "--to", "onnx", "--out-dir", out, bad, good]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trimEnd().split("\n").length, 3);
    assert.deepEqual(fs.readdirSync(out), ["good.onnx"]);
  });
});
