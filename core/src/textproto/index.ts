// Protobuf text format as an input: a ModelProto written by protobuf's text_format.
import type { ModelProto } from "../../../proto/src/index.js";
import { ModelProtoSchema } from "../../../proto/src/index.js";
import { readTextproto } from "./reader.js";

export { TextprotoError } from "./lexer.js";
export { readTextproto } from "./reader.js";

/** Reads a ModelProto from protobuf text format; throws TextprotoError (line:col) on bad input. */
export function modelFromTextproto(text: string): ModelProto {
  return readTextproto(ModelProtoSchema, text).message as ModelProto;
}
