// Dropout, BatchNormalization, Gemm, pooling and recurrent ops: outputs that came or went,
// attributes that changed type, and Gemm's optional C.
import { attributeOf, floatAttr, getAttr, intAttr, removeAttr, setAttr, stringAttr } from "../attrs.js";
import { elemOf, keep, numberConstant, refuse, type Adapter, type StepContext } from "../context.js";
import type { NodeProto } from "../../../../proto/src/index.js";
import { dropInput, floatAttrToInput, floatInputToAttr } from "./inputs.js";

/** Outputs from position `from` on that the other version does not have must be unused; they are dropped. */
export function dropOutputs(node: NodeProto, from: number, ctx: StepContext, why: string): string | undefined {
  for (let i = from; i < node.output.length; i++) if (node.output[i] && ctx.used(node.output[i]!)) return `output '${node.output[i]}' is used, and ${why}`;
  node.output = node.output.slice(0, from);
  return undefined;
}

/** Before 12 the mask of an inference run is not specified (onnxruntime gives all false, 12 says all true). */
function maskUsed(node: NodeProto, ctx: StepContext): string | undefined {
  const mask = node.output[1];
  return mask && ctx.used(mask) ? `the mask output '${mask}' is used, and its value outside training is specified only from opset 12 on` : undefined;
}

/** Dropout 10 -> 12: ratio becomes an input (float). */
export const dropoutRatioUp: Adapter = (node, ctx) => {
  const mask = maskUsed(node, ctx);
  if (mask) return refuse(mask);
  const made = floatAttrToInput("ratio", 1, ctx, node, 1);
  if (typeof made === "string") return refuse(made);
  return made ? keep(made, node) : keep(node);
};

export const dropoutRatioDown: Adapter = (node, ctx) => {
  const mask = maskUsed(node, ctx);
  if (mask) return refuse(mask);
  removeAttr(node, "seed");
  if (node.input[2]) {
    const t = ctx.constants.numbers(node.input[2]);
    if (!t || t.length !== 1 || t[0] !== 0)
      return refuse(`training_mode '${node.input[2]}' is not a constant false (opset ${ctx.at} has no training mode input)`);
    dropInput(node, 2);
  }
  const problem = floatInputToAttr("ratio", 1, ctx, node);
  return problem ? refuse(problem) : keep(node);
};

/** Dropout 7 -> 10: the mask output changed from T to bool; a used mask cannot follow. */
export const dropoutMask: Adapter = (node, ctx) => {
  const problem = dropOutputs(node, 1, ctx, "its element type changed to bool at opset 10");
  return problem ? refuse(problem) : keep(node);
};

/** BatchNormalization 9 <-> 14: the training outputs changed meaning; only inference nodes convert. */
export const batchNormOutputs: Adapter = (node, ctx) => {
  const problem = dropOutputs(node, 1, ctx, "the training outputs differ between opsets 9 and 14");
  return problem ? refuse(problem) : keep(node);
};

/** Gemm 7 -> 6: C broadcasts only with broadcast = 1 (harmless when C has the full shape). */
export const gemmBroadcastDown: Adapter = (node) => {
  setAttr(node, attributeOf("broadcast", "INT", 1));
  return keep(node);
};

/** Gemm 11 -> 9: C was required; a zero scalar adds nothing. */
export const gemmCDown: Adapter = (node, ctx) => {
  if (node.input[2]) return keep(node);
  const elem = elemOf(ctx, node.input[0]!);
  if (elem === undefined) return refuse(`C is absent and the element type of '${node.input[0]}' is unknown`);
  const c = numberConstant(ctx, `${node.output[0] || "gemm"}_C`, elem, [], [0]);
  node.input[2] = c.name;
  return keep(c.node, node);
};

/** LpPool/GlobalLpPool 1 -> 2: p changed from float to int. */
export const lpIntUp: Adapter = (node) => {
  const p = floatAttr(node, "p");
  if (p !== undefined) {
    if (!Number.isInteger(p)) return refuse(`p = ${p} is not an integer (opset 2 takes an int)`);
    setAttr(node, attributeOf("p", "INT", p));
  }
  if (node.opType === "LpPool" && !getAttr(node, "kernel_shape")) return refuse("kernel_shape is required from opset 2 on");
  return keep(node);
};

export const lpIntDown: Adapter = (node) => {
  const p = intAttr(node, "p");
  if (p !== undefined) setAttr(node, attributeOf("p", "FLOAT", p));
  return keep(node);
};

/** MaxPool 8 -> 1: the Indices output is new in 8. */
export const maxPoolIndicesDown: Adapter = (node, ctx) => {
  const problem = dropOutputs(node, 1, ctx, "Indices is new in opset 8");
  return problem ? refuse(problem) : keep(node);
};

/** RNN/GRU/LSTM 1 -> 7: output_sequence went away; Y is simply an optional output. */
export const outputSequenceUp: Adapter = (node) => {
  removeAttr(node, "output_sequence");
  return keep(node);
};

export const outputSequenceDown: Adapter = (node) => {
  if (node.output[0]) setAttr(node, attributeOf("output_sequence", "INT", 1));
  return keep(node);
};

/** GRU 1 -> 3: the default direction was spelled "foward"; linear_before_reset = 0 is 1's behaviour. */
export const gruDirection: Adapter = (node) => {
  if (stringAttr(node, "direction") === "foward") setAttr(node, attributeOf("direction", "STRING", "forward"));
  return keep(node);
};
