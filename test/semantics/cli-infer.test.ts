// `onnxtxt infer`: writes value_info for every intermediate value, agrees with the library,
// reports contradictions with exit code 1, and usage errors with 2.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { formatType, fromTypeProto } from "../../core/src/infer/index.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT, LIBONNX_DATA, REPO } from "../helpers/paths.js";
import { model, node } from "./build.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-infer-"));
}

describe("onnxtxt infer", () => {
  it("annotates every intermediate value of a real network", () => {
    const out = tempDir();
    try {
      const input = path.join(LIGHT, "light_squeezenet.onnx");
      const r = runCli(["infer", input, path.join(out, "s.onnx")]);
      assert.equal(r.code, 0, r.stderr);
      const before = decodeModel(fs.readFileSync(input));
      const after = decodeModel(fs.readFileSync(path.join(out, "s.onnx")));
      const outputs = new Set(after.graph!.output.map((o) => o.name));
      const intermediates = before.graph!.node.flatMap((n) => n.output).filter((n) => !outputs.has(n));
      const described = new Map(after.graph!.valueInfo.map((vi) => [vi.name, formatType(fromTypeProto(vi.type))]));
      for (const name of intermediates) assert.ok(described.has(name), `no value_info for ${name}`);
      assert.equal(formatType(fromTypeProto(after.graph!.output[0]!.type)), "float[1,1000,1,1]");
      assert.equal(after.graph!.node.length, before.graph!.node.length);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("writes a batch into DIR and reports contradictions with exit code 1", () => {
    const out = tempDir();
    try {
      const bad = path.join(out, "bad.onnx");
      fs.writeFileSync(
        bad,
        encodeModel(model({ inputs: ["a: float[2,3]", "b: float[4,5]"], outputs: ["y"], nodes: [node("MatMul", ["a", "b"], ["y"], {}, { name: "mm" })] })),
      );
      const good = path.join(out, "good.onnx");
      fs.copyFileSync(path.join(LIBONNX_DATA, "node/test_relu/model.onnx"), good);
      const r = runCli(["infer", "--out-dir", path.join(out, "res"), good, bad]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^.*bad\.onnx: error: graph 'g' > node 'mm' \(MatMul\): MatMul: inner dimensions differ.* \[shape-incompatible\]$/m);
      assert.ok(fs.existsSync(path.join(out, "res/bad.onnx")));
      assert.deepEqual(fs.readdirSync(path.join(out, "res")).sort(), ["bad.onnx", "good.onnx"]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("reports usage and file errors with exit code 2", () => {
    assert.equal(runCli(["infer", "only-one.onnx"]).code, 2);
    const r = runCli(["infer", "/nonexistent/x.onnx", "/tmp/y.onnx"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^onnxtxt: \/nonexistent\/x\.onnx: /);
  });

  it("reads and writes the text format, keeping symbolic dims", () => {
    const out = tempDir();
    try {
      // The example has comments: text -> text drops them only when asked (docs/syntax.md, "Text -> text").
      assert.equal(runCli(["infer", path.join(REPO, "examples/convnet.onnxtxt"), path.join(out, "c.onnxtxt")]).code, 2);
      const r = runCli(["infer", "--drop-comments", path.join(REPO, "examples/convnet.onnxtxt"), path.join(out, "c.onnxtxt")]);
      assert.equal(r.code, 0, r.stderr);
      const text = fs.readFileSync(path.join(out, "c.onnxtxt"), "utf8");
      for (const decl of ["float[N, 2, 8, 8] conv", "float[N, 2, 4, 4] pooled", "float[N, 32] flat", "float[N, 3] logits"])
        assert.ok(text.includes(decl), `missing ${decl}`);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
