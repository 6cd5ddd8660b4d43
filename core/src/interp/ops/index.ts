// The default kernel registry with every built-in operator.
import { Registry } from "../registry.js";
import { registerControl } from "./control.js";
import { registerElementwise } from "./elementwise.js";
import { registerLinalg } from "./linalg.js";
import { registerNN } from "./nn.js";
import { registerReductions } from "./reduce.js";
import { registerSequenceOps } from "./sequence.js";
import { registerShapeOps } from "./shape.js";

export function createDefaultRegistry(): Registry {
  const r = new Registry();
  registerElementwise(r);
  registerShapeOps(r);
  registerReductions(r);
  registerLinalg(r);
  registerNN(r);
  registerControl(r);
  registerSequenceOps(r);
  return r;
}

export const defaultRegistry: Registry = createDefaultRegistry();
