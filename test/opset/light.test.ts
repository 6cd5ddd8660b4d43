// The light networks (opset 9, expected outputs from onnx's reference evaluator) moved to the
// newest opset and back to their own: both give the expected outputs. SqueezeNet by default,
// every network with ONNXTXT_FULL_DIFFERENTIAL=1.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkModel } from "../../core/src/check/index.js";
import { runSync } from "../helpers/run-sync.js";
import { decodeModel, decodeValue, valueKindOf } from "../../core/src/io/index.js";
import { compareValues, valueFromProto } from "../../core/src/interp/index.js";
import { convertOpset } from "../../core/src/opset/index.js";
import { latestOpsetVersion } from "../../core/src/schema/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { LIGHT } from "../helpers/paths.js";
import { modelOpset } from "./differential-runner.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";
const NETWORKS = FULL
  ? ["squeezenet", "resnet50", "densenet121", "inception_v1", "inception_v2", "bvlc_alexnet", "shufflenet", "vgg19", "zfnet512"]
  : ["squeezenet"];
const TOLERANCE = { rtol: 1e-3, atol: 1e-5 };

function expectSame(model: ModelProto, name: string, what: string): void {
  assert.deepEqual(
    checkModel(model)
      .filter((d) => d.severity === "error")
      .map((d) => d.message),
    [],
    `${what}: check`,
  );
  const out = model.graph!.output[0]!;
  const expected = valueFromProto(decodeValue(fs.readFileSync(path.join(LIGHT, `light_${name}_output_0.pb`)), valueKindOf(out.type)));
  const diff = compareValues(runSync(model).get(out.name), expected, TOLERANCE);
  assert.equal(diff, undefined, `${what}: ${diff}`);
}

describe("opset conversion: light networks to the newest opset and back", function () {
  this.timeout(FULL ? 1_200_000 : 60_000);
  for (const name of NETWORKS) {
    it(`${name}: the same outputs at the newest opset and back at its own`, () => {
      const model = decodeModel(fs.readFileSync(path.join(LIGHT, `light_${name}.onnx`)));
      const own = modelOpset(model)!;
      const newest = latestOpsetVersion("")!;
      const up = convertOpset(model, newest);
      assert.deepEqual(
        up.refused.map((r) => r.reason),
        [],
      );
      assert.equal(modelOpset(up.model), newest);
      expectSame(up.model, name, `${name} at opset ${newest}`);
      const down = convertOpset(up.model, own);
      assert.deepEqual(
        down.refused.map((r) => r.reason),
        [],
      );
      assert.equal(modelOpset(down.model), own);
      expectSame(down.model, name, `${name} back at opset ${own}`);
    });
  }
});
