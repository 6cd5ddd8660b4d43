// Small constant tensors that inference folds to learn data-dependent shapes (Shape ->
// Gather -> Concat -> Reshape and the like). Only numeric tensors with few elements are kept.
import { TensorProto_DataType as DT, type TensorProto } from "../../../proto/src/index.js";

/** The largest constant that folding keeps: shapes and indices, not weights. */
export const MAX_FOLDED_ELEMENTS = 1024;

export interface Const {
  readonly elem: number;
  readonly shape: readonly number[];
  readonly values: readonly number[];
}

const RAW_READERS: Partial<Record<number, [number, (v: DataView, o: number) => number]>> = {
  [DT.FLOAT]: [4, (v, o) => v.getFloat32(o, true)],
  [DT.DOUBLE]: [8, (v, o) => v.getFloat64(o, true)],
  [DT.INT64]: [8, (v, o) => Number(v.getBigInt64(o, true))],
  [DT.UINT64]: [8, (v, o) => Number(v.getBigUint64(o, true))],
  [DT.INT32]: [4, (v, o) => v.getInt32(o, true)],
  [DT.UINT32]: [4, (v, o) => v.getUint32(o, true)],
  [DT.INT16]: [2, (v, o) => v.getInt16(o, true)],
  [DT.UINT16]: [2, (v, o) => v.getUint16(o, true)],
  [DT.INT8]: [1, (v, o) => v.getInt8(o)],
  [DT.UINT8]: [1, (v, o) => v.getUint8(o)],
  [DT.BOOL]: [1, (v, o) => v.getUint8(o)],
};

/** The values of a tensor proto when it is numeric, stored inline and small; else undefined. */
export function constOfTensor(t: TensorProto): Const | undefined {
  const shape = t.dims.map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  if (count > MAX_FOLDED_ELEMENTS || t.externalData.length > 0) return undefined;
  const reader = RAW_READERS[t.dataType];
  if (!reader) return undefined;
  let values: number[];
  if (t.rawData.length > 0) {
    const [size, read] = reader;
    if (t.rawData.length !== size * count) return undefined;
    const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    values = Array.from({ length: count }, (_, i) => read(view, i * size));
  } else if (t.dataType === DT.INT64) values = t.int64Data.map(Number);
  else if (t.dataType === DT.UINT64 || t.dataType === DT.UINT32) values = t.uint64Data.map(Number);
  else if (t.dataType === DT.FLOAT) values = [...t.floatData];
  else if (t.dataType === DT.DOUBLE) values = [...t.doubleData];
  else values = [...t.int32Data];
  return values.length === count ? { elem: t.dataType, shape, values } : undefined;
}

export function isIntegral(elem: number): boolean {
  return (
    elem === DT.INT64 ||
    elem === DT.INT32 ||
    elem === DT.INT16 ||
    elem === DT.INT8 ||
    elem === DT.UINT8 ||
    elem === DT.UINT16 ||
    elem === DT.UINT32 ||
    elem === DT.UINT64 ||
    elem === DT.BOOL
  );
}
