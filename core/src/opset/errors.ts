// Input that no conversion can start from (a bad target, an opset onnx never had): refused with
// one line, before anything is converted or written.
import { OnnxtxtError } from "../io/errors.js";

export class OpsetError extends OnnxtxtError {}
