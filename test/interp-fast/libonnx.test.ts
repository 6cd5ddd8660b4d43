// Every libonnx-testdata model (real networks, PyTorch conversions, single operators) that
// the reference kernels run correctly must also run correctly with the fast kernels and fusion.
import assert from "node:assert/strict";
import * as path from "node:path";
import { prepareFastRun } from "../../core/src/interp/fast/index.js";
import { libonnxModelDirs } from "../helpers/paths.js";
import { runCase } from "../interp/conformance-runner.js";

describe("fast kernels on libonnx-testdata", () => {
  it("pass wherever the reference kernels pass", () => {
    const tolerance = { rtol: 1e-3, atol: 1e-5 };
    const failures: string[] = [];
    let compared = 0;
    for (const dir of libonnxModelDirs()) {
      if (!runCase(dir, tolerance).ok) continue;
      compared++;
      const fast = runCase(dir, tolerance, (model) => prepareFastRun(model));
      if (!fast.ok) failures.push(`${path.basename(path.dirname(dir))}/${path.basename(dir)}: ${fast.message}`);
    }
    assert.ok(compared > 1000, `only ${compared} models passed with the reference kernels`);
    assert.deepEqual(failures, []);
  });
});
