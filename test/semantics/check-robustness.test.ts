// The checker must never throw: damaged models (wrong op types, missing inputs and
// attributes, odd attribute values) come back as diagnostics.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ModelProto } from "../../proto/src/index.js";
import { checkModel } from "../../core/src/check/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { listOps } from "../../core/src/schema/index.js";
import { libonnxModelDirs } from "../helpers/paths.js";

const OPS = listOps("", 18).map((s) => s.name);

const DAMAGE: ((m: ModelProto, seed: number) => void)[] = [
  (m, seed) => m.graph!.node.forEach((n, i) => (n.opType = OPS[(seed * 7 + i * 13) % OPS.length]!)),
  (m) =>
    m.graph!.node.forEach((n) => {
      n.input = n.input.slice(1);
      n.attribute = n.attribute.slice(1);
    }),
  (m) =>
    m.graph!.node.forEach((n) => {
      n.input.push(n.input[0] ?? "x");
      for (const a of n.attribute) {
        a.ints = [-5n, 99n];
        a.i = -7n;
      }
    }),
];

describe("checker robustness", () => {
  it("reports damaged libonnx-testdata models without throwing", function () {
    this.timeout(120_000);
    let damagedWithErrors = 0;
    libonnxModelDirs().forEach((dir, seed) => {
      const bytes = fs.readFileSync(path.join(dir, "model.onnx"));
      for (const damage of DAMAGE) {
        const m = decodeModel(bytes);
        damage(m, seed);
        const diags = checkModel(m);
        if (diags.some((d) => d.severity === "error")) damagedWithErrors++;
      }
    });
    // Most damage is detectable; the exact count only guards against a checker gone silent.
    assert.ok(damagedWithErrors > 1500, `only ${damagedWithErrors} damaged models reported`);
  });
});
