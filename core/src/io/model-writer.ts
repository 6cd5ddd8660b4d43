// A dedicated binary encoder for the messages that make up almost all of a model (graph, node,
// attribute, value info, type, tensor), writing bytes straight into one growing buffer. It
// produces exactly what protobuf-es's toBinary produces (fields in number order, proto2
// presence = own property, unknown fields last); a test holds it to that over every test
// model. Messages it has no writer for are encoded by toBinary and embedded; a message with
// unknown fields is encoded by toBinary as a whole; a value toBinary would refuse (a float
// out of range, an int64 that is not a bigint, ...) makes the caller use toBinary for the
// whole model, so errors stay exactly protobuf-es's.
import { toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema as ATTRIBUTE,
  GraphProtoSchema as GRAPH,
  ModelProtoSchema as MODEL,
  NodeProtoSchema as NODE,
  OperatorSetIdProtoSchema as OPSET,
  StringStringEntryProtoSchema as STRING_ENTRY,
  TensorProtoSchema as TENSOR,
  TensorProto_SegmentSchema as SEGMENT,
  TensorShapeProtoSchema as SHAPE,
  TensorShapeProto_DimensionSchema as DIMENSION,
  TypeProtoSchema as TYPE,
  TypeProto_MapSchema as MAP_TYPE,
  TypeProto_OptionalSchema as OPTIONAL_TYPE,
  TypeProto_SequenceSchema as SEQUENCE_TYPE,
  TypeProto_SparseTensorSchema as SPARSE_TYPE,
  TypeProto_TensorSchema as TENSOR_TYPE,
  ValueInfoProtoSchema as VALUE_INFO,
  DeviceConfigurationProtoSchema,
  FunctionProtoSchema,
  NodeDeviceConfigurationProtoSchema,
  SparseTensorProtoSchema,
  TensorAnnotationSchema,
  TrainingInfoProtoSchema,
  TypeProto_OpaqueSchema,
  type AttributeProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type OperatorSetIdProto,
  type StringStringEntryProto,
  type TensorProto,
  type TensorShapeProto,
  type TensorShapeProto_Dimension,
  type TypeProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";

/** Thrown when a value needs protobuf-es's own checks (and its error message). */
export class NeedsGenericEncoder extends Error {}

const LEN = 2;
const VARINT = 0;
const FIXED32 = 5;
const FLOAT32_MAX = 3.4028234663852886e38;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const utf8 = new TextEncoder();
const own = Object.prototype.hasOwnProperty;

/** Proto2 presence as protobuf-es sees it: an own property that is not undefined. */
function has(m: object, key: string): boolean {
  return own.call(m, key) && (m as Record<string, unknown>)[key] !== undefined;
}

class Writer {
  buf = new Uint8Array(1 << 16);
  view = new DataView(this.buf.buffer);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  varint(v: number): void {
    this.ensure(5);
    const b = this.buf;
    while (v > 0x7f) {
      b[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.pos++] = v;
  }

  /** Any 64-bit value as its two's complement (10 bytes when negative), like protobuf-es. */
  varint64(v: bigint): void {
    if (v >= 0n && v <= 0x7fffffffn) return this.varint(Number(v));
    let u = BigInt.asUintN(64, v);
    this.ensure(10);
    while (u > 0x7fn) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  tag(no: number, wire: number): void {
    this.varint((no << 3) | wire);
  }

  int32(v: number): void {
    if (!Number.isInteger(v) || v > 0x7fffffff || v < -0x80000000) throw new NeedsGenericEncoder();
    if (v >= 0) this.varint(v);
    else this.varint64(BigInt(v));
  }

  int64(v: bigint): void {
    if (typeof v !== "bigint" || v < INT64_MIN || v > INT64_MAX) throw new NeedsGenericEncoder();
    this.varint64(v);
  }

  uint64(v: bigint): void {
    if (typeof v !== "bigint" || v < 0n || v > UINT64_MAX) throw new NeedsGenericEncoder();
    this.varint64(v);
  }

  float(v: number): void {
    if (typeof v !== "number" || (Number.isFinite(v) && Math.abs(v) > FLOAT32_MAX)) throw new NeedsGenericEncoder();
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  double(v: number): void {
    if (typeof v !== "number") throw new NeedsGenericEncoder();
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  bytes(v: Uint8Array): void {
    if (!(v instanceof Uint8Array)) throw new NeedsGenericEncoder();
    this.varint(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }

  string(s: string): void {
    if (typeof s !== "string") throw new NeedsGenericEncoder();
    const n = s.length;
    if (n * 3 < 128) {
      // The length fits one byte whatever the characters: ASCII copied directly, the rest by TextEncoder.
      this.ensure(1 + n * 3);
      const b = this.buf;
      const lenAt = this.pos++;
      let p = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i < n) p += utf8.encodeInto(s.slice(i), b.subarray(p)).written;
      b[lenAt] = p - lenAt - 1;
      this.pos = p;
      return;
    }
    this.bytes(utf8.encode(s));
  }

  /** Starts a length-delimited field; `end` fills in the length once the body is written. */
  begin(no: number): number {
    this.tag(no, LEN);
    this.ensure(1);
    return this.pos++;
  }

  end(lenAt: number): void {
    const len = this.pos - lenAt - 1;
    if (len < 0x80) {
      this.buf[lenAt] = len;
      return;
    }
    let size = 1;
    for (let v = len; v > 0x7f; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(lenAt + size, lenAt + 1, this.pos);
    this.pos += size - 1;
    const saved = this.pos;
    this.pos = lenAt;
    this.varint(len);
    this.pos = saved;
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }
}

type BodyWriter<M> = (w: Writer, m: M) => void;

/** A sub-message field: our writer for its body, or toBinary when it carries unknown fields. */
function message<Desc extends DescMessage>(w: Writer, no: number, schema: Desc, m: MessageShape<Desc>, body: BodyWriter<MessageShape<Desc>>): void {
  if (m.$typeName !== schema.typeName) throw new NeedsGenericEncoder();
  const at = w.begin(no);
  if (m.$unknown !== undefined && m.$unknown.length > 0) w.raw(toBinary(schema, m));
  else body(w, m);
  w.end(at);
}

/** A message type this writer leaves to protobuf-es, embedded as its bytes. */
function generic<Desc extends DescMessage>(w: Writer, no: number, schema: Desc, m: MessageShape<Desc>): void {
  w.tag(no, LEN);
  w.bytes(toBinary(schema, m));
}

function optString(w: Writer, m: object, key: string, no: number): void {
  if (has(m, key)) {
    w.tag(no, LEN);
    w.string((m as Record<string, string>)[key]!);
  }
}

function optInt64(w: Writer, m: object, key: string, no: number): void {
  if (has(m, key)) {
    w.tag(no, VARINT);
    w.int64((m as Record<string, bigint>)[key]!);
  }
}

function optInt32(w: Writer, m: object, key: string, no: number): void {
  if (has(m, key)) {
    w.tag(no, VARINT);
    w.int32((m as Record<string, number>)[key]!);
  }
}

function strings(w: Writer, items: readonly string[], no: number): void {
  for (let i = 0; i < items.length; i++) {
    w.tag(no, LEN);
    w.string(items[i]!);
  }
}

function byteStrings(w: Writer, items: readonly Uint8Array[], no: number): void {
  for (let i = 0; i < items.length; i++) {
    w.tag(no, LEN);
    w.bytes(items[i]!);
  }
}

function entries(w: Writer, items: readonly StringStringEntryProto[], no: number): void {
  for (let i = 0; i < items.length; i++) message(w, no, STRING_ENTRY, items[i]!, writeStringEntry);
}


function writeStringEntry(w: Writer, m: StringStringEntryProto): void {
  optString(w, m, "key", 1);
  optString(w, m, "value", 2);
}

function writeOpset(w: Writer, m: OperatorSetIdProto): void {
  optString(w, m, "domain", 1);
  optInt64(w, m, "version", 2);
}

function writeModel(w: Writer, m: ModelProto): void {
  optInt64(w, m, "irVersion", 1);
  optString(w, m, "producerName", 2);
  optString(w, m, "producerVersion", 3);
  optString(w, m, "domain", 4);
  optInt64(w, m, "modelVersion", 5);
  optString(w, m, "docString", 6);
  if (has(m, "graph")) message(w, 7, GRAPH, m.graph!, writeGraph);
  for (const o of m.opsetImport) message(w, 8, OPSET, o, writeOpset);
  entries(w, m.metadataProps, 14);
  for (const t of m.trainingInfo) generic(w, 20, TrainingInfoProtoSchema, t);
  for (const f of m.functions) generic(w, 25, FunctionProtoSchema, f);
  for (const c of m.configuration) generic(w, 26, DeviceConfigurationProtoSchema, c);
}

function writeGraph(w: Writer, m: GraphProto): void {
  const nodes = m.node;
  for (let i = 0; i < nodes.length; i++) message(w, 1, NODE, nodes[i]!, writeNode);
  optString(w, m, "name", 2);
  for (const t of m.initializer) message(w, 5, TENSOR, t, writeTensor);
  optString(w, m, "docString", 10);
  for (const v of m.input) message(w, 11, VALUE_INFO, v, writeValueInfo);
  for (const v of m.output) message(w, 12, VALUE_INFO, v, writeValueInfo);
  for (const v of m.valueInfo) message(w, 13, VALUE_INFO, v, writeValueInfo);
  for (const a of m.quantizationAnnotation) generic(w, 14, TensorAnnotationSchema, a);
  for (const s of m.sparseInitializer) generic(w, 15, SparseTensorProtoSchema, s);
  entries(w, m.metadataProps, 16);
}

function writeNode(w: Writer, m: NodeProto): void {
  strings(w, m.input, 1);
  strings(w, m.output, 2);
  optString(w, m, "name", 3);
  optString(w, m, "opType", 4);
  const attrs = m.attribute;
  for (let i = 0; i < attrs.length; i++) message(w, 5, ATTRIBUTE, attrs[i]!, writeAttribute);
  optString(w, m, "docString", 6);
  optString(w, m, "domain", 7);
  optString(w, m, "overload", 8);
  entries(w, m.metadataProps, 9);
  for (const d of m.deviceConfigurations) generic(w, 10, NodeDeviceConfigurationProtoSchema, d);
}

function writeAttribute(w: Writer, m: AttributeProto): void {
  optString(w, m, "name", 1);
  if (has(m, "f")) {
    w.tag(2, FIXED32);
    w.float(m.f);
  }
  optInt64(w, m, "i", 3);
  if (has(m, "s")) {
    w.tag(4, LEN);
    w.bytes(m.s);
  }
  if (has(m, "t")) message(w, 5, TENSOR, m.t!, writeTensor);
  if (has(m, "g")) message(w, 6, GRAPH, m.g!, writeGraph);
  for (const f of m.floats) {
    w.tag(7, FIXED32);
    w.float(f);
  }
  for (const i of m.ints) {
    w.tag(8, VARINT);
    w.int64(i);
  }
  byteStrings(w, m.strings, 9);
  for (const t of m.tensors) message(w, 10, TENSOR, t, writeTensor);
  for (const g of m.graphs) message(w, 11, GRAPH, g, writeGraph);
  optString(w, m, "docString", 13);
  if (has(m, "tp")) message(w, 14, TYPE, m.tp!, writeType);
  for (const t of m.typeProtos) message(w, 15, TYPE, t, writeType);
  optInt32(w, m, "type", 20);
  optString(w, m, "refAttrName", 21);
  if (has(m, "sparseTensor")) generic(w, 22, SparseTensorProtoSchema, m.sparseTensor!);
  for (const s of m.sparseTensors) generic(w, 23, SparseTensorProtoSchema, s);
}

function writeValueInfo(w: Writer, m: ValueInfoProto): void {
  optString(w, m, "name", 1);
  if (has(m, "type")) message(w, 2, TYPE, m.type!, writeType);
  optString(w, m, "docString", 3);
  entries(w, m.metadataProps, 4);
}

function writeType(w: Writer, m: TypeProto): void {
  const v = m.value;
  // Oneof members by field number, with denotation (6) in its place among them.
  switch (v.case) {
    case "tensorType":
      message(w, 1, TENSOR_TYPE, v.value, writeTensorType);
      break;
    case "sequenceType":
      message(w, 4, SEQUENCE_TYPE, v.value, (ww, s) => has(s, "elemType") && message(ww, 1, TYPE, s.elemType!, writeType));
      break;
    case "mapType":
      message(w, 5, MAP_TYPE, v.value, (ww, s) => {
        optInt32(ww, s, "keyType", 1);
        if (has(s, "valueType")) message(ww, 2, TYPE, s.valueType!, writeType);
      });
      break;
  }
  optString(w, m, "denotation", 6);
  switch (v.case) {
    case "opaqueType":
      generic(w, 7, TypeProto_OpaqueSchema, v.value);
      break;
    case "sparseTensorType":
      message(w, 8, SPARSE_TYPE, v.value, writeTensorType);
      break;
    case "optionalType":
      message(w, 9, OPTIONAL_TYPE, v.value, (ww, s) => has(s, "elemType") && message(ww, 1, TYPE, s.elemType!, writeType));
      break;
  }
}

/** TypeProto.Tensor and TypeProto.SparseTensor have the same fields. */
function writeTensorType(w: Writer, m: { elemType: number; shape?: TensorShapeProto | undefined }): void {
  optInt32(w, m, "elemType", 1);
  if (has(m, "shape")) message(w, 2, SHAPE, m.shape!, writeShape);
}

function writeShape(w: Writer, m: TensorShapeProto): void {
  for (const d of m.dim) message(w, 1, DIMENSION, d, writeDimension);
}

function writeDimension(w: Writer, m: TensorShapeProto_Dimension): void {
  const v = m.value;
  if (v.case === "dimValue") {
    w.tag(1, VARINT);
    w.int64(v.value);
  } else if (v.case === "dimParam") {
    w.tag(2, LEN);
    w.string(v.value);
  }
  optString(w, m, "denotation", 3);
}

function writeTensor(w: Writer, m: TensorProto): void {
  for (const d of m.dims) {
    w.tag(1, VARINT);
    w.int64(d);
  }
  optInt32(w, m, "dataType", 2);
  if (has(m, "segment")) message(w, 3, SEGMENT, m.segment!, (ww, s) => {
    optInt64(ww, s, "begin", 1);
    optInt64(ww, s, "end", 2);
  });
  if (m.floatData.length > 0) {
    const at = w.begin(4);
    for (const f of m.floatData) w.float(f);
    w.end(at);
  }
  if (m.int32Data.length > 0) {
    const at = w.begin(5);
    for (const i of m.int32Data) w.int32(i);
    w.end(at);
  }
  byteStrings(w, m.stringData, 6);
  if (m.int64Data.length > 0) {
    const at = w.begin(7);
    for (const i of m.int64Data) w.int64(i);
    w.end(at);
  }
  optString(w, m, "name", 8);
  if (has(m, "rawData")) {
    w.tag(9, LEN);
    w.bytes(m.rawData);
  }
  if (m.doubleData.length > 0) {
    const at = w.begin(10);
    for (const d of m.doubleData) w.double(d);
    w.end(at);
  }
  if (m.uint64Data.length > 0) {
    const at = w.begin(11);
    for (const u of m.uint64Data) w.uint64(u);
    w.end(at);
  }
  optString(w, m, "docString", 12);
  entries(w, m.externalData, 13);
  optInt32(w, m, "dataLocation", 14);
  entries(w, m.metadataProps, 16);
}

/** The model's bytes; throws NeedsGenericEncoder when protobuf-es must do it (see the top). */
export function encodeModelDirect(model: ModelProto): Uint8Array {
  if (model.$typeName !== MODEL.typeName) throw new NeedsGenericEncoder();
  if (model.$unknown !== undefined && model.$unknown.length > 0) return toBinary(MODEL, model);
  const w = new Writer();
  writeModel(w, model);
  return w.buf.slice(0, w.pos);
}
