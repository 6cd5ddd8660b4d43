// The `onnx` tagged template (#32): models and parts from ONNX text in JavaScript, with names and
// tensors interpolated, errors at their place in the template, and the embedded-text finder
// reading the same templates in .js/.ts files for `onnxtxt check`.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkModel, encodeModel, makeTensor, modelFromText, onnx, OnnxtxtError, run, tensorToArray, type TensorProto } from "../../core/src/index.js";
import { runCli } from "../helpers/cli.js";

const HEAD = `<ir_version: 10, opset_import: ["" : 18]>`;

async function constantOutput(value: TensorProto | Float32Array | BigInt64Array): Promise<unknown> {
  const m = onnx`<ir_version: 10, opset_import: ["" : 18]>
g () => (y) {
  y = Constant <value = ${value}> ()
}`;
  const y = (await run(m)).get("y");
  assert.ok(y && y.kind === "tensor");
  return { dims: y.dims, data: Array.from(y.data as ArrayLike<unknown>) };
}

describe("the onnx tagged template (#32)", () => {
  it("reads the same model as modelFromText reads from the same text", () => {
    const text = `${HEAD} g (float[N] x) => (y) { y = Relu (x) }`;
    const m = onnx`<ir_version: 10, opset_import: ["" : 18]> g (float[N] x) => (y) { y = Relu (x) }`;
    assert.deepEqual(encodeModel(m), encodeModel(modelFromText(text).model!));
    assert.deepEqual(encodeModel(onnx.model`<ir_version: 10, opset_import: ["" : 18]> g (float[N] x) => (y) { y = Relu (x) }`), encodeModel(m));
    // a string is always a name: text cannot be spliced in
    assert.throws(() => onnx`${HEAD} g () => () {}`, /onnx template:1:/);
  });

  it("interpolates names, quoting those the syntax cannot take bare", () => {
    const out = "my output";
    const m = onnx`<ir_version: 10, opset_import: ["" : 18]>
g (float[2] x) => (float[2] ${out}) {
  ${out} = Abs (x)
}`;
    assert.equal(m.graph!.output[0]!.name, "my output");
    assert.equal(m.graph!.node[0]!.output[0], "my output");
    assert.deepEqual(checkModel(m), []);
  });

  it("interpolates tensors as constants with their exact values", async () => {
    assert.deepEqual(await constantOutput(new Float32Array([0.1, -2.5, Number.NaN])), { dims: [3], data: [Math.fround(0.1), -2.5, Number.NaN] });
    assert.deepEqual(await constantOutput(new BigInt64Array([2n ** 62n, -1n])), { dims: [2], data: [2n ** 62n, -1n] });
    const half = makeTensor("h", "float16", [2, 1], [0.1, 65504]);
    const y = (await constantOutput(half)) as { dims: number[]; data: number[] };
    assert.deepEqual(y.dims, [2, 1]);
    // the constant holds the float16 bits that makeTensor made
    const m = onnx`<ir_version: 10, opset_import: ["" : 18]> g () => (y) { y = Constant <value = ${half}> () }`;
    assert.deepEqual(Array.from(tensorToArray(m.graph!.node[0]!.attribute[0]!.t!) as Float32Array), Array.from(tensorToArray(half) as Float32Array));
  });

  it("reads graphs, nodes, lists of nodes and functions", () => {
    assert.equal(onnx.graph`g (float[N] x) => (y) { y = Relu (x) }`.name, "g");
    const n = onnx.node`y = Add (${"a b"}, c)`;
    assert.deepEqual(n.input, ["a b", "c"]);
    assert.deepEqual(
      onnx.nodes`
        t = Mul (x, s)
        y = Add (t, b)`.map((m) => m.opType),
      ["Mul", "Add"],
    );
    assert.equal(onnx.function`<domain: "d", opset_import: ["" : 18]> f (x) => (y) { y = Relu (x) }`.name, "f");
  });

  it("throws an OnnxtxtError at the line and column in the template", () => {
    const bad = () => onnx`<ir_version: 10, opset_import: ["" : 18]>
g (float[3] x) => (y) {
  y = Relu (x ${"a"})
}`;
    assert.throws(bad, (e: unknown) => e instanceof OnnxtxtError && /^onnx template:3:15: /.test(e.message));
    assert.throws(
      () => onnx.nodes`
  t = Mul (x, s)
  y = Add (t b)`,
      /onnx template:3:14: expected/,
    );
    assert.throws(() => onnx.node`y = Relu (${{} as unknown as string})`, /value 1 is object/);
  });

  it("`onnxtxt check` reads the templates of a TypeScript file, each as its kind", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-template-"));
    try {
      const file = path.join(dir, "use.ts");
      fs.writeFileSync(
        file,
        [
          'import { onnx } from "onnxtxt";',
          `export const m = onnx\`${HEAD} g (float[N] x) => (y) { y = Relu (x) }\`;`,
          "export const g = onnx.graph`g (float[N] x) => (y) {",
          "  y = Relu (x, x, x, x)",
          "}`;",
          "",
        ].join("\n"),
      );
      const r = runCli(["check", file]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /use\.ts:4:\d+:.*Relu/);
      assert.doesNotMatch(r.stdout + r.stderr, /use\.ts:2:/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
