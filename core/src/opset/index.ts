// Opset conversion (issue #31): move a model up or down to another opset of ai.onnx (and
// ai.onnx.ml), node by node through every version step, refusing what cannot be expressed.
export { convertOpset } from "./convert.js";
export { OpsetError } from "./errors.js";
export type { ConvertOpsetOptions, OpsetConversion, RefusedNode } from "./report.js";
export { stepCoverage, type StepCoverage, type StepDirection } from "./coverage.js";
export { convertOpsetText, type TextConversion } from "./text.js";
