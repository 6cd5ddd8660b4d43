// A model copied with structuredClone (the first copy a JavaScript user reaches for) loses the
// proto2 defaults protobuf-es keeps on prototypes; the public entry points take such a copy as
// the original (issue #32). Checked on real networks against the original's results.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkModel, cloneModel, decodeModel, encodeModel, inferModel, printModel, run, type Value } from "../../core/src/index.js";
import { REPO } from "../helpers/paths.js";

const LIGHT = path.join(REPO, "test/data/light");

describe("structuredClone of a model (#32)", function () {
  this.timeout(120_000);

  for (const net of ["light_squeezenet", "light_resnet50"]) {
    it(`${net}: check, infer, print, encode and run read the copy as the original`, async () => {
      const original = decodeModel(fs.readFileSync(path.join(LIGHT, `${net}.onnx`)));
      const copy = structuredClone(original);
      assert.equal(Object.getPrototypeOf(copy), Object.prototype, "structuredClone drops the prototypes this test is about");
      assert.deepEqual(checkModel(copy), checkModel(original));
      assert.equal(printModel(copy), printModel(original));
      assert.deepEqual(encodeModel(copy), encodeModel(original));
      assert.equal(inferModel(copy).diagnostics.length, inferModel(original).diagnostics.length);
      if (net === "light_squeezenet") {
        const a = await run(original, {}, { seed: 3 });
        const b = await run(copy, {}, { seed: 3 });
        const values = (m: Map<string, Value>) =>
          [...m.entries()].map(([k, v]) => [k, JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))]);
        assert.deepEqual(values(b), values(a));
      }
    });
  }

  it("cloneModel gives a copy that edits do not reach the original through", () => {
    const original = decodeModel(fs.readFileSync(path.join(LIGHT, "light_squeezenet.onnx")));
    const copy = cloneModel(original);
    copy.graph!.node[0]!.opType = "Relu";
    assert.notEqual(original.graph!.node[0]!.opType, "Relu");
    assert.equal(printModel(cloneModel(original)), printModel(original));
  });
});
