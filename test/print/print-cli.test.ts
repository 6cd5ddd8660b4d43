// The `print`, `convert` (to text) and `format` commands as a user runs them.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { GraphProtoSchema, ModelProtoSchema, TensorProtoSchema, ValueInfoProtoSchema } from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { runCli } from "../helpers/cli.js";
import { NODE_TESTS } from "../helpers/paths.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-print-"));
}

/** A model with one big float tensor in float_data and one in raw_data, and a small one. */
function bigModel(): Uint8Array {
  const floats = Array.from({ length: 5000 }, (_, i) => Math.fround(Math.sin(i) * 100));
  const raw = new Uint8Array(new Float32Array(floats).buffer);
  const m = create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [{ domain: "", version: 21n }],
    graph: create(GraphProtoSchema, {
      name: "big",
      initializer: [
        create(TensorProtoSchema, { name: "typed", dataType: 1, dims: [5000n], floatData: floats }),
        create(TensorProtoSchema, { name: "raw", dataType: 1, dims: [5000n], rawData: raw }),
        create(TensorProtoSchema, { name: "small", dataType: 7, dims: [2n], int64Data: [1n, 2n] }),
      ],
      output: ["typed", "raw", "small"].map((name) => create(ValueInfoProtoSchema, { name })),
    }),
  });
  return encodeModel(m);
}

describe("print and convert to text (CLI)", function () {
  this.timeout(60_000);

  it("prints a binary model to stdout", () => {
    const r = runCli(["print", path.join(NODE_TESTS, "test_abs/model.onnx")]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^#@model \{"@node_domain":"unset"\}\n<ir_version: 7, opset_import: \["" : 13\], producer_name: "backend-test">\ntest_abs \(float\[3, 4, 5\] x\) => \(float\[3, 4, 5\] y\) \{\n  y = Abs \(x\)\n\}\n$/,
    );
  });

  it("writes to a file with -o, the sidecar beside it, and leaves nothing when it fails", () => {
    const dir = tempDir();
    try {
      const stdout = runCli(["print", path.join(NODE_TESTS, "test_abs/model.onnx")]).stdout;
      const out = path.join(dir, "abs.txt");
      const r = runCli(["print", "-o", out, path.join(NODE_TESTS, "test_abs/model.onnx")]);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
      assert.equal(fs.readFileSync(out, "utf8"), stdout);
      fs.writeFileSync(path.join(dir, "big.onnx"), bigModel());
      const big = path.join(dir, "sub", "big.onnxtxt");
      fs.mkdirSync(path.dirname(big));
      assert.equal(runCli(["print", "--external-data", "1k", "--output", big, path.join(dir, "big.onnx")]).code, 0);
      const sidecars = fs.readdirSync(path.dirname(big)).filter((f) => /^big\.onnxtxt\.[0-9a-f]{16}\.data$/.test(f));
      assert.equal(sidecars.length, 1);
      assert.equal(fs.statSync(path.join(dir, "sub", sidecars[0]!)).size, 40032);
      const failed = runCli(["print", "-o", path.join(dir, "bad.onnxtxt"), path.join(dir, "missing.onnx")]);
      assert.equal(failed.code, 2);
      assert.ok(!fs.existsSync(path.join(dir, "bad.onnxtxt")));
      assert.deepEqual(fs.readdirSync(dir).sort(), ["abs.txt", "big.onnx", "sub"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a missing file and a bad size as usage or file errors (exit 2)", () => {
    const missing = runCli(["print", "/nonexistent/m.onnx"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^onnxtxt: \/nonexistent\/m\.onnx: no such file or directory\n$/);
    const badSize = runCli(["print", "--external-data", "lots", path.join(NODE_TESTS, "test_abs/model.onnx")]);
    assert.equal(badSize.code, 2);
    assert.match(badSize.stderr, /'lots' is not a size/);
  });

  it("moves big tensors to a sidecar with --external-data and restores them exactly", () => {
    const dir = tempDir();
    try {
      const original = bigModel();
      fs.writeFileSync(path.join(dir, "big.onnx"), original);
      const toText = runCli(["convert", "--external-data", "1k", path.join(dir, "big.onnx"), path.join(dir, "big.onnxtxt")]);
      assert.equal(toText.code, 0, toText.stderr);
      const text = fs.readFileSync(path.join(dir, "big.onnxtxt"), "utf8");
      const sidecar = /"location": "(big\.onnxtxt\.[0-9a-f]{16}\.data)"/.exec(text)?.[1];
      assert.ok(sidecar, text);
      const flat = text
        .replace(/\[\n\s*/g, "[")
        .replace(/,\n\s*/g, ", ")
        .replace(/\n\s*\]/g, "]");
      assert.ok(flat.includes(`float[5000] typed = ["location": "${sidecar}", "offset": "0", "length": "20000"]`), flat);
      assert.ok(flat.includes(`float[5000] raw = ["location": "${sidecar}", "offset": "20032", "length": "20000"]`), flat);
      assert.match(text, /int64\[2\] small = \{1, 2\}/);
      assert.equal(fs.statSync(path.join(dir, sidecar)).size, 40032);
      const back = runCli(["convert", path.join(dir, "big.onnxtxt"), path.join(dir, "back.onnx")]);
      assert.equal(back.code, 0, back.stderr);
      assert.ok(Buffer.from(original).equals(fs.readFileSync(path.join(dir, "back.onnx"))));
      // The same through `print -o`, which writes the sidecar beside its output.
      fs.mkdirSync(path.join(dir, "p"));
      const printed = runCli(["print", "--external-data", "1024", "-o", path.join(dir, "p", "big.onnxtxt"), path.join(dir, "big.onnxtxt")]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(fs.readFileSync(path.join(dir, "p", "big.onnxtxt"), "utf8"), text);
      assert.ok(fs.readFileSync(path.join(dir, "p", sidecar)).equals(fs.readFileSync(path.join(dir, sidecar))));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("converts in batch to text and back", () => {
    const dir = tempDir();
    try {
      const inputs = ["test_abs", "test_if", "test_loop11"].map((t) => path.join(NODE_TESTS, t, "model.onnx"));
      assert.equal(runCli(["convert", "--to", "onnxtxt", "--out-dir", path.join(dir, "t"), ...inputs]).code, 0);
      const texts = ["test_abs", "test_if", "test_loop11"].map((t) => path.join(dir, "t", t, "model.onnxtxt"));
      assert.equal(runCli(["convert", "--to", "onnx", "--out-dir", path.join(dir, "b"), ...texts]).code, 0);
      for (const t of ["test_abs", "test_if", "test_loop11"]) {
        const a = encodeModel(decodeModel(fs.readFileSync(path.join(NODE_TESTS, t, "model.onnx"))));
        assert.ok(Buffer.from(a).equals(fs.readFileSync(path.join(dir, "b", t, "model.onnx"))), t);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("format (CLI)", function () {
  this.timeout(60_000);
  const messy = '<ir_version: 10,opset_import: ["" : 21]>\ng(float[2] x)=>(float[2] y){\n  y=Relu(x) # keep me\n}\n';
  const tidy = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) {\n  y = Relu (x) # keep me\n}\n';

  it("writes to stdout, checks, and rewrites in place", () => {
    const dir = tempDir();
    try {
      const file = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(file, messy);
      const out = runCli(["format", file]);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, tidy);
      assert.equal(fs.readFileSync(file, "utf8"), messy, "stdout mode must not touch the file");
      const check = runCli(["format", "--check", file]);
      assert.equal(check.code, 1);
      assert.equal(check.stderr, `${file}: not formatted\n`);
      assert.equal(runCli(["format", "--write", file]).code, 0);
      assert.equal(fs.readFileSync(file, "utf8"), tidy);
      assert.equal(runCli(["format", "--check", file]).code, 0);
      assert.deepEqual(fs.readdirSync(dir), ["m.onnxtxt"], "no temporary files left behind");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses text with syntax errors: exit 1, errors with file:line:col, file untouched", () => {
    const dir = tempDir();
    try {
      const file = path.join(dir, "bad.onnxtxt");
      const bad = "g (x) => (y) {\n  y = Relu(x\n}\n";
      fs.writeFileSync(file, bad);
      const r = runCli(["format", "--write", file]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:13: error: .+ \\[syntax\\]`, "m"));
      assert.equal(fs.readFileSync(file, "utf8"), bad);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects conflicting options", () => {
    assert.equal(runCli(["format", "--write", "--check", "x.onnxtxt"]).code, 2);
    assert.equal(runCli(["format"]).code, 2);
  });
});
