// Neural-network ops: normalization, dropout, pooling, Gemm, Softmax family, recurrent ops.
import {
  batchNormOutputs,
  dropoutMask,
  dropoutRatioDown,
  dropoutRatioUp,
  gemmBroadcastDown,
  gemmCDown,
  gruDirection,
  lpIntDown,
  lpIntUp,
  maxPoolIndicesDown,
  outputSequenceDown,
  outputSequenceUp,
} from "../adapters/nn.js";
import { gridSampleDown, gridSampleUp } from "../adapters/misc.js";
import { clipInputsDown, clipInputsUp } from "../adapters/pad-clip.js";
import { softmaxDown, softmaxUp } from "../adapters/softmax.js";
import { groupNormUp } from "../adapters/group-norm.js";
import type { StepSpec } from "../spec.js";
import { CONSUMED, rows, type Row } from "./row.js";

const SOFTMAX: StepSpec = {
  defaults: [],
  how: "2-D coercion at axis (default 1) -> one axis (default -1): Flatten, op, Reshape unless axis is the last; down: Transpose around it unless axis is the last",
  up: softmaxUp,
  down: softmaxDown,
};

export const NN_ROWS: readonly Row[] = [
  // BatchNormalization-1 requires consumed_inputs (a legacy hint, one flag per input).
  [
    "BatchNormalization",
    6,
    {
      removed: { consumed_inputs: { ok: "any", downSet: [0, 0, 0, 0, 0] } },
      how: "drop the legacy consumed_inputs; down: written as all 0 (BatchNormalization-1 requires it)",
    },
  ],
  [
    "BatchNormalization",
    7,
    { removed: { is_test: { ok: "any", downSet: 1 } }, how: "is_test dropped (inference is the runtime's choice from 7); down: is_test = 1" },
  ],
  ["BatchNormalization", 9, { removed: { spatial: { ok: 1 } }, how: "spatial dropped (spatial = 0 has no equivalent)" }],
  [
    "BatchNormalization",
    14,
    {
      added: { training_mode: 0 },
      up: batchNormOutputs,
      down: batchNormOutputs,
      how: "training outputs changed: inference nodes (no used extra outputs) convert",
    },
  ],
  ["Dropout", 6, CONSUMED],
  ["Dropout", 7, { removed: { is_test: { ok: "any", downSet: 1 } }, how: "is_test dropped; down: is_test = 1" }],
  ["Dropout", 10, { up: dropoutMask, down: dropoutMask, how: "mask output became bool: converts when the mask is unused" }],
  [
    "Dropout",
    12,
    {
      up: dropoutRatioUp,
      down: dropoutRatioDown,
      how: "ratio attribute -> constant input, training_mode input added; down: constant ratio, training_mode absent or false; a used mask is refused both ways (its inference value is unspecified before 12)",
    },
  ],
  ["Clip", 11, { up: clipInputsUp, down: clipInputsDown, how: "min/max attributes -> constant inputs of X's type; down: constant scalars -> attributes" }],
  ["Gemm", 7, { removed: { broadcast: { ok: "any" } }, down: gemmBroadcastDown, how: "broadcast dropped (C broadcasts from 7); down: broadcast = 1" }],
  ["Gemm", 11, { down: gemmCDown, how: "C optional from 11; down: a zero scalar C when absent" }],
  ...rows(["Softmax", "LogSoftmax", "Hardmax"], 11, { negativeAxes: ["axis"], how: "negative axis allowed from 11: down normalizes it with the input's rank" }),
  ...rows(["Softmax", "LogSoftmax", "Hardmax"], 13, SOFTMAX),
  ["AveragePool", 7, { added: { count_include_pad: 0 } }],
  ["AveragePool", 10, { added: { ceil_mode: 0 } }],
  ["AveragePool", 19, { added: { dilations: null } }],
  ["MaxPool", 8, { added: { storage_order: 0 }, down: maxPoolIndicesDown, how: "Indices output and storage_order added; down when Indices is unused" }],
  ["MaxPool", 10, { added: { dilations: null, ceil_mode: 0 } }],
  ["LpPool", 2, { up: lpIntUp, down: lpIntDown, how: "p became an int, kernel_shape required" }],
  ["GlobalLpPool", 2, { up: lpIntUp, down: lpIntDown, how: "p became an int" }],
  ["LpPool", 18, { added: { ceil_mode: 0, dilations: null } }],
  [
    "GridSample",
    20,
    { defaults: [], up: gridSampleUp, down: gridSampleDown, how: "modes bilinear/bicubic renamed linear/cubic, N-D input added; down: 4-D input only" },
  ],
  [
    "RoiAlign",
    16,
    {
      added: { coordinate_transformation_mode: "output_half_pixel" },
      how: "coordinate_transformation_mode added with default half_pixel: the old output_half_pixel is written out",
    },
  ],
  [
    "GroupNormalization",
    21,
    {
      up: groupNormUp,
      down: "GroupNormalization-18 is deprecated: onnx's checker rejects it at every opset",
      how: "scale/bias per group -> per channel (Reshape, Expand, Reshape; needs the channel count), 18's precision written as stash_type",
    },
  ],
  ...rows(["RNN", "LSTM"], 7, { up: outputSequenceUp, down: outputSequenceDown, how: "output_sequence dropped (Y is an optional output)" }),
  [
    "GRU",
    3,
    {
      added: { linear_before_reset: 0 },
      defaults: [],
      up: gruDirection,
      how: "linear_before_reset added (0 = old behaviour); the default direction's typo 'foward' is read as forward",
    },
  ],
  ["GRU", 7, { up: outputSequenceUp, down: outputSequenceDown, how: "output_sequence dropped (Y is an optional output)" }],
  ...rows(["RNN", "GRU", "LSTM"], 14, { added: { layout: 0 } }),
];
