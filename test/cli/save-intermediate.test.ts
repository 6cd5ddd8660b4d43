// `run --save-intermediate` on real models: every saved value equals what onnxruntime gives for the
// same value (the model with that value added as an output). A sample here;
// `npm run test:differential` (ONNXTXT_FULL_DIFFERENTIAL=1) takes every light network and 100 node tests.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { cloneModel } from "../../core/src/clone.js";
import { decodeModel, decodeValue } from "../../core/src/io/index.js";
import { runWithOrt } from "../../core/src/interp/ort-backend.js";
import { tensorFromProto, valueFromProto, type Tensor, type Value } from "../../core/src/interp/index.js";
import { TensorProtoSchema, TensorProto_DataType, ValueInfoProtoSchema, type ModelProto } from "../../proto/src/index.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT, nodeTestDirs } from "../helpers/paths.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";

function assertClose(ours: Value, theirs: Value, what: string): void {
  assert.equal(ours.kind, "tensor", what);
  assert.equal(theirs.kind, "tensor", what);
  const a = ours as Tensor;
  const b = theirs as Tensor;
  assert.deepEqual([...a.dims], [...b.dims], `${what}: dims`);
  assert.equal(a.dtype, b.dtype, `${what}: element type`);
  assert.equal(a.data.length, b.data.length, what);
  for (let i = 0; i < a.data.length; i++) {
    const x = Number(a.data[i]);
    const y = Number(b.data[i]);
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    assert.ok(Math.abs(x - y) <= 1e-4 + 1e-3 * Math.abs(y), `${what}[${i}]: ours ${x}, onnxruntime ${y}`);
  }
}

/** Runs the CLI with --save-intermediate for `names`, then onnxruntime with those names as outputs. */
async function compare(
  model: ModelProto,
  modelFile: string,
  names: string[],
  feeds: Map<string, Value>,
  args: string[],
  expected?: ReadonlyMap<string, Value>,
): Promise<"compared" | "no-oracle"> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-inter-"));
  try {
    const r = runCli(["run", modelFile, ...args, ...names.flatMap((n) => ["--save-intermediate", n]), "--output-dir", out, "--show", "0"]);
    if (r.code !== 0 && runCli(["run", modelFile, ...args, "--show", "0"]).stderr === r.stderr) return "no-oracle";
    assert.equal(r.code, 0, r.stderr);
    const probe = cloneModel(model);
    const outputs = new Set(probe.graph!.output.map((o) => o.name));
    for (const n of names) if (!outputs.has(n)) probe.graph!.output.push(create(ValueInfoProtoSchema, { name: n }));
    let theirs: Map<string, Value>;
    try {
      theirs = await runWithOrt(probe, feeds, names);
    } catch (e) {
      // onnxruntime lacks this operator or element type: it is no oracle for this model.
      // (Likewise above: a model our plain run refuses the same way says nothing of the option.)
      if (/onnxruntime cannot|onnxruntime-node does not take/.test(String(e))) return "no-oracle";
      throw e;
    }
    const saved = fs.readdirSync(out).filter((f) => f.startsWith("intermediate_"));
    assert.equal(saved.length, names.length, saved.join(", "));
    for (const n of names) {
      const file = saved.find((f) => f === `intermediate_${n.replace(/[^A-Za-z0-9_.-]/g, "_")}.pb`) ?? "";
      assert.ok(file, `${n}: no file among ${saved.join(", ")}`);
      const ours = valueFromProto(decodeValue(fs.readFileSync(path.join(out, file)), "tensor"));
      try {
        assertClose(ours, theirs.get(n)!, n);
      } catch (e) {
        // Where onnxruntime departs from onnx's own expected output, that output decides.
        const want = expected?.get(n);
        if (!want) throw e;
        assertClose(ours, want, `${n} (onnx's expected output)`);
      }
    }
    return "compared";
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

const LIGHT_SAMPLE = ["light_squeezenet.onnx"];

describe("run --save-intermediate equals onnxruntime", function () {
  this.timeout(600_000);
  const lights = fs.existsSync(LIGHT) ? fs.readdirSync(LIGHT).filter((f) => f.endsWith(".onnx")) : [];
  for (const f of FULL ? lights : lights.filter((l) => LIGHT_SAMPLE.includes(l))) {
    it(`light network ${f}`, async () => {
      const file = path.join(LIGHT, f);
      const model = decodeModel(fs.readFileSync(file));
      const g = model.graph!;
      const inits = new Set(g.initializer.map((t) => t.name));
      const input = g.input.find((i) => !inits.has(i.name))!;
      const dims =
        input.type!.value.case === "tensorType" ? input.type!.value.value.shape!.dim.map((d) => Number(d.value.case === "dimValue" ? d.value.value : 1)) : [];
      const count = dims.reduce((a, b) => a * b, 1);
      const floatData = Array.from({ length: count }, (_, i) => Math.sin(i * 0.37));
      const proto = create(TensorProtoSchema, { name: input.name, dims: dims.map(BigInt), dataType: TensorProto_DataType.FLOAT, floatData });
      const inputFile = path.join(os.tmpdir(), `onnxtxt-inter-${process.pid}.pb`);
      fs.writeFileSync(inputFile, toBinary(TensorProtoSchema, proto));
      try {
        // Values from the first, a middle and the last third of the graph.
        const n = g.node.length;
        const names = [g.node[1]!, g.node[Math.floor(n / 2)]!, g.node[n - 2]!].map((node) => node.output[0]!);
        const verdict = await compare(model, file, names, new Map([[input.name, tensorFromProto(proto)]]), ["--input", `${input.name}=${inputFile}`]);
        assert.equal(verdict, "compared");
      } finally {
        fs.rmSync(inputFile, { force: true });
      }
    });
  }

  const dirs = nodeTestDirs().filter((d) => fs.existsSync(path.join(d, "test_data_set_0")));
  // onnxruntime cannot load about a fifth of the node tests (those are skipped), so the full set
  // takes 145 spread over the list to compare at least 100.
  const step = Math.max(1, Math.floor(dirs.length / 145));
  const sample = dirs.filter((_, i) => i % step === 0).slice(0, FULL ? 145 : 8);
  for (const dir of sample) {
    it(`node test ${path.basename(dir)}`, async function () {
      const model = decodeModel(fs.readFileSync(path.join(dir, "model.onnx")));
      const g = model.graph!;
      const inits = new Set(g.initializer.map((t) => t.name));
      const inputs = g.input.filter((i) => !inits.has(i.name));
      const data = path.join(dir, "test_data_set_0");
      const feeds = new Map<string, Value>();
      for (let i = 0; i < inputs.length; i++) {
        const f = path.join(data, `input_${i}.pb`);
        if (!fs.existsSync(f)) return this.skip();
        if (inputs[i]!.type?.value.case !== "tensorType") return this.skip();
        feeds.set(inputs[i]!.name, tensorFromProto(decodeValue(fs.readFileSync(f), "tensor").value as never));
      }
      const expected = new Map<string, Value>();
      g.output.forEach((o, i) => {
        const f = path.join(data, `output_${i}.pb`);
        if (o.type?.value.case === "tensorType" && fs.existsSync(f)) expected.set(o.name, valueFromProto(decodeValue(fs.readFileSync(f), "tensor")));
      });
      const names = g.node[g.node.length - 1]!.output.filter((o) => o !== "");
      if (g.output.some((o) => o.type?.value.case !== "tensorType")) return this.skip();
      const verdict = await compare(model, path.join(dir, "model.onnx"), names, feeds, ["--input-dir", data, "--no-expect"], expected);
      if (verdict === "no-oracle") this.skip();
    });
  }
});
