// Our shape inference agrees with onnx's reference implementation (Debian's onnx 1.12) on the
// node outputs of every libonnx-testdata model: element type, rank and every known dimension.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { LIGHT, libonnxModelDirs, nodeTestDirs } from "../helpers/paths.js";
import { compareWithReference, REFERENCE_MAX_OPSET } from "./reference-shapes.js";

describe("shape inference agreement with onnx.shape_inference", () => {
  it("agrees on >= 99% of the values of the libonnx-testdata models", function () {
    this.timeout(300_000);
    const models = libonnxModelDirs().map((d) => path.join(d, "model.onnx"));
    const a = compareWithReference(models);
    const rate = a.agreed / a.compared;
    console.log(
      `      agreement: ${a.agreed}/${a.compared} values (${(rate * 100).toFixed(2)}%); ` +
        `${a.beyondReference} values of models above opset ${REFERENCE_MAX_OPSET} are outside what the reference knows`,
    );
    assert.ok(a.compared > 1000, `only ${a.compared} values compared`);
    assert.ok(rate >= 0.99, `agreement ${(rate * 100).toFixed(2)}% < 99%:\n${a.failures.slice(0, 40).join("\n")}`);
  });

  it("agrees on >= 99% of the values of the light networks", function () {
    this.timeout(120_000);
    const models = fs
      .readdirSync(LIGHT)
      .filter((f) => f.endsWith(".onnx"))
      .map((f) => path.join(LIGHT, f));
    const a = compareWithReference(models);
    const rate = a.agreed / a.compared;
    console.log(`      agreement: ${a.agreed}/${a.compared} values (${(rate * 100).toFixed(2)}%)`);
    assert.ok(a.compared > 1000, `only ${a.compared} values compared`);
    assert.ok(rate >= 0.99, `agreement ${(rate * 100).toFixed(2)}% < 99%:\n${a.failures.slice(0, 40).join("\n")}`);
  });

  it("agrees on >= 99% of the values of the onnx 1.23.1 node tests the reference can answer", function () {
    this.timeout(120_000);
    const a = compareWithReference(nodeTestDirs().map((d) => path.join(d, "model.onnx")));
    const rate = a.agreed / a.compared;
    console.log(
      `      agreement: ${a.agreed}/${a.compared} values (${(rate * 100).toFixed(2)}%); ` +
        `${a.beyondReference} values of models above opset ${REFERENCE_MAX_OPSET} are outside what the reference knows`,
    );
    assert.ok(a.compared > 1000, `only ${a.compared} values compared`);
    assert.ok(rate >= 0.99, `agreement ${(rate * 100).toFixed(2)}% < 99%:\n${a.failures.slice(0, 40).join("\n")}`);
  });
});
