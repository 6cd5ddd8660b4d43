// Facts about TensorProto element types, shared by every stage: the text keyword, the
// bit width, and the typed field that holds the values when raw_data is not used.
import { TensorProto_DataType as DT } from "../gen/onnx_pb.js";

/** The repeated TensorProto field that stores an element type's values (besides raw_data). */
export type StorageField = "floatData" | "doubleData" | "int32Data" | "int64Data" | "uint64Data" | "stringData";

export interface DataTypeInfo {
  readonly id: DT;
  /** The keyword of the text syntax, e.g. `float16`. */
  readonly name: string;
  /** Bits per element; 0 for string. Complex types count both parts. */
  readonly bits: number;
  readonly storage: StorageField;
}

function info(id: DT, name: string, bits: number, storage: StorageField): DataTypeInfo {
  return { id, name, bits, storage };
}

export const DATA_TYPES: readonly DataTypeInfo[] = [
  info(DT.FLOAT, "float", 32, "floatData"),
  info(DT.UINT8, "uint8", 8, "int32Data"),
  info(DT.INT8, "int8", 8, "int32Data"),
  info(DT.UINT16, "uint16", 16, "int32Data"),
  info(DT.INT16, "int16", 16, "int32Data"),
  info(DT.INT32, "int32", 32, "int32Data"),
  info(DT.INT64, "int64", 64, "int64Data"),
  info(DT.STRING, "string", 0, "stringData"),
  info(DT.BOOL, "bool", 8, "int32Data"),
  info(DT.FLOAT16, "float16", 16, "int32Data"),
  info(DT.DOUBLE, "double", 64, "doubleData"),
  info(DT.UINT32, "uint32", 32, "uint64Data"),
  info(DT.UINT64, "uint64", 64, "uint64Data"),
  info(DT.COMPLEX64, "complex64", 64, "floatData"),
  info(DT.COMPLEX128, "complex128", 128, "doubleData"),
  info(DT.BFLOAT16, "bfloat16", 16, "int32Data"),
  info(DT.FLOAT8E4M3FN, "float8e4m3fn", 8, "int32Data"),
  info(DT.FLOAT8E4M3FNUZ, "float8e4m3fnuz", 8, "int32Data"),
  info(DT.FLOAT8E5M2, "float8e5m2", 8, "int32Data"),
  info(DT.FLOAT8E5M2FNUZ, "float8e5m2fnuz", 8, "int32Data"),
  info(DT.UINT4, "uint4", 4, "int32Data"),
  info(DT.INT4, "int4", 4, "int32Data"),
  info(DT.FLOAT4E2M1, "float4e2m1", 4, "int32Data"),
  info(DT.FLOAT8E8M0, "float8e8m0", 8, "int32Data"),
  info(DT.UINT2, "uint2", 2, "int32Data"),
  info(DT.INT2, "int2", 2, "int32Data"),
  info(DT.FLOAT6E2M3, "float6e2m3", 6, "int32Data"),
  info(DT.FLOAT6E3M2, "float6e3m2", 6, "int32Data"),
];

const byId = new Map<number, DataTypeInfo>(DATA_TYPES.map((d) => [d.id, d]));
const byName = new Map<string, DataTypeInfo>(DATA_TYPES.map((d) => [d.name, d]));

export function dataTypeInfo(id: number): DataTypeInfo | undefined {
  return byId.get(id);
}

export function dataTypeByName(name: string): DataTypeInfo | undefined {
  return byName.get(name);
}

/** Bytes that `count` elements occupy in raw_data (sub-byte types are packed, rounded up). */
export function rawByteLength(id: number, count: number): number | undefined {
  const d = byId.get(id);
  if (!d || d.bits === 0) return undefined;
  return Math.ceil((d.bits * count) / 8);
}
