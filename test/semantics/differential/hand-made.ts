// Small models for single checker rules, judged by onnx too (their verdicts are recorded with the
// node tests'): a wrong element type on an input whose type the schema fixes, a tensor constant
// that does not fill its shape, a main-graph input or output without a shape.
import type { ModelProto } from "../../../proto/src/index.js";
import { floats, model, node } from "../build.js";

/** Each: the model and whether our checker must reject it. */
export interface HandMade {
  readonly model: ModelProto;
  readonly invalid: boolean;
}

export function handMadeModels(): Record<string, HandMade> {
  return {
    // Item 3: fixed-type inputs (tensor(int64), tensor(float), tensor(string)) given another type.
    "reshape-string-shape": {
      invalid: true,
      model: model({ opset: 14, inputs: ["x: float[2,3]", "s: string[2]"], outputs: ["y: float[3,2]"], nodes: [node("Reshape", ["x", "s"], ["y"])] }),
    },
    "squeeze-float-axes": {
      invalid: true,
      model: model({ opset: 13, inputs: ["x: float[1,3]", "a: float[1]"], outputs: ["y: float[3]"], nodes: [node("Squeeze", ["x", "a"], ["y"])] }),
    },
    "unsqueeze-float-axes": {
      invalid: true,
      model: model({ opset: 13, inputs: ["x: float[3]", "a: float[1]"], outputs: ["y: float[1,3]"], nodes: [node("Unsqueeze", ["x", "a"], ["y"])] }),
    },
    "pad-float-pads": {
      invalid: true,
      model: model({ opset: 13, inputs: ["x: float[3]", "p: float[2]"], outputs: ["y: float[?]"], nodes: [node("Pad", ["x", "p"], ["y"])] }),
    },
    "nms-int-boxes": {
      invalid: true,
      model: model({
        opset: 11,
        inputs: ["b: int64[1,2,4]", "s: float[1,1,2]"],
        outputs: ["y: int64[?,3]"],
        nodes: [node("NonMaxSuppression", ["b", "s"], ["y"])],
      }),
    },
    "string-normalizer-float-x": {
      invalid: true,
      model: model({ opset: 10, inputs: ["x: float[2]"], outputs: ["y: string[?]"], nodes: [node("StringNormalizer", ["x"], ["y"])] }),
    },
    "tensor-scatter-float-indices": {
      invalid: true,
      model: model({
        opset: 24,
        inputs: ["c: float[1,4,2]", "u: float[1,1,2]", "i: float[1]"],
        outputs: ["y: float[1,4,2]"],
        nodes: [node("TensorScatter", ["c", "u", "i"], ["y"])],
      }),
    },
    "reshape-int64-shape": {
      invalid: false,
      model: model({ opset: 14, inputs: ["x: float[2,3]", "s: int64[2]"], outputs: ["y: float[?,?]"], nodes: [node("Reshape", ["x", "s"], ["y"])] }),
    },
    "string-normalizer-string-x": {
      invalid: false,
      model: model({ opset: 10, inputs: ["x: string[2]"], outputs: ["y: string[?]"], nodes: [node("StringNormalizer", ["x"], ["y"])] }),
    },
    // Item 4: 3 values for a [2,2] tensor.
    "initializer-short-data": {
      invalid: true,
      model: model({
        opset: 13,
        inputs: ["x: float[2,2]"],
        initializers: [floats("w", [1, 2, 3], [2, 2])],
        outputs: ["y: float[2,2]"],
        nodes: [node("Add", ["x", "w"], ["y"])],
      }),
    },
    "constant-short-data": {
      invalid: true,
      model: model({ opset: 13, outputs: ["y: float[2,2]"], nodes: [node("Constant", [], ["y"], { value: floats("", [1, 2, 3], [2, 2]) })] }),
    },
    // Item 5: a main graph input or output with a tensor type but no shape field.
    "input-without-shape": { invalid: true, model: model({ opset: 13, inputs: ["x: int8"], outputs: ["y: int8[]"], nodes: [node("Neg", ["x"], ["y"])] }) },
    "output-without-shape": { invalid: true, model: model({ opset: 13, inputs: ["x: int8[]"], outputs: ["y: int8"], nodes: [node("Neg", ["x"], ["y"])] }) },
    "scalar-input-and-output": {
      invalid: false,
      model: model({ opset: 13, inputs: ["x: int8[]"], outputs: ["y: int8[]"], nodes: [node("Neg", ["x"], ["y"])] }),
    },
  };
}
