// ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum): each output group has the
// type of the matching input group; the gradients group (G) has no output.
import type { OpRule } from "../context.js";

/** Inputs are R, T, then groups X, G, and the state groups; outputs are X_new and the new states. */
const optimizer: OpRule = (c) => {
  const groupsIn = c.node.opType === "Adam" ? 4 : 3;
  const n = (c.inputCount - 2) / groupsIn;
  if (!Number.isInteger(n)) return;
  c.node.output.forEach((_, j) => {
    const group = Math.floor(j / n);
    const source = 2 + (group === 0 ? 0 : group + 1) * n + (j % n);
    c.setType(j, c.inputs[source]);
  });
};

/** Gradient's outputs are the gradients of y with respect to its inputs: one per input, same type. */
const gradient: OpRule = (c) => c.node.output.forEach((_, i) => c.setType(i, c.inputs[i]));

export const TRAINING_RULES: Record<string, OpRule> = { Adagrad: optimizer, Adam: optimizer, Momentum: optimizer, Gradient: gradient };
