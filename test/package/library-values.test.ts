// Models as values (#32): tensor builders and converters, extractModel, composeModels, the plain
// printer and onnxtxt/node's loadModel/saveModel, each against Debian's python3-onnx 1.12
// (numpy_helper, utils.Extractor, compose.merge_models, onnx.load with external data) and
// onnxruntime on the light networks.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  checkModel,
  composeModels,
  decodeModel,
  encodeModel,
  extractModel,
  makeTensor,
  modelFromText,
  OnnxtxtError,
  printModel,
  proto,
  tensorFromArray,
  tensorToArray,
} from "../../core/src/index.js";
import { loadModel, saveModel } from "../../core/src/node/index.js";
import { compareValues, type Value } from "../../core/src/interp/index.js";
import { runWithOrt } from "../../core/src/interp/ort-backend.js";
import { toBinary } from "@bufbuild/protobuf";
import type { ModelProto } from "../../proto/src/index.js";
import { LIGHT } from "../helpers/paths.js";

const PY = "/usr/bin/python3";

function python(script: string, input = ""): string {
  const r = spawnSync(PY, ["-c", script], { input, encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `the onnx 1.12 oracle failed (apt-get install python3-onnx): ${r.stderr}`);
  return r.stdout;
}

const RESNET = path.join(LIGHT, "light_resnet50.onnx");

/** Outputs of the first `count` Relu nodes on the data path, for cut points. */
function reluOutputs(model: ModelProto, count: number): string[] {
  return model
    .graph!.node.filter((n) => n.opType === "Relu")
    .slice(0, count)
    .map((n) => n.output[0]!);
}

function structure(m: ModelProto): unknown {
  const g = m.graph!;
  return {
    nodes: g.node.map((n) => `${n.opType}(${n.input.join(",")})->${n.output.join(",")}`),
    inputs: g.input.map((i) => i.name),
    outputs: g.output.map((o) => o.name),
    initializers: g.initializer.map((t) => t.name).sort(),
  };
}

describe("library: models as values (#32)", function () {
  this.timeout(120_000);

  it("makeTensor and tensorToArray agree with onnx's numpy_helper for every element type onnx 1.12 has", function () {
    const cases: [string, number, (number | bigint | boolean | string)[]][] = [
      ["float", 1, [1.5, -0.1, 3e38]],
      ["uint8", 2, [0, 255, 7]],
      ["int8", 3, [-128, 127, 0]],
      ["uint16", 4, [0, 65535, 9]],
      ["int16", 5, [-32768, 32767, 1]],
      ["int32", 6, [-(2 ** 31), 2 ** 31 - 1, 5]],
      ["int64", 7, [-(2n ** 63n), 2n ** 63n - 1n, 3n]],
      ["string", 8, ["a", "é", ""]],
      ["bool", 9, [true, false, true]],
      ["float16", 10, [1.5, 65504, 0.1]],
      ["double", 11, [0.1, -1e300, 2]],
      ["uint32", 12, [0, 2 ** 32 - 1, 4]],
      ["uint64", 13, [0n, 2n ** 64n - 1n, 6n]],
      ["bfloat16", 16, [1.5, -3.0e38, 0.1]],
    ];
    const protos = cases.map(([name, dt, vals]) => makeTensor(name, dt, [3], vals));
    const hex = protos.map((p) => Buffer.from(toBinary(proto.TensorProtoSchema, p)).toString("hex"));
    const oracle = python(
      `import sys, json, onnx
from onnx import numpy_helper
out = []
for h in json.load(sys.stdin):
    t = onnx.TensorProto(); t.ParseFromString(bytes.fromhex(h))
    a = numpy_helper.to_array(t)
    out.append([x.decode() if isinstance(x, bytes) else x if isinstance(x, str) else (str(int(x)) if t.data_type in (7, 13) else (bool(x) if t.data_type == 9 else float(x))) for x in a.tolist()])
print(json.dumps(out))`,
      JSON.stringify(hex),
    );
    const expected = JSON.parse(oracle) as unknown[][];
    protos.forEach((p, i) => {
      const ours = Array.from(tensorToArray(p) as ArrayLike<unknown>).map((x) =>
        typeof x === "bigint" ? String(x) : p.dataType === 9 ? x === 1 : typeof x === "string" ? x : Number(x),
      );
      assert.deepEqual(ours, expected[i], `${cases[i]![0]}`);
    });
  });

  it("tensorFromArray keeps typed arrays, and 4-bit and float8 types round-trip their representable values", function () {
    assert.equal(tensorFromArray(new BigInt64Array([1n, -2n])).dataType, 7);
    assert.deepEqual(Array.from(tensorToArray(tensorFromArray(new Float32Array([1, 2, 3, 4]), { dims: [2, 2] })) as Float32Array), [1, 2, 3, 4]);
    assert.deepEqual(Array.from(tensorToArray(makeTensor("i4", "int4", [5], [-8, 7, 0, -1, 3])) as Int8Array), [-8, 7, 0, -1, 3]);
    assert.deepEqual(Array.from(tensorToArray(makeTensor("u4", "uint4", [3], [0, 15, 9])) as Uint8Array), [0, 15, 9]);
    // float8e4m3fn: 448 is the largest finite value, 0.3125 = 5/16 is exact
    assert.deepEqual(Array.from(tensorToArray(makeTensor("f8", "float8e4m3fn", [2], [0.3125, 448])) as Float32Array), [0.3125, 448]);
    assert.deepEqual(Array.from(tensorToArray(makeTensor("f8", "float8e5m2", [2], [-0.5, 57344])) as Float32Array), [-0.5, 57344]);
    assert.throws(() => makeTensor("x", "float", [2], [1]), OnnxtxtError);
    assert.throws(() => makeTensor("x", "nonsense", [1], [1]), /unknown element type 'nonsense'/);
  });

  it("extractModel gives onnx.utils.Extractor's sub-model of ResNet-50", function () {
    const model = decodeModel(fs.readFileSync(RESNET));
    // the outputs of ResNet-50's first and second residual blocks (a cut inside a block would
    // reach back past it through the skip connection)
    const [, , , block1, , , block2] = reluOutputs(model, 7);
    const cuts: [string[], string[]][] = [
      [["gpu_0/data_0"], [block1!]],
      [[block1!], [block2!]],
    ];
    const oracle = JSON.parse(
      python(
        `import sys, json, onnx, onnx.utils
m = onnx.load(${JSON.stringify(RESNET)})
out = []
for ins, outs in json.load(sys.stdin):
    e = onnx.utils.Extractor(m).extract_model(ins, outs)
    g = e.graph
    out.append({"nodes": ["%s(%s)->%s" % (n.op_type, ",".join(n.input), ",".join(n.output)) for n in g.node],
                "inputs": [i.name for i in g.input], "outputs": [o.name for o in g.output],
                "initializers": sorted(t.name for t in g.initializer)})
print(json.dumps(out))`,
        JSON.stringify(cuts),
      ),
    ) as unknown[];
    cuts.forEach(([ins, outs], i) => {
      const sub = extractModel(model, ins, outs);
      assert.deepEqual(structure(sub), oracle[i], `cut ${i}`);
      assert.deepEqual(
        checkModel(sub)
          .filter((d) => d.severity === "error")
          .map((d) => d.message),
        [],
        `cut ${i}: check`,
      );
    });
    assert.throws(() => extractModel(model, ["gpu_0/data_0"], ["nope"]), /output 'nope' is not a value of the main graph/);
  });

  it("composeModels joins as onnx.compose.merge_models does, and onnxruntime gives the same outputs for both", async function () {
    const model = decodeModel(fs.readFileSync(RESNET));
    const cut = reluOutputs(model, 4)[3]!;
    const a = extractModel(model, ["gpu_0/data_0"], [cut]);
    const b = extractModel(model, [cut], [reluOutputs(model, 9)[8]!]);
    // IR 3 wants every initializer among the graph inputs, which extraction does not give
    // (onnx's extractor neither); onnx's merge checks the result, so both are moved to IR 7.
    a.irVersion = 7n;
    b.irVersion = 7n;
    const ours = composeModels(a, b, [[cut, cut]], { prefix1: "a/", prefix2: "b/" });
    const bytes = python(
      `import sys, onnx, onnx.compose
a = onnx.ModelProto(); a.ParseFromString(bytes.fromhex(sys.stdin.readline().strip()))
b = onnx.ModelProto(); b.ParseFromString(bytes.fromhex(sys.stdin.readline().strip()))
m = onnx.compose.merge_models(a, b, [(${JSON.stringify(cut)}, ${JSON.stringify(cut)})], prefix1="a/", prefix2="b/")
print(m.SerializeToString().hex())`,
      `${Buffer.from(encodeModel(a)).toString("hex")}\n${Buffer.from(encodeModel(b)).toString("hex")}\n`,
    );
    const theirs = decodeModel(Buffer.from(bytes.trim(), "hex"));
    assert.deepEqual(structure(ours), structure(theirs));
    assert.deepEqual(
      checkModel(ours)
        .filter((d) => d.severity === "error")
        .map((d) => d.message),
      [],
    );
    const input = ours.graph!.input.find((i) => i.name === "a/gpu_0/data_0")!;
    const dims = input.type!.value.case === "tensorType" ? input.type!.value.value.shape!.dim.map((d) => Number(d.value.value)) : [];
    const n = dims.reduce((x, y) => x * y, 1);
    const data = new Float32Array(n).map((_, i) => Math.sin(i));
    const feeds = new Map<string, Value>([["a/gpu_0/data_0", { kind: "tensor", dtype: 1, dims, data }]]);
    let ortOurs: Map<string, Value>;
    try {
      ortOurs = await runWithOrt(ours, feeds);
    } catch (e) {
      if (/onnxruntime-node/.test(String(e))) this.skip();
      throw e;
    }
    const ortTheirs = await runWithOrt(theirs, feeds);
    const out = ours.graph!.output[0]!.name;
    assert.equal(compareValues(ortOurs.get(out), ortTheirs.get(out), { rtol: 0, atol: 0 }), undefined);
    assert.throws(() => composeModels(a, a, [[cut, "gpu_0/data_0"]]), /both models define/);
  });

  it("printModel({plain}) leaves out residual comments, as print --plain does", function () {
    const m = modelFromText(`<ir_version: 10, opset_import: ["" : 18]>\ng (float[N] x) => (y) {\n  y = Relu (x)\n}\n`).model!;
    m.graph!.node[0]!.docString = "only a residual says this";
    assert.match(printModel(m), /#@/);
    const plain = printModel(m, { plain: true });
    assert.doesNotMatch(plain, /#@/);
    assert.match(plain, /y = Relu \(x\)/);
  });

  it("onnxtxt/node saves ResNet-50 with external data that onnx.load reads, and loads it back", function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-lib-"));
    try {
      const model = loadModel(RESNET);
      const out = path.join(dir, "resnet.onnx");
      saveModel(model, out, { externalData: 64 });
      const files = fs.readdirSync(dir).sort();
      assert.equal(files.length, 2, `a model and one data file: ${files.join(", ")}`);
      const report = python(
        `import onnx
m = onnx.load(${JSON.stringify(out)})
ext = onnx.load(${JSON.stringify(out)}, load_external_data=False)
print(sum(1 for t in ext.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL), len(m.graph.initializer))
import json
print(json.dumps({t.name: t.raw_data.hex() for t in m.graph.initializer}))`,
      ).split("\n");
      const [external, total] = report[0]!.split(" ").map(Number);
      assert.ok(external! > 0 && total === model.graph!.initializer.length, report[0]!);
      const back = loadModel(out);
      const onnxData = JSON.parse(report[1]!) as Record<string, string>;
      assert.deepEqual(Object.fromEntries(back.graph!.initializer.map((t) => [t.name, Buffer.from(t.rawData).toString("hex")])), onnxData);
      assert.deepEqual(encodeModel(back), encodeModel(model));
      const text = path.join(dir, "resnet.onnxtxt");
      saveModel(back, text);
      assert.deepEqual(encodeModel(loadModel(text)), encodeModel(model));
      // the CLI's refusals: an external location leaving the model's folder
      const evil = decodeModel(fs.readFileSync(out));
      const t = evil.graph!.initializer.find((x) => x.dataLocation === 1)!;
      t.externalData.find((e) => e.key === "location")!.value = "../outside.data";
      fs.writeFileSync(path.join(dir, "evil.onnx"), encodeModel(evil));
      assert.throws(
        () => loadModel(path.join(dir, "evil.onnx")),
        (e: unknown) => e instanceof OnnxtxtError && e.message.includes("evil.onnx"),
      );
      assert.throws(() => saveModel(model, path.join(dir, "x.txt")), /unknown file type/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
