// The step table: every row keyed by domain, op and the version that made the change, plus
// the ops that take another op's place below their first version.
import { castLikeToCast } from "../adapters/cast.js";
import { elementsToScatter } from "../adapters/misc.js";
import { resizeToUpsample } from "../adapters/resize.js";
import { layerNormBelow17, rmsNormBelow23 } from "../adapters/layer-norm.js";
import { celuBelow12, geluBelow20 } from "../adapters/activations.js";
import type { Adapter } from "../context.js";
import type { StepSpec } from "../spec.js";
import { stepKey } from "../steps.js";
import { ELEMENTWISE_ROWS } from "./elementwise.js";
import { ML_ROWS, MISC_ROWS } from "./misc.js";
import { NN_ROWS } from "./nn.js";
import type { Row } from "./row.js";
import { SHAPE_ROWS } from "./shape.js";

function table(domain: string, rows: readonly Row[], into: Map<string, StepSpec>): void {
  for (const [op, newer, spec] of rows) {
    const key = stepKey(domain, op, newer);
    if (into.has(key)) throw new Error(`step table: ${key} twice`);
    into.set(key, spec);
  }
}

let specs: Map<string, StepSpec> | undefined;

export function stepSpecs(): ReadonlyMap<string, StepSpec> {
  if (specs) return specs;
  specs = new Map();
  table("", [...ELEMENTWISE_ROWS, ...SHAPE_ROWS, ...NN_ROWS, ...MISC_ROWS], specs);
  table("ai.onnx.ml", ML_ROWS, specs);
  return specs;
}

export interface Replacement {
  readonly op: string;
  readonly how: string;
  readonly adapter: Adapter;
}

/** Below its first version an op can become another op of the older opset. */
export const REPLACED_BELOW_FIRST: ReadonlyMap<string, Replacement> = new Map([
  [stepKey("", "Resize", 10), { op: "Upsample", how: "Resize-10 -> Upsample-9 (same meaning)", adapter: resizeToUpsample }],
  [
    stepKey("", "LayerNormalization", 17),
    {
      op: "ReduceMean, Sub, Mul, Add, Sqrt, Div",
      how: "LayerNormalization-17 -> its arithmetic (needs the rank)",
      adapter: layerNormBelow17,
    },
  ],
  [
    stepKey("", "RMSNormalization", 23),
    { op: "ReduceMean, Mul, Add, Sqrt, Div", how: "RMSNormalization-23 -> its arithmetic (needs the rank)", adapter: rmsNormBelow23 },
  ],
  [stepKey("", "Gelu", 20), { op: "Erf or Tanh arithmetic", how: "Gelu-20 -> its formula (Erf, or Tanh with approximate = tanh)", adapter: geluBelow20 }],
  [stepKey("", "Celu", 12), { op: "Max, Min, Exp arithmetic", how: "Celu-12 -> its formula (Max, Min, Exp)", adapter: celuBelow12 }],
  [stepKey("", "CastLike", 15), { op: "Cast", how: "CastLike-15 -> Cast with `to` the second input's element type", adapter: castLikeToCast }],
  [
    stepKey("", "ScatterElements", 11),
    { op: "Scatter", how: "ScatterElements-11 -> Scatter-9 (same meaning; negative axis normalized)", adapter: elementsToScatter },
  ],
]);
