// TensorProto <-> Tensor and the value messages (.pb files) <-> Value. Reads raw_data
// (little-endian, sub-byte types packed low nibble first) and every typed field.
import { create } from "@bufbuild/protobuf";
import {
  MapProtoSchema,
  OptionalProtoSchema,
  OptionalProto_DataType,
  SequenceProtoSchema,
  SequenceProto_DataType,
  TensorProtoSchema,
  dataTypeInfo,
  type MapProto,
  type OptionalProto,
  type SequenceProto,
  type SparseTensorProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { OnnxtxtError, isExternal, type ValueProto } from "../io/index.js";
import { DT, allocData, checkAllocation, sizeOf, tensor, type NumericArray, type Tensor, type TensorData, type Value } from "./value.js";

const utf8 = new TextDecoder("utf-8");
const utf8e = new TextEncoder();

function subByteBits(dtype: number): number {
  switch (dtype) {
    case DT.INT4:
    case DT.UINT4:
    case DT.FLOAT4E2M1:
      return 4;
    case DT.INT2:
    case DT.UINT2:
      return 2;
    default:
      return 0;
  }
}

function signExtend(v: number, bits: number): number {
  const half = 1 << (bits - 1);
  return v >= half ? v - (1 << bits) : v;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Below this, raw_data is copied: small tensors stay independent of the message. */
const VIEW_MIN_BYTES = 1 << 16;

/**
 * Big raw_data as the tensor's typed array itself, with no copy, when its bytes are aligned for
 * the element type (on a little-endian host they are the elements as they are). Weights of a
 * gigabyte, read from external data, are then held once.
 */
function rawView(p: TensorProto, dtype: number, n: number): TensorData | undefined {
  const raw = p.rawData;
  if (!LITTLE_ENDIAN || raw.length < VIEW_MIN_BYTES || dtype === DT.STRING || subByteBits(dtype)) return undefined;
  const empty = allocData(dtype, 0) as Exclude<TensorData, string[]>;
  const count = dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128 ? 2 * n : n;
  const size = empty.BYTES_PER_ELEMENT;
  if (raw.length !== count * size || raw.byteOffset % size !== 0) return undefined;
  checkAllocation(dtype, count);
  const View = empty.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => Exclude<TensorData, string[]>;
  return new View(raw.buffer, raw.byteOffset, count);
}

export function tensorFromProto(p: TensorProto): Tensor {
  const dims = p.dims.map((d) => Number(d));
  const dtype = p.dataType;
  const name = p.name ? `tensor '${p.name}'` : "tensor";
  if (!dataTypeInfo(dtype) || dtype === DT.UNDEFINED) throw new OnnxtxtError(`${name}: unknown element type ${dtype}`);
  if (isExternal(p)) throw new OnnxtxtError(`${name}: external data was not loaded`);
  if (dims.some((d) => d < 0 || !Number.isSafeInteger(d))) throw new OnnxtxtError(`${name}: invalid dims [${dims.join(",")}]`);
  const n = sizeOf(dims);
  // What the message holds bounds the element count (8 per byte covers sub-byte types), so
  // a small file claiming huge dims is refused before anything is allocated for them.
  const held =
    p.rawData.length +
    p.stringData.length +
    4 * (p.floatData.length + p.int32Data.length) +
    8 * (p.int64Data.length + p.doubleData.length + p.uint64Data.length);
  if (n > 8 * held) throw new OnnxtxtError(`${name}: dims [${dims.join(",")}] need ${n} elements, but it holds ${held} bytes of data`);
  const view = rawView(p, dtype, n);
  if (view) return tensor(dtype, dims, view);
  const data = allocData(dtype, n);
  const isComplex = dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128;
  const count = isComplex ? 2 * n : n;
  if (dtype === DT.STRING) {
    if (p.stringData.length !== n) throw new OnnxtxtError(`${name}: expected ${n} strings, got ${p.stringData.length}`);
    const s = data as string[];
    for (let i = 0; i < n; i++) s[i] = utf8.decode(p.stringData[i]!);
    return tensor(dtype, dims, s);
  }
  const bits = subByteBits(dtype);
  if (p.rawData.length > 0 || (n > 0 && noTypedData(p))) {
    const raw = p.rawData;
    if (bits) {
      const need = Math.ceil((n * bits) / 8);
      if (raw.length < need) throw new OnnxtxtError(`${name}: raw_data holds ${raw.length} bytes, needs ${need}`);
      const d = data as Int8Array | Uint8Array;
      const signed = dtype === DT.INT4 || dtype === DT.INT2;
      const per = 8 / bits;
      const mask = (1 << bits) - 1;
      for (let i = 0; i < n; i++) {
        const v = (raw[(i / per) | 0]! >> ((i % per) * bits)) & mask;
        d[i] = signed ? signExtend(v, bits) : v;
      }
      return tensor(dtype, dims, d);
    }
    const arr = data as Exclude<typeof data, string[]>;
    const bytes = arr.byteLength;
    if (raw.length !== bytes) throw new OnnxtxtError(`${name}: raw_data holds ${raw.length} bytes, expected ${bytes}`);
    new Uint8Array(arr.buffer, arr.byteOffset, bytes).set(raw);
    return tensor(dtype, dims, data);
  }
  // typed fields
  const src = typedField(p, dtype);
  if (bits) {
    // int32_data holds either one value per entry or the packed bytes (2 per entry for 4-bit)
    const d = data as Int8Array | Uint8Array;
    const signed = dtype === DT.INT4 || dtype === DT.INT2;
    const mask = (1 << bits) - 1;
    const srcNums = src as number[];
    const perEntry = srcNums.length === n ? 1 : 8 / bits;
    if (srcNums.length < Math.ceil(n / perEntry)) throw new OnnxtxtError(`${name}: expected ${Math.ceil(n / (8 / bits))} packed values, got ${srcNums.length}`);
    for (let i = 0; i < n; i++) {
      const v = (srcNums[(i / perEntry) | 0]! >> ((i % perEntry) * bits)) & mask;
      d[i] = signed ? signExtend(v, bits) : v;
    }
    return tensor(dtype, dims, d);
  }
  if (src.length !== count) throw new OnnxtxtError(`${name}: expected ${count} values, got ${src.length}`);
  if (dtype === DT.INT64) {
    const d = data as BigInt64Array;
    for (let i = 0; i < n; i++) d[i] = BigInt.asIntN(64, BigInt(src[i]!));
  } else if (dtype === DT.UINT64 || dtype === DT.UINT32) {
    const d = data as unknown as (number | bigint)[];
    for (let i = 0; i < n; i++) d[i] = dtype === DT.UINT64 ? BigInt.asUintN(64, BigInt(src[i]!)) : Number(src[i]!);
  } else {
    const d = data as NumericArray;
    // int32_data holds the bit patterns of 16-bit and 8-bit floats, and bool as 0/1
    for (let i = 0; i < count; i++) d[i] = Number(src[i]!);
  }
  return tensor(dtype, dims, data);
}

function noTypedData(p: TensorProto): boolean {
  return p.floatData.length + p.int32Data.length + p.int64Data.length + p.doubleData.length + p.uint64Data.length === 0;
}

function typedField(p: TensorProto, dtype: number): readonly (number | bigint)[] {
  switch (dataTypeInfo(dtype)?.storage) {
    case "floatData":
      return p.floatData;
    case "doubleData":
      return p.doubleData;
    case "int64Data":
      return p.int64Data;
    case "uint64Data":
      return p.uint64Data;
    default:
      return p.int32Data;
  }
}

/** A TensorProto with raw_data (strings in string_data). */
export function tensorToProto(t: Tensor, name = ""): TensorProto {
  const p = create(TensorProtoSchema, { name, dataType: t.dtype, dims: t.dims.map((d) => BigInt(d)) });
  if (t.dtype === DT.STRING) {
    p.stringData = (t.data as string[]).map((s) => utf8e.encode(s));
    return p;
  }
  const bits = subByteBits(t.dtype);
  if (bits) {
    const n = t.data.length;
    const per = 8 / bits;
    const mask = (1 << bits) - 1;
    const raw = new Uint8Array(Math.ceil(n / per));
    const d = t.data as Int8Array;
    for (let i = 0; i < n; i++) raw[(i / per) | 0]! |= (d[i]! & mask) << ((i % per) * bits);
    p.rawData = raw;
    return p;
  }
  const arr = t.data as Exclude<typeof t.data, string[]>;
  p.rawData = new Uint8Array(arr.buffer.slice(arr.byteOffset, arr.byteOffset + arr.byteLength));
  return p;
}

export function sparseToDense(s: SparseTensorProto): Tensor {
  if (!s.values || !s.indices) throw new OnnxtxtError("sparse tensor without values or indices");
  const values = tensorFromProto(s.values);
  const indices = tensorFromProto(s.indices);
  const dims = s.dims.map(Number);
  const out = tensor(values.dtype, dims);
  const nnz = values.data.length;
  const rank = dims.length;
  const idx = indices.data as BigInt64Array;
  const o = out.data as unknown as unknown[];
  const strides: number[] = [];
  let acc = 1;
  for (let i = rank - 1; i >= 0; i--) {
    strides[i] = acc;
    acc *= dims[i]!;
  }
  for (let k = 0; k < nnz; k++) {
    let off: number;
    if (indices.dims.length === 1) off = Number(idx[k]!);
    else {
      off = 0;
      for (let r = 0; r < rank; r++) off += Number(idx[k * rank + r]!) * strides[r]!;
    }
    o[off] = values.data[k];
  }
  return out;
}

export function valueFromProto(v: ValueProto): Value {
  switch (v.kind) {
    case "tensor":
      return tensorFromProto(v.value);
    case "sequence":
      return sequenceFromProto(v.value);
    case "map":
      return mapFromProto(v.value);
    case "optional":
      return optionalFromProto(v.value);
  }
}

function sequenceFromProto(s: SequenceProto): Value {
  switch (s.elemType) {
    case SequenceProto_DataType.SEQUENCE:
      return { kind: "sequence", items: s.sequenceValues.map(sequenceFromProto) };
    case SequenceProto_DataType.MAP:
      return { kind: "sequence", items: s.mapValues.map(mapFromProto) };
    case SequenceProto_DataType.OPTIONAL:
      return { kind: "sequence", items: s.optionalValues.map(optionalFromProto) };
    default: {
      const items = s.tensorValues.map(tensorFromProto);
      return items.length > 0 ? { kind: "sequence", items } : { kind: "sequence", items, elemType: DT.FLOAT };
    }
  }
}

function mapFromProto(m: MapProto): Value {
  const keys = m.keyType === DT.STRING ? m.stringKeys.map((k) => utf8.decode(k)) : m.keys.slice();
  const values = m.values ? sequenceFromProto(m.values) : { kind: "sequence" as const, items: [] };
  return { kind: "map", keyType: m.keyType, keys, values };
}

function optionalFromProto(o: OptionalProto): Value {
  switch (o.elemType) {
    case OptionalProto_DataType.TENSOR:
      return { kind: "optional", value: o.tensorValue ? tensorFromProto(o.tensorValue) : undefined };
    case OptionalProto_DataType.SEQUENCE:
      return { kind: "optional", value: o.sequenceValue ? sequenceFromProto(o.sequenceValue) : undefined };
    case OptionalProto_DataType.MAP:
      return { kind: "optional", value: o.mapValue ? mapFromProto(o.mapValue) : undefined };
    case OptionalProto_DataType.OPTIONAL:
      return { kind: "optional", value: o.optionalValue ? optionalFromProto(o.optionalValue) : undefined };
    default:
      return { kind: "optional", value: undefined };
  }
}

export function valueToProto(v: Value, name = ""): ValueProto {
  switch (v.kind) {
    case "tensor":
      return { kind: "tensor", value: tensorToProto(v, name) };
    case "sequence":
      return { kind: "sequence", value: sequenceToProto(v, name) };
    case "map":
      return { kind: "map", value: mapToProto(v, name) };
    case "optional":
      return { kind: "optional", value: optionalToProto(v, name) };
  }
}

function sequenceToProto(v: Extract<Value, { kind: "sequence" }>, name: string): SequenceProto {
  const first = v.items[0];
  const s = create(SequenceProtoSchema, { name, elemType: SequenceProto_DataType.TENSOR });
  if (!first || first.kind === "tensor") s.tensorValues = v.items.map((x) => tensorToProto(x as Tensor));
  else if (first.kind === "sequence") {
    s.elemType = SequenceProto_DataType.SEQUENCE;
    s.sequenceValues = v.items.map((x) => sequenceToProto(x as Extract<Value, { kind: "sequence" }>, ""));
  } else if (first.kind === "map") {
    s.elemType = SequenceProto_DataType.MAP;
    s.mapValues = v.items.map((x) => mapToProto(x as Extract<Value, { kind: "map" }>, ""));
  } else {
    s.elemType = SequenceProto_DataType.OPTIONAL;
    s.optionalValues = v.items.map((x) => optionalToProto(x as Extract<Value, { kind: "optional" }>, ""));
  }
  return s;
}

function mapToProto(v: Extract<Value, { kind: "map" }>, name: string): MapProto {
  const m = create(MapProtoSchema, { name, keyType: v.keyType });
  if (v.keyType === DT.STRING) m.stringKeys = v.keys.map((k) => utf8e.encode(String(k)));
  else m.keys = v.keys.map((k) => BigInt(k));
  if (v.values.kind === "sequence") m.values = sequenceToProto(v.values, "");
  return m;
}

function optionalToProto(v: Extract<Value, { kind: "optional" }>, name: string): OptionalProto {
  const o = create(OptionalProtoSchema, { name });
  const x = v.value;
  if (!x) {
    o.elemType = OptionalProto_DataType.TENSOR;
    return o;
  }
  switch (x.kind) {
    case "tensor":
      o.elemType = OptionalProto_DataType.TENSOR;
      o.tensorValue = tensorToProto(x);
      break;
    case "sequence":
      o.elemType = OptionalProto_DataType.SEQUENCE;
      o.sequenceValue = sequenceToProto(x, "");
      break;
    case "map":
      o.elemType = OptionalProto_DataType.MAP;
      o.mapValue = mapToProto(x, "");
      break;
    case "optional":
      o.elemType = OptionalProto_DataType.OPTIONAL;
      o.optionalValue = optionalToProto(x, "");
      break;
  }
  return o;
}
