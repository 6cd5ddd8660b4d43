// The checker and inference against onnx on every onnx node-test model (and libonnx-testdata
// model) and seven mutants of each
// (see differential/mutate.ts). onnx's verdicts are recorded in test/semantics/data (README there
// says which onnx made them and how to regenerate them), so no Python runs here. `npm test` takes
// every third model; `npm run test:differential` (ONNXTXT_FULL_DIFFERENTIAL=1) takes all of them.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkModel } from "../../core/src/check/index.js";
import { isTensor } from "../../core/src/infer/index.js";
import { decodeModel, decodeValue, valueKindOf } from "../../core/src/io/index.js";
import { valueFromProto } from "../../core/src/interp/index.js";
import { NODE_TESTS } from "../helpers/paths.js";
import { compareChecks, disagreement, inferUndeclared, recordedShapes, runTimeTypes, withRunTimeValueInfo } from "./differential/compare.js";
import { libonnxModels, loadNodeTest, nodeTestNames, readVerdicts } from "./differential/verdicts.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";

/**
 * Mutants the recording onnx (1.12) accepts and we reject, each with why onnx is wrong. The
 * test fails when this list and what happens differ in either direction.
 */
const ONNX_TOO_LENIENT: Record<string, string> = {
  "test_ai_onnx_ml_array_feature_extractor wrong-input-type":
    "string X makes a string Z, but Z is declared float: onnx 1.12 has no type inference for ai.onnx.ml ArrayFeatureExtractor",
  "test_ai_onnx_ml_binarizer wrong-input-type":
    "Binarizer's T allows float, double, int64, int32, not string: onnx 1.12 checks no type constraint of ai.onnx.ml ops",
  "test_sequence_map_add_1_sequence_1_tensor_expanded wrong-input-type":
    "the Loop body adds a string to an int64 (Add's T excludes string): onnx checks no types inside the body of a Loop",
  "test_sequence_map_identity_1_sequence_1_tensor_expanded wrong-input-type":
    "the Loop body's output is declared seq(float) but carries seq(string): onnx checks no types inside the body of a Loop",
};

describe(`differential check and inference against onnx (${FULL ? "every" : "every third"} node-test model)`, () => {
  const data = readVerdicts();
  const all = nodeTestNames();
  const names = FULL ? all : all.filter((_, i) => i % 3 === 0);

  it("covers every node-test model in the recorded data", () => {
    assert.ok(all.length >= 1800, `only ${all.length} node tests`);
    assert.deepEqual(
      all.filter((n) => !data.verdicts[n]),
      [],
    );
  });

  it("rejects every mutant onnx rejects; rejects a mutant onnx accepts only where onnx is wrong", function () {
    this.timeout(300_000);
    const t = compareChecks(
      names.map((name) => ({ name, load: () => loadNodeTest(name), letters: data.verdicts[name] })),
      data.kinds,
    );
    assert.deepEqual(t.stale, [], "the recorded data no longer matches the mutations: regenerate it (test/semantics/data/README.md)");
    assert.ok(t.rejectedByOnnx > (FULL ? 9000 : 3000), `only ${t.rejectedByOnnx} rejected mutants compared`);
    assert.deepEqual(t.missed, [], "onnx rejects these, we accept them");
    const stricter = t.stricter.map((s) => s.slice(0, s.indexOf(":")));
    const documented = Object.keys(ONNX_TOO_LENIENT).filter((k) => names.includes(k.split(" ")[0]!));
    assert.deepEqual(stricter.sort(), documented.sort(), `we reject these, onnx accepts them:\n${t.stricter.join("\n")}`);
    console.log(
      `      ${t.rejectedByOnnx} mutants onnx rejects, all rejected; ${t.stricter.length} more rejected where onnx is wrong; ${t.unjudged} without a verdict`,
    );
  });

  it("rejects every mutant of the libonnx-testdata models that onnx rejects", function () {
    this.timeout(300_000);
    const all = [...libonnxModels()];
    assert.deepEqual(
      all.filter(([n]) => !data.libonnx[n]).map(([n]) => n),
      [],
      "models without a recorded verdict",
    );
    const picked = FULL ? all : all.filter((_, i) => i % 3 === 0);
    const t = compareChecks(
      picked.map(([name, file]) => ({ name, load: () => decodeModel(fs.readFileSync(file)), letters: data.libonnx[name] })),
      data.kinds,
    );
    assert.deepEqual(t.stale, [], "the recorded data no longer matches the mutations: regenerate it (test/semantics/data/README.md)");
    assert.ok(t.rejectedByOnnx > (FULL ? 5500 : 1800), `only ${t.rejectedByOnnx} rejected mutants compared`);
    assert.deepEqual(t.missed, [], "onnx rejects these, we accept them");
    const stricter = t.stricter.map((s) => s.slice(0, s.indexOf(":")).replace(/^node\//, ""));
    const documented = Object.keys(ONNX_TOO_LENIENT).filter((k) => picked.some(([n]) => n === `node/${k.split(" ")[0]}`));
    assert.deepEqual(stricter.sort(), documented.sort(), `we reject these, onnx accepts them:\n${t.stricter.join("\n")}`);
  });

  it("accepts every model that declares the types and shapes a run gives its values", function () {
    this.timeout(300_000);
    const errors: string[] = [];
    let declared = 0;
    for (const name of names) {
      const m = loadNodeTest(name);
      const types = runTimeTypes(name, m);
      if (!types) continue;
      declared++;
      for (const d of checkModel(withRunTimeValueInfo(m, types), { errorsOnly: true })) errors.push(`${name}: ${d.where}: ${d.message} [${d.code}]`);
    }
    assert.ok(declared > names.length * 0.95, `only ${declared} of ${names.length} models ran`);
    assert.deepEqual(errors, []);
  });

  it("infers what onnx's infer_shapes(data_prop=True) infers, on every value both infer", () => {
    const failures: string[] = [];
    let compared = 0;
    for (const name of names) {
      const m = loadNodeTest(name);
      const recorded = recordedShapes(name, m, data);
      if (recorded.size === 0) continue;
      const ours = inferUndeclared(m);
      for (const [value, shape] of recorded) {
        compared++;
        const why = disagreement(ours.get(value), shape);
        if (why) failures.push(`${name} '${value}': ${why}`);
      }
    }
    assert.ok(compared > (FULL ? 1800 : 300), `only ${compared} values compared`);
    assert.deepEqual(failures, []);
  });

  it("infers the shapes the node tests' expected outputs have", () => {
    const failures: string[] = [];
    let compared = 0;
    for (const name of names) {
      const m = loadNodeTest(name);
      const outputs = m.graph!.output.map((o) => ({ name: o.name, kind: valueKindOf(o.type) }));
      const ours = inferUndeclared(m);
      outputs.forEach((o, i) => {
        const file = path.join(NODE_TESTS, name, "test_data_set_0", `output_${i}.pb`);
        const t = ours.get(o.name);
        if (!fs.existsSync(file) || !isTensor(t) || !t.shape) return;
        const v = valueFromProto(decodeValue(fs.readFileSync(file), o.kind));
        if (v.kind !== "tensor") return;
        compared++;
        const known = t.shape.every((d, k) => typeof d !== "number" || d === v.dims[k]);
        if (t.shape.length !== v.dims.length || !known || t.elem !== v.dtype)
          failures.push(`${name} '${o.name}': we infer ${JSON.stringify(t)}, the run gives ${v.dtype}[${v.dims.join(",")}]`);
      });
    }
    assert.ok(compared > (FULL ? 1500 : 500), `only ${compared} outputs compared`);
    assert.deepEqual(failures, []);
  });
});
