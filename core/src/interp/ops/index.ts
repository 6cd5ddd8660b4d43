// The default kernel registry with every built-in operator.
import { Registry } from "../registry.js";
import { registerControl } from "./control.js";
import { registerElementwise } from "./elementwise.js";
import { registerLinalg } from "./linalg.js";
import { registerLosses } from "./loss.js";
import { registerMisc } from "./misc.js";
import { registerQuant } from "./quant.js";
import { registerResize } from "./resize.js";
import { registerRecurrent } from "./rnn.js";
import { registerGridSample } from "./grid-sample.js";
import { registerText } from "./text.js";
import { registerDetection } from "./detection.js";
import { registerTraining } from "./training.js";
import { registerSignal } from "./signal.js";
import { registerRandom } from "./random.js";
import { registerAttention } from "./attention.js";
import { registerExtra } from "./extra.js";
import { registerML } from "./ml.js";
import { registerGradient } from "./gradient.js";
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
  registerMisc(r);
  registerQuant(r);
  registerLosses(r);
  registerResize(r);
  registerRecurrent(r);
  registerGridSample(r);
  registerText(r);
  registerDetection(r);
  registerTraining(r);
  registerSignal(r);
  registerRandom(r);
  registerAttention(r);
  registerExtra(r);
  registerML(r);
  registerGradient(r);
  return r;
}

export const defaultRegistry: Registry = createDefaultRegistry();
