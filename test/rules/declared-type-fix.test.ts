// The fix for `declared-type-mismatch` (unsafe: it changes the declared interface): the
// declaration takes the type inference proves. Checked against onnx's strict shape inference
// (Debian's python3-onnx) on AlexNet, whose value_info and output types onnx itself wrote: a
// declaration made wrong comes back as onnx had it.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fixAll } from "../../core/src/ide/fix-all.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { runCli } from "../helpers/cli.js";
import { printedAlexNet, python } from "./alexnet-oracle.js";

/** onnx's parser reads the text, and its shape inference in strict mode accepts the model (or says why not). */
function onnxStrictInference(file: string): { ok: boolean; stderr: string } {
  return python(
    `import sys, onnx, onnx.parser, onnx.shape_inference
m = onnx.parser.parse_model(open(sys.argv[1]).read())
onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)`,
    file,
  );
}

const codes = (text: string): string[] => analyze(text).diagnostics.map((d) => d.code);

describe("declared-type-mismatch fix", function () {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-dtm-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("on AlexNet with onnx's value_info: a wrong output shape and a wrong value_info are declared back as onnx infers them, only with --unsafe-fixes", () => {
    const file = printedAlexNet(dir);
    const good = fs.readFileSync(file, "utf8");
    assert.ok(onnxStrictInference(file).ok, "the printed model passes onnx's strict inference");
    const bad = good.replace("=> (float[1, 1000] prob_1)", "=> (float[1, 999] prob_1)").replace("  float[1, 4096] r20,", "  int64[4096] r20,");
    assert.ok(bad.includes("(float[1, 999] prob_1)") && bad.includes("int64[4096] r20,"), "both declarations changed");
    fs.writeFileSync(file, bad);
    // the oracle sees the problem too
    assert.ok(!onnxStrictInference(file).ok, "onnx's strict inference refuses the wrong declarations");

    const safe = runCli(["check", "--fix", file]);
    assert.equal(fs.readFileSync(file, "utf8"), bad, "--fix alone leaves declarations as they are");
    assert.equal(safe.stderr.match(/\[declared-type-mismatch\]/g)?.length, 2, safe.stderr);

    const r = runCli(["check", "--fix", "--unsafe-fixes", file]);
    assert.match(r.stderr, /alexnet\.onnxtxt:\d+:\d+: fixed declared-type-mismatch: Declare 'prob_1' as the inferred float\[1, 1000\]/);
    assert.match(r.stderr, /alexnet\.onnxtxt:\d+:\d+: fixed declared-type-mismatch: Declare 'r20' as the inferred float\[1, 4096\]/);
    assert.doesNotMatch(r.stderr, /\[declared-type-mismatch\]/);
    assert.equal(fs.readFileSync(file, "utf8"), good, "the declarations are onnx's again, and nothing else changed");
    const onnx = onnxStrictInference(file);
    assert.ok(onnx.ok, onnx.stderr);
  });

  it("element type, rank and symbolic dimensions: the result checks clean and passes onnx's strict inference; comments stay", () => {
    const H = '<ir_version: 8, opset_import: ["" : 13]>\n';
    for (const body of [
      "g (float[2] x) => (int64[2] y) {  # the output\n  y = Relu (x)\n}\n",
      "g (float[N, 3] x, float[3, 4] w) => (float[N, 5] y) <\n  float[N, 2] t  # the product\n> {\n  t = MatMul (x, w)\n  y = Relu (t)\n}\n",
      "g (float[2, 3] x) => (float[6] y) {\n  y = Transpose (x)\n}\n",
      "g (float[N, 3] x) => (float[N, 3] y) <float[N] s> {\n  s = ReduceSum <keepdims = 1> (x)\n  y = Sub (x, s)\n}\n",
    ]) {
      const text = H + body;
      assert.ok(codes(text).includes("declared-type-mismatch"), body);
      assert.deepEqual(fixAll(text).applied, [], "not a safe fix");
      const r = fixAll(text, { unsafe: true });
      assert.ok(r.applied.length > 0 && r.applied.every((f) => f.code === "declared-type-mismatch"), JSON.stringify(r.applied));
      assert.deepEqual(codes(r.text), [], r.text);
      for (const comment of text.match(/# [^\n]*/g) ?? []) assert.ok(r.text.includes(comment), comment);
      const file = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(file, text);
      assert.ok(!onnxStrictInference(file).ok, `onnx refuses the original too:\n${text}`);
      fs.writeFileSync(file, r.text);
      const onnx = onnxStrictInference(file);
      assert.ok(onnx.ok, `${r.text}\n${onnx.stderr}`);
    }
  });

  it("the fix honours suppressions: a suppressed mismatch stays", () => {
    const text = '<ir_version: 8, opset_import: ["" : 13]>\ng (float[2] x) => (int64[2] y) {  # onnxtxt: ignore[declared-type-mismatch]\n  y = Relu (x)\n}\n';
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, text);
    const r = runCli(["check", "--fix", "--unsafe-fixes", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(file, "utf8"), text);
  });
});
