// The table of operator shape rules, by domain and op type. Ops without a rule still get
// the element types their type constraints determine.
import type { OpRule } from "../context.js";
import { ATTENTION_RULES, PREVIEW_RULES } from "./attention.js";
import { CONTROL_FLOW_RULES } from "./control-flow.js";
import { ELEMENTWISE_RULES } from "./elementwise.js";
import { MISC_RULES } from "./misc.js";
import { ML_RULES } from "./ml.js";
import { NN_RULES } from "./nn.js";
import { REDUCE_RULES } from "./reduce.js";
import { SEQUENCE_RULES } from "./sequence.js";
import { SHAPE_RULES } from "./shape-ops.js";
import { TEXT_RULES } from "./text.js";
import { TRAINING_RULES } from "./training.js";

const ONNX_RULES: Record<string, OpRule> = {
  ...ELEMENTWISE_RULES,
  ...SHAPE_RULES,
  ...NN_RULES,
  ...REDUCE_RULES,
  ...CONTROL_FLOW_RULES,
  ...SEQUENCE_RULES,
  ...TEXT_RULES,
  ...ATTENTION_RULES,
  ...MISC_RULES,
};

const RULES_BY_DOMAIN: Record<string, Record<string, OpRule>> = {
  "": ONNX_RULES,
  "ai.onnx.preview.training": TRAINING_RULES,
  "ai.onnx.preview": PREVIEW_RULES,
  "ai.onnx.ml": ML_RULES,
};

export function ruleFor(domain: string, opType: string): OpRule | undefined {
  const rules = RULES_BY_DOMAIN[domain];
  return rules && Object.hasOwn(rules, opType) ? rules[opType] : undefined;
}
