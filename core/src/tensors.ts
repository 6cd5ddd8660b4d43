// Tensors as values for library users: TensorProto built from plain values or typed arrays, and
// read back into typed arrays (what onnx.helper.make_tensor and numpy_helper.to_array/from_array
// do in Python). Encoding and decoding are the interpreter's, so every element type agrees.
import { dataTypeByName, dataTypeInfo } from "../../proto/src/data-types.js";
import type { TensorProto } from "../../proto/src/index.js";
import { OnnxtxtError } from "./io/errors.js";
import { tensorFromProto, tensorToProto } from "./interp/tensor-proto.js";
import { DT, getElement, setElement, sizeOf, tensor, type TensorData } from "./interp/value.js";

/** An element type by its number (`TensorProto.DataType`) or its text keyword (`"float16"`). */
export type ElementType = number | string;

/** What {@link tensorToArray} gives: a typed array matching the element type, or strings (the interpreter's tensor data). */
export type TensorArray = TensorData;

function elementType(t: ElementType): number {
  const info = typeof t === "number" ? dataTypeInfo(t) : dataTypeByName(t);
  if (!info) throw new OnnxtxtError(`unknown element type ${typeof t === "number" ? `#${t}` : `'${t}'`}`);
  return info.id;
}

function isComplex(dtype: number): boolean {
  return dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128;
}

/**
 * Builds a TensorProto of `dataType` and shape `dims` from logical values: numbers for every
 * numeric type (float16, bfloat16, float8 and 4-bit types are encoded, rounding as onnx does),
 * bigint or number for 64-bit integers, booleans for bool, strings for string; complex values
 * interleave real and imaginary parts. The data is stored in raw_data (strings in string_data).
 */
export function makeTensor(name: string, dataType: ElementType, dims: readonly number[], values: ArrayLike<number | bigint | boolean | string>): TensorProto {
  const dtype = elementType(dataType);
  const t = tensor(dtype, dims);
  if (values.length !== t.data.length) {
    throw new OnnxtxtError(`tensor '${name}' of shape [${dims.join(",")}] needs ${t.data.length} values, got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (typeof v === "string" && dtype !== DT.STRING) throw new OnnxtxtError(`tensor '${name}': value ${i} is a string, not a ${dataTypeInfo(dtype)!.name}`);
    if (isComplex(dtype)) (t.data as Float32Array | Float64Array)[i] = Number(v);
    else setElement(t, i, v);
  }
  return tensorToProto(t, name);
}

function dataTypeOfArray(a: TensorArray | readonly boolean[]): number {
  if (a instanceof Float32Array) return DT.FLOAT;
  if (a instanceof Float64Array) return DT.DOUBLE;
  if (a instanceof Int8Array) return DT.INT8;
  if (a instanceof Uint8Array) return DT.UINT8;
  if (a instanceof Int16Array) return DT.INT16;
  if (a instanceof Uint16Array) return DT.UINT16;
  if (a instanceof Int32Array) return DT.INT32;
  if (a instanceof Uint32Array) return DT.UINT32;
  if (a instanceof BigInt64Array) return DT.INT64;
  if (a instanceof BigUint64Array) return DT.UINT64;
  if (a.every((v) => typeof v === "boolean")) return DT.BOOL;
  if (a.every((v) => typeof v === "string")) return DT.STRING;
  throw new OnnxtxtError("an array of mixed values has no element type; give dataType");
}

/** Options of {@link tensorFromArray}. */
export interface FromArrayOptions {
  /** The shape (default: one dimension, the array's length). */
  readonly dims?: readonly number[];
  readonly name?: string;
  /** The element type when it is not the array's own (e.g. "float16" from a Float32Array). */
  readonly dataType?: ElementType;
}

/**
 * A TensorProto from a typed array, the element type from the array's class (Float32Array ->
 * float, BigInt64Array -> int64, string[] -> string, boolean[] -> bool) unless `dataType` says
 * otherwise; like numpy_helper.from_array.
 */
export function tensorFromArray(array: TensorArray | readonly boolean[], options: FromArrayOptions = {}): TensorProto {
  const dtype = options.dataType === undefined ? dataTypeOfArray(array) : elementType(options.dataType);
  const dims = options.dims ?? [isComplex(dtype) ? array.length / 2 : array.length];
  return makeTensor(options.name ?? "", dtype, dims, array);
}

/**
 * The values of a TensorProto (raw_data, typed fields or, for loaded models, external data) as a
 * typed array, like numpy_helper.to_array: float16, bfloat16, float8 and float4 types decode to a
 * Float32Array (exactly), int4/int2 to Int8Array, uint4/uint2 and bool to Uint8Array, int64 to
 * BigInt64Array, uint64 to BigUint64Array, complex types interleaved, string to string[].
 * The shape is `tensor.dims`. Throws {@link OnnxtxtError} when the data is missing or short.
 */
export function tensorToArray(proto: TensorProto): TensorArray {
  const t = tensorFromProto(proto);
  switch (t.dtype) {
    case DT.FLOAT16:
    case DT.BFLOAT16:
    case DT.FLOAT8E4M3FN:
    case DT.FLOAT8E4M3FNUZ:
    case DT.FLOAT8E5M2:
    case DT.FLOAT8E5M2FNUZ:
    case DT.FLOAT8E8M0:
    case DT.FLOAT4E2M1: {
      const out = new Float32Array(sizeOf(t.dims));
      for (let i = 0; i < out.length; i++) out[i] = getElement(t, i) as number;
      return out;
    }
    default:
      return copyOf(t.data);
  }
}

function copyOf(d: TensorData): TensorArray {
  return Array.isArray(d) ? d.slice() : d.slice();
}
