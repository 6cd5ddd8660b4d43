// `onnxtxt run` as a user calls it: test-data folders in and out, inline and file inputs,
// defaults, text models, the ort backends, and one-line errors.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeValue } from "../../core/src/io/index.js";
import { compareValues, valueFromProto } from "../../core/src/interp/index.js";
import { runCli } from "../helpers/cli.js";
import { LIBONNX_DATA, REPO } from "../helpers/paths.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-run-"));
}

const CONV = path.join(LIBONNX_DATA, "pytorch-converted/test_Conv2d");
const SEQ = path.join(LIBONNX_DATA, "node/test_sequence_insert_at_back");
const MLP = path.join(REPO, "examples/mlp.onnxtxt");

describe("onnxtxt run", () => {
  it("reproduces expected outputs with --input-dir and --output-dir", () => {
    const out = tempDir();
    try {
      for (const dir of [CONV, SEQ]) {
        const r = runCli(["run", path.join(dir, "model.onnx"), "--input-dir", path.join(dir, "test_data_set_0"), "--output-dir", out]);
        assert.equal(r.code, 0, r.stderr);
        const kind = dir === SEQ ? "sequence" : "tensor";
        const expected = valueFromProto(decodeValue(fs.readFileSync(path.join(dir, "test_data_set_0/output_0.pb")), kind));
        const actual = valueFromProto(decodeValue(fs.readFileSync(path.join(out, "output_0.pb")), kind));
        assert.equal(compareValues(actual, expected), undefined);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("prints name, type, shape and the first values", () => {
    const r = runCli(["run", MLP, "--input", "x=float[2,4] {1,2,3,4,5,6,7,8}"]);
    assert.equal(r.code, 0, r.stderr);
    // float32 results in their shortest round-trip form (the same text as onnxruntime's below)
    assert.equal(r.stdout, "y: float[2,2] {-0.40500012, 10.35, -0.8049997, 21.55}\n");
  });

  it("runs on seeded defaults with --dim for symbolic dims", () => {
    const a = runCli(["run", MLP, "--dim", "N=3"]);
    const b = runCli(["run", MLP, "--dim", "N=3"]);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /^y: float\[3,2\] \{/);
    assert.equal(a.stdout, b.stdout);
    assert.notEqual(runCli(["run", MLP, "--dim", "N=3", "--seed", "5"]).stdout, a.stdout);
  });

  it("takes .pb and .npy input files by name", () => {
    const dir = tempDir();
    try {
      const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }";
      const padded = header.padEnd(64 - 10 - 1, " ") + "\n";
      const npy = Buffer.concat([
        Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length, 0]),
        Buffer.from(padded),
        Buffer.from(new Float32Array([1, 2, 3, 4]).buffer),
      ]);
      fs.writeFileSync(path.join(dir, "x.npy"), npy);
      const r = runCli(["run", MLP, "--input", `x=${path.join(dir, "x.npy")}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "y: float[1,2] {-0.40500012, 10.35}\n");
      const pb = runCli(["run", path.join(CONV, "model.onnx"), "--input", `0=${path.join(CONV, "test_data_set_0/input_0.pb")}`, "--quiet"]);
      assert.equal(pb.code, 0, pb.stderr);
      assert.equal(pb.stdout, "");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports bad inputs in one line without a stack trace", () => {
    const cases: [string[], RegExp][] = [
      [["run", MLP, "--input", "nope=float {1}"], /no input named 'nope'/],
      [["run", MLP, "--input", "x=float[2] {1,"], /not a tensor constant/],
      [["run", MLP, "--input", "x=/no/such.pb"], /no such file/],
      [["run", MLP, "--backend", "gpu"], /--backend must be/],
    ];
    for (const [argv, pattern] of cases) {
      const r = runCli(argv);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    const wrongShape = runCli(["run", MLP, "--input", "x=float[3] {1,2,3}"]);
    assert.equal(wrongShape.code, 1);
    // checked against the declaration before the run, not found inside MatMul
    assert.match(
      wrongShape.stderr,
      /^onnxtxt: .*mlp\.onnxtxt: input 'x' is declared float\[N,4\] but the value \(--input\) is float\[3\]: rank 1 instead of 2\n$/,
    );
  });

  it("runs with onnxruntime and compares node by node", () => {
    const ort = runCli(["run", MLP, "--backend", "ort", "--input", "x=float[2,4] {1,2,3,4,5,6,7,8}"]);
    assert.equal(ort.code, 0, ort.stderr);
    assert.match(ort.stdout, /^y: float\[2,2\] \{-0\.40500012, 10\.35, -0\.8049997, 21\.55\}/);
    const same = runCli(["run", MLP, "--compare", "ort"]);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /agree/);
    // dropout in training mode draws a different mask in each backend
    const drop = path.join(LIBONNX_DATA, "node/test_training_dropout_mask");
    const diff = runCli(["run", path.join(drop, "model.onnx"), "--input-dir", path.join(drop, "test_data_set_0"), "--compare", "ort"]);
    assert.equal(diff.code, 1, diff.stderr);
    assert.match(diff.stdout, /first difference at node .*\(Dropout\)/);
  });
});
