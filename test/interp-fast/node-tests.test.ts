// The onnx backend node tests of every operator with a fast kernel, run with the fast
// registry and Conv fusion: each must pass wherever the reference kernels pass.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { FAST_OPS, prepareFastRun } from "../../core/src/interp/fast/index.js";
import { NODE_TESTS, requireDir } from "../helpers/paths.js";
import { runCase } from "../interp/conformance-runner.js";

const TOLERANCE = { rtol: 1e-3, atol: 1e-5 };

/** The node tests' name of an operator: lower case, BatchNormalization as batchnorm. */
function testName(op: string): string {
  return op === "BatchNormalization" ? "batchnorm" : op.toLowerCase();
}

describe("fast kernels on the onnx node tests", () => {
  const prefixes = FAST_OPS.map((op) => `test_${testName(op)}`);
  const dirs = fs
    .readdirSync(requireDir(NODE_TESTS, "onnx node tests"))
    .filter((d) => prefixes.some((p) => d === p || d.startsWith(`${p}_`)))
    .sort()
    .map((d) => path.join(NODE_TESTS, d));

  it("covers the tests of every fast operator", () => {
    for (const p of prefixes)
      assert.ok(
        dirs.some((d) => path.basename(d).startsWith(p)),
        `no node test for ${p}`,
      );
    assert.ok(dirs.length > 100, `only ${dirs.length} tests`);
  });

  it("pass wherever the reference kernels pass", () => {
    const failures: string[] = [];
    let compared = 0;
    for (const dir of dirs) {
      const reference = runCase(dir, TOLERANCE);
      if (!reference.ok) continue;
      compared++;
      const fast = runCase(dir, TOLERANCE, (model) => prepareFastRun(model));
      if (!fast.ok) failures.push(`${path.basename(dir)}: ${fast.message}`);
    }
    assert.ok(compared > 100, `only ${compared} tests passed with the reference kernels`);
    assert.deepEqual(failures, []);
  });
});
