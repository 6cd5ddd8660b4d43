// Cast, Constant, quantization, Resize/Upsample, signal, attention and ai.onnx.ml rows.
import { castToDown, castToUp, saturateDown } from "../adapters/cast.js";
import { constantValuesDown, dftAxisDown, dftAxisUp, inputRequiredDown, perTensorDown } from "../adapters/misc.js";
import { resize11Down, resize11Up, resize13Down, upsample7Down, upsample7Up, upsample9Down, upsample9Up, upsampleToResize } from "../adapters/resize.js";
import { rows, type Row } from "./row.js";
import { labelEncoderDown, labelEncoderUp } from "../adapters/label-encoder.js";

export const MISC_ROWS: readonly Row[] = [
  ["Cast", 6, { up: castToUp, down: castToDown, how: "`to` changed from a type name to a DataType number" }],
  ...rows(["Cast", "CastLike"], 19, {
    down: saturateDown,
    how: "saturate added; it concerns float8 only (new at 19): down drops it when no float8 is involved",
  }),
  ...rows(["Cast", "CastLike"], 24, { added: { round_mode: "up" }, how: "round_mode added (it concerns float8e8m0 only, new at 24)" }),
  ["Constant", 11, { added: { sparse_value: null }, how: "sparse_value added: refused going down" }],
  ["Constant", 12, { added: {}, down: constantValuesDown, how: "value_float(s)/value_int(s) added; down: written as a value tensor" }],
  ...rows(["QuantizeLinear", "DequantizeLinear"], 13, { down: perTensorDown, how: "axis (per-axis scales) added; down with a one-element scale" }),
  ["DequantizeLinear", 19, { how: "the scale's type became T (type-checked)" }],
  [
    "QuantizeLinear",
    19,
    { down: saturateDown, how: "the scale's type became T (type-checked); saturate concerns float8 only: down drops it when no float8 is involved" },
  ],
  ["DequantizeLinear", 21, { added: { block_size: 0 } }],
  ["QuantizeLinear", 21, { added: { block_size: 0, output_dtype: 0 } }],
  ["DequantizeLinear", 23, { added: { output_dtype: 0 } }],
  ["QuantizeLinear", 23, { added: { precision: 0 } }],
  ["QLinearMatMul", 21, { how: "scale types became T (type-checked)" }],
  ["Range", 27, { added: { stash_type: 1 }, how: "stash_type added (it concerns float16/bfloat16, new at 27)" }],
  ["DFT", 20, { up: dftAxisUp, down: dftAxisDown, how: "axis attribute (default 1) -> input (default -2); down: constant axis, normalized" }],
  ["Attention", 24, { addedInputs: [6] }],
  ["Attention", 25, { added: { left_window_size: -1, right_window_size: -1 } }],
  ["OptionalHasElement", 18, { down: inputRequiredDown, how: "the input became optional" }],
  ["Upsample", 7, { up: upsample7Up, down: upsample7Down, how: "height_scale/width_scale -> scales [1, 1, h, w]; bilinear renamed linear" }],
  ["Upsample", 9, { up: upsample9Up, down: upsample9Down, how: "scales attribute -> constant input" }],
  ["Upsample", 10, { up: upsampleToResize, how: "Upsample was replaced by Resize-10 (same meaning)" }],
  [
    "Resize",
    11,
    {
      up: resize11Up,
      down: resize11Down,
      how: "roi input and coordinate modes added: 10's asymmetric/floor rule is written out; down: only that rule, with scales",
    },
  ],
  ["Resize", 13, { down: resize13Down, how: "roi and scales became optional; down: empty tensors for absent ones" }],
  ["Resize", 18, { added: { antialias: 0, axes: null, keep_aspect_ratio_policy: "stretch" } }],
  [
    "Resize",
    19,
    { newValues: { coordinate_transformation_mode: ["half_pixel_symmetric"] }, how: "coordinate mode half_pixel_symmetric added: refused going down" },
  ],
  ["Scan", 9, { up: "Scan-8's batch axis and sequence_lens have no conversion here", down: "Scan-9's scan axes have no Scan-8 form here" }],
  [
    "Scan",
    11,
    {
      down: (n) =>
        n.attribute.some((a) => /axes$/.test(a.name) && a.ints.some((x) => x < 0)) ? { refused: "negative scan axes are new in opset 11" } : { nodes: [n] },
      how: "negative scan axes allowed from 11: refused going down",
    },
  ],
];

export const ML_ROWS: readonly Row[] = [
  [
    "LabelEncoder",
    2,
    {
      up: labelEncoderUp,
      down: labelEncoderDown,
      how: "classes_strings -> keys/values lists (strings and their indices); down: such lists -> classes_strings",
    },
  ],
  ["LabelEncoder", 4, { added: { keys_tensor: null, values_tensor: null, default_tensor: null } }],
  [
    "TreeEnsembleClassifier",
    3,
    { added: { base_values_as_tensor: null, nodes_values_as_tensor: null, nodes_hitrates_as_tensor: null, class_weights_as_tensor: null } },
  ],
  [
    "TreeEnsembleRegressor",
    3,
    { added: { base_values_as_tensor: null, nodes_values_as_tensor: null, nodes_hitrates_as_tensor: null, target_weights_as_tensor: null } },
  ],
  ...rows(["TreeEnsembleClassifier", "TreeEnsembleRegressor"], 5, { up: "replaced by TreeEnsemble at ai.onnx.ml 5 (not converted yet)" }),
];
