// Deep copies of models that keep what protobuf-es keeps on prototypes (proto2 defaults and
// field presence); structuredClone copies own properties only and so loses them.
import { clone } from "@bufbuild/protobuf";
import { type ModelProto, ModelProtoSchema } from "../../proto/src/index.js";

/** A deep copy of `model` that every onnxtxt function reads exactly as the original. */
export function cloneModel(model: ModelProto): ModelProto {
  return clone(ModelProtoSchema, model);
}

/**
 * `model` itself, or a proper copy when it has lost its messages' prototypes (a
 * structuredClone of a model): the public entry points take such a model as the original.
 */
export function adoptModel(model: ModelProto): ModelProto {
  return Object.getPrototypeOf(model) === Object.prototype ? clone(ModelProtoSchema, model) : model;
}
