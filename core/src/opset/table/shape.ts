// Shape and indexing ops: attributes that became inputs, negative axes from 11, new modes.
import {
  axesDown,
  oneHotNegativeDown,
  reduceAxesDown,
  reduceAxesUp,
  splitDown,
  splitNumOutputsDown,
  splitNumOutputsUp,
  splitUp,
  squeezeAxesUp,
  unsqueezeNegativeDown,
} from "../adapters/reduce.js";
import {
  allowZeroDown,
  concatAxisUp,
  reshapeDown,
  reshapeUp,
  shapeSliceDown,
  sliceDown,
  sliceUp,
  split2Down,
  split2Up,
  topkDown,
  topkUp,
} from "../adapters/shape-ops.js";
import { scatterToElements } from "../adapters/misc.js";
import { padAxesDown, padInputsDown, padInputsUp, padRenameDown, padRenameUp } from "../adapters/pad-clip.js";
import type { StepSpec } from "../spec.js";
import { REDUCE } from "../../infer/ops/reduce.js";
import { rows, type Row } from "./row.js";

const NEGATIVE_AXIS: StepSpec = { negativeAxes: ["axis"], how: "negative axis allowed from 11: down normalizes it with the input's rank" };
const NEGATIVE_AXES: StepSpec = { negativeAxes: ["axes"], how: "negative axes allowed from 11: down normalizes them with the input's rank" };

const AXES_INPUT: StepSpec = {
  how: "axes attribute -> constant input (noop_with_empty_axes = 0 keeps the old meaning); down: constant axes -> attribute, noop with no axes -> Identity",
  up: reduceAxesUp,
  down: reduceAxesDown,
};

export const SHAPE_ROWS: readonly Row[] = [
  ...rows(REDUCE, 11, NEGATIVE_AXES),
  ...rows(
    REDUCE.filter((r) => r !== "ReduceSum"),
    18,
    AXES_INPUT,
  ),
  ["ReduceSum", 13, AXES_INPUT],
  ...rows(["ArgMax", "ArgMin", "Concat", "Flatten", "Gather", "Split", "Compress"], 11, NEGATIVE_AXIS),
  ...rows(["ArgMax", "ArgMin"], 12, { added: { select_last_index: 0 } }),
  ["Squeeze", 11, NEGATIVE_AXES],
  ["Unsqueeze", 11, { down: unsqueezeNegativeDown, how: "negative axes allowed from 11: down normalizes them with the output's rank" }],
  ["OneHot", 11, { down: oneHotNegativeDown, how: "negative axis allowed from 11: down normalizes it with the output's rank" }],
  ["Squeeze", 13, { up: squeezeAxesUp, down: axesDown, how: "axes attribute -> constant input; down: constant axes -> attribute" }],
  ["Unsqueeze", 13, { up: squeezeAxesUp, down: axesDown, how: "axes attribute -> constant input; down: constant axes -> attribute" }],
  ["Split", 2, { up: split2Up, down: split2Down, how: "the split input -> split attribute (must be constant); axis written out" }],
  ["Split", 13, { up: splitUp, down: splitDown, how: "split attribute -> constant input; down: constant split -> attribute" }],
  [
    "Split",
    18,
    {
      up: splitNumOutputsUp,
      down: splitNumOutputsDown,
      how: "num_outputs written when split is absent; down: num_outputs -> equal parts or an explicit split from the known size",
    },
  ],
  ["Concat", 4, { up: concatAxisUp, how: "axis became required: the old default 1 is written out" }],
  ["Slice", 10, { up: sliceUp, down: sliceDown, how: "starts/ends/axes attributes -> constant inputs; down: constant inputs -> attributes, steps must be 1" }],
  ["TopK", 10, { up: topkUp, down: topkDown, how: "k attribute -> constant input; down: constant k -> attribute" }],
  ["TopK", 11, { ...NEGATIVE_AXIS, added: { largest: 1, sorted: 1 }, how: "largest/sorted added (1 = old behaviour); negative axis normalized going down" }],
  [
    "Reshape",
    5,
    {
      removed: { consumed_inputs: { ok: "any" } },
      up: reshapeUp,
      down: reshapeDown,
      how: "shape attribute -> constant input; down: constant shape -> attribute",
    },
  ],
  ["Reshape", 14, { down: allowZeroDown, how: "allowzero added (0 = old behaviour); down: allowzero = 1 only with a constant shape without 0" }],
  ["Pad", 2, { up: padRenameUp, down: padRenameDown, how: "paddings renamed pads" }],
  ["Pad", 11, { up: padInputsUp, down: padInputsDown, how: "pads and value attributes -> constant inputs; down: constant inputs -> attributes" }],
  ["Pad", 18, { down: padAxesDown, how: "axes input added; down: pads for the given axes -> pads for every axis (constant axes and pads, known rank)" }],
  ["Pad", 19, { newValues: { mode: ["wrap"] }, how: "mode wrap added: refused going down" }],
  ["Scatter", 11, { up: scatterToElements, how: "Scatter was replaced by ScatterElements (same meaning)" }],
  ...rows(["ScatterElements", "ScatterND"], 16, { added: { reduction: "none" } }),
  ...rows(["ScatterElements", "ScatterND"], 18, { newValues: { reduction: ["max", "min"] }, how: "reductions max/min added: refused going down" }),
  ["GatherND", 12, { added: { batch_dims: 0 } }],
  ["DepthToSpace", 11, { added: { mode: "DCR" } }],
  ["SpaceToDepth", 28, { added: { mode: "DCR" } }],
  ["Shape", 15, { down: shapeSliceDown, how: "start/end added; down: Shape then Slice" }],
  ["Tile", 6, { up: "Tile-1's tiles/axis inputs have no conversion here (rare)", down: "Tile-6's repeats input has no Tile-1 form here" }],
];
