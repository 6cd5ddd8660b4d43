// Element-wise ops: legacy attributes at 6, broadcasting at 7 and 8.
import { legacyBroadcastDown, legacyBroadcastUp } from "../adapters/broadcast.js";
import { preluDown, preluUp } from "../adapters/misc.js";
import { CONSUMED, rows, type Row } from "./row.js";

const LEGACY_BROADCAST = {
  how: "broadcast/axis attributes -> numpy broadcasting (B unsqueezed when axis is not the trailing position); down: broadcast = 1 when B's shape is a suffix of A's",
  up: legacyBroadcastUp,
  down: legacyBroadcastDown,
};

export const ELEMENTWISE_ROWS: readonly Row[] = [
  ...rows(
    [
      "Abs",
      "Add",
      "Ceil",
      "Div",
      "Elu",
      "Exp",
      "Floor",
      "HardSigmoid",
      "LeakyRelu",
      "Log",
      "Max",
      "Mean",
      "Min",
      "Mul",
      "Neg",
      "PRelu",
      "Reciprocal",
      "Relu",
      "Sigmoid",
      "Sqrt",
      "Sub",
      "Sum",
      "Tanh",
      "InstanceNormalization",
    ],
    6,
    CONSUMED,
  ),
  ["Selu", 6, { ...CONSUMED, defaults: ["alpha", "gamma"], how: "drop consumed_inputs; the changed defaults of alpha and gamma are written out" }],
  ["Clip", 6, { ...CONSUMED, defaults: ["min", "max"], how: "drop consumed_inputs; min/max written out" }],
  ...rows(["Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"], 7, LEGACY_BROADCAST),
  ...rows(["Max", "Min", "Mean", "Sum"], 8, { broadcast: true, how: "numpy broadcasting from 8: down needs inputs of one known shape" }),
  [
    "PRelu",
    7,
    {
      up: preluUp,
      down: preluDown,
      how: "slope broadcasting changed: a one-element slope or one of X's shape stays; a per-channel [C] slope becomes [C, 1, ...] (Unsqueeze) and back (Squeeze)",
    },
  ],
];
