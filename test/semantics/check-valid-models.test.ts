// Every model of the test data is valid, so the checker must report no error on any of them.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkModel } from "../../core/src/check/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { LIGHT, libonnxModelDirs, nodeTestDirs, requireDir } from "../helpers/paths.js";

function errorsIn(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const d of checkModel(decodeModel(fs.readFileSync(file)), { errorsOnly: true })) {
      found.push(`${file}: ${d.where}: ${d.message} [${d.code}]`);
    }
  }
  return found;
}

describe("checker on valid models", () => {
  it("reports no error on the libonnx-testdata models", () => {
    assert.deepEqual(errorsIn(libonnxModelDirs().map((d) => path.join(d, "model.onnx"))), []);
  });

  it("reports no error on the onnx 1.23.1 node-test models", function () {
    this.timeout(120_000);
    assert.deepEqual(errorsIn(nodeTestDirs().map((d) => path.join(d, "model.onnx"))), []);
  });

  it("reports no error on the light networks", () => {
    const dir = requireDir(LIGHT, "test/data/light");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".onnx")).map((f) => path.join(dir, f));
    assert.ok(files.length >= 5);
    assert.deepEqual(errorsIn(files), []);
  });
});
