// Deep copies of models that keep what protobuf-es keeps on prototypes (proto2 defaults and
// field presence); structuredClone copies own properties only and so loses them.
import { clone } from "@bufbuild/protobuf";
import { type ModelProto, ModelProtoSchema } from "../../proto/src/index.js";

/** A deep copy of `model` that every onnxtxt function reads exactly as the original. */
export function cloneModel(model: ModelProto): ModelProto {
  return clone(ModelProtoSchema, model);
}
