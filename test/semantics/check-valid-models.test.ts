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

/**
 * libonnx-testdata models that break their schema although they come with test data: old PyTorch
 * exports with int64 Constants, which Constant-1 (float16, float, double only) does not allow.
 * onnx's checker rejects exactly these three too ("output has unsupported type tensor(int64)").
 */
const LIBONNX_INVALID = ["pytorch-converted/test_PixelShuffle", "pytorch-operator/test_operator_repeat", "pytorch-operator/test_operator_repeat_dim_overflow"];

describe("checker on valid models", () => {
  it("reports no error on the libonnx-testdata models, except the three that break Constant-1's type constraint", () => {
    const dirs = libonnxModelDirs();
    const invalid = (d: string) => LIBONNX_INVALID.some((x) => d.endsWith(`/${x}`));
    assert.deepEqual(errorsIn(dirs.filter((d) => !invalid(d)).map((d) => path.join(d, "model.onnx"))), []);
    for (const d of dirs.filter(invalid)) {
      const errors = errorsIn([path.join(d, "model.onnx")]);
      assert.ok(
        errors.length > 0 &&
          errors.every((e) =>
            /\(Constant\): output 0 .* of Constant would be int64\[\d+\], but T allows only float16, float, double \[type-not-allowed\]$/.test(e),
          ),
        errors.join("\n"),
      );
    }
    assert.equal(dirs.filter(invalid).length, LIBONNX_INVALID.length);
  });

  it("reports no error on the onnx 1.23.1 node-test models", function () {
    this.timeout(120_000);
    assert.deepEqual(errorsIn(nodeTestDirs().map((d) => path.join(d, "model.onnx"))), []);
  });

  it("reports no error on the light networks", () => {
    const dir = requireDir(LIGHT, "test/data/light");
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".onnx"))
      .map((f) => path.join(dir, f));
    assert.ok(files.length >= 5);
    assert.deepEqual(errorsIn(files), []);
  });
});
