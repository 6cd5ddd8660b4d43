// Decoding and encoding of binary protobuf messages: models and the value files (`.pb`)
// used by test data, with the generated decoders and encoders (proto/gen/onnx_decode.ts,
// onnx_encode.ts), which give what protobuf-es's fromBinary and toBinary give, faster. Pure
// functions over bytes; the callers do the file IO.
import type { Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { decodeMapProto, decodeModelProto, decodeOptionalProto, decodeSequenceProto, decodeTensorProto } from "../../../proto/gen/onnx_decode.js";
import { encodeMapProto, encodeModelProto, encodeOptionalProto, encodeSequenceProto, encodeTensorProto } from "../../../proto/gen/onnx_encode.js";
import type { DecodeOptions } from "../../../proto/src/wire-reader.js";
import {
  MapProtoSchema,
  ModelProtoSchema,
  OptionalProtoSchema,
  SequenceProtoSchema,
  TensorProtoSchema,
  type MapProto,
  type ModelProto,
  type OptionalProto,
  type SequenceProto,
  type TensorProto,
  type TypeProto,
} from "../../../proto/src/index.js";
import { ALIGN_MIN_BYTES, alignRawData } from "./align-raw.js";
import { patchWire, recordFromWire } from "./nan-bits.js";
import { OnnxtxtError, describeError } from "./errors.js";
import { checkWire, MAX_MESSAGE_DEPTH, type WireScan } from "./wire-check.js";
import { adoptModel } from "../clone.js";

/**
 * `read` is the generated decoder of `schema`'s messages (proto/gen/onnx_decode.ts), which
 * gives what protobuf-es's `fromBinary(schema, bytes)` would, several times faster.
 */
function decode<T extends Message>(
  schema: GenMessage<T>,
  read: (bytes: Uint8Array, options: DecodeOptions) => T,
  bytes: Uint8Array,
  what: string,
): { message: T; scan: WireScan } {
  try {
    // The scan first: a damaged file gets an error that says where, before the decoder runs.
    const scan = checkWire(schema, bytes);
    const message = read(bytes, { recursionLimit: MAX_MESSAGE_DEPTH });
    if (scan.oddNans) recordFromWire(schema, message, bytes); // NaN bit patterns, which numbers may not keep
    return { message, scan };
  } catch (e) {
    throw new OnnxtxtError(`not a valid ${what}: ${describeError(e)}`);
  }
}

/**
 * `owned`: the caller hands `bytes` over (a file it has just read), so big raw_data may be
 * realigned in place for zero-copy views (align-raw.ts).
 */
export function decodeModel(bytes: Uint8Array, options: { owned?: boolean } = {}): ModelProto {
  const { message: model, scan } = decode(ModelProtoSchema, decodeModelProto, bytes, "ONNX model");
  // A walk of the whole model, skipped when no value is long enough to be moved.
  if (options.owned && scan.longestValue >= ALIGN_MIN_BYTES) alignRawData(model, bytes);
  return model;
}

export function encodeModel(model: ModelProto): Uint8Array {
  model = adoptModel(model);
  return patchWire(ModelProtoSchema, model, encodeModelProto(model));
}

/** A runtime value as stored in a `.pb` file: one of the four test-data messages. */
export type ValueProto =
  | { kind: "tensor"; value: TensorProto }
  | { kind: "sequence"; value: SequenceProto }
  | { kind: "map"; value: MapProto }
  | { kind: "optional"; value: OptionalProto };

type ValueKind = ValueProto["kind"];

export function decodeValue(bytes: Uint8Array, kind: ValueKind): ValueProto {
  switch (kind) {
    case "tensor":
      return { kind, value: decode(TensorProtoSchema, decodeTensorProto, bytes, "TensorProto").message };
    case "sequence":
      return { kind, value: decode(SequenceProtoSchema, decodeSequenceProto, bytes, "SequenceProto").message };
    case "map":
      return { kind, value: decode(MapProtoSchema, decodeMapProto, bytes, "MapProto").message };
    case "optional":
      return { kind, value: decode(OptionalProtoSchema, decodeOptionalProto, bytes, "OptionalProto").message };
  }
}

export function encodeValue(v: ValueProto): Uint8Array {
  switch (v.kind) {
    case "tensor":
      return patchWire(TensorProtoSchema, v.value, encodeTensorProto(v.value));
    case "sequence":
      return encodeSequenceProto(v.value);
    case "map":
      return encodeMapProto(v.value);
    case "optional":
      return encodeOptionalProto(v.value);
  }
}

/** Which value message a `.pb` file holds for a value of this type. */
export function valueKindOf(type: TypeProto | undefined): ValueKind {
  switch (type?.value.case) {
    case "sequenceType":
      return "sequence";
    case "mapType":
      return "map";
    case "optionalType":
      return "optional";
    default:
      return "tensor";
  }
}
