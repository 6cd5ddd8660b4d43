// Runtime values of the interpreter: tensors on typed arrays, sequences, maps and optionals.
// Small float formats keep their bit patterns; int4/uint4 are unpacked one element per byte.
import { TensorProto_DataType as DT, dataTypeInfo } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/index.js";
import { claimBytes } from "./budget.js";
import { InterpError } from "./errors.js";

export { setAllocationLimit } from "./budget.js";
import {
  bfloat16ToNumber,
  E2M1,
  E4M3FN,
  E4M3FNUZ,
  E5M2,
  E5M2FNUZ,
  float16ToNumber,
  miniToNumber,
  numberToBfloat16,
  numberToFloat16,
  numberToMini,
} from "./float-bits.js";

export { DT };

export type TensorData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | string[];

export type NumericArray = Exclude<TensorData, string[] | BigInt64Array | BigUint64Array>;

export interface Tensor {
  readonly kind: "tensor";
  /** A TensorProto.DataType value. */
  readonly dtype: number;
  readonly dims: readonly number[];
  /** Row-major elements; complex types interleave real and imaginary parts. */
  readonly data: TensorData;
}

export interface SequenceValue {
  readonly kind: "sequence";
  readonly items: readonly Value[];
  /** Element tensor type when known (for empty sequences). */
  readonly elemType?: number | undefined;
}

interface MapValue {
  readonly kind: "map";
  readonly keyType: number;
  readonly keys: readonly (bigint | string)[];
  readonly values: Value;
}

interface OptionalValue {
  readonly kind: "optional";
  readonly value: Value | undefined;
  readonly elemType?: number | undefined;
}

export type Value = Tensor | SequenceValue | MapValue | OptionalValue;

export function sizeOf(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

/** Bytes one element of `dtype` takes in storage (strings are counted as 16). */
function storageBytes(dtype: number): number {
  switch (dtype) {
    case DT.DOUBLE:
    case DT.INT64:
    case DT.UINT64:
    case DT.COMPLEX64:
      return 8;
    case DT.COMPLEX128:
    case DT.STRING:
      return 16;
    case DT.FLOAT:
    case DT.INT32:
    case DT.UINT32:
      return 4;
    case DT.INT16:
    case DT.UINT16:
    case DT.FLOAT16:
    case DT.BFLOAT16:
      return 2;
    default:
      return 1;
  }
}

/** Claims the memory of `n` elements of `dtype` from the run's budget; for kernels that plan first. */
export function checkAllocation(dtype: number, n: number): void {
  if (Number.isNaN(n) || n < 0 || (Number.isFinite(n) && !Number.isInteger(n))) {
    throw new InterpError(`a tensor of ${n} ${dtypeName(dtype)} elements is not possible: sizes must be whole numbers from 0 to 2^53`);
  }
  claimBytes(n * storageBytes(dtype), () => `a tensor of ${n} ${dtypeName(dtype)} elements`);
}

/** Zeroed float64 scratch of a kernel, claimed from the run's memory budget first. */
export function floats64(n: number): Float64Array {
  checkAllocation(DT.DOUBLE, n);
  return new Float64Array(n);
}

/** Zeroed float32 storage, claimed from the run's memory budget first. */
export function floats32(n: number): Float32Array {
  checkAllocation(DT.FLOAT, n);
  return new Float32Array(n);
}

/** Zeroed int32 scratch (index maps), claimed from the run's memory budget first. */
export function ints32(n: number): Int32Array {
  checkAllocation(DT.INT32, n);
  return new Int32Array(n);
}

/** Allocates zeroed storage for `n` elements of `dtype`. */
export function allocData(dtype: number, n: number): TensorData {
  checkAllocation(dtype, n);
  switch (dtype) {
    case DT.FLOAT:
      return new Float32Array(n);
    case DT.DOUBLE:
      return new Float64Array(n);
    case DT.INT8:
    case DT.INT4:
    case DT.INT2:
      return new Int8Array(n);
    case DT.UINT8:
    case DT.BOOL:
    case DT.UINT4:
    case DT.UINT2:
    case DT.FLOAT8E4M3FN:
    case DT.FLOAT8E4M3FNUZ:
    case DT.FLOAT8E5M2:
    case DT.FLOAT8E5M2FNUZ:
    case DT.FLOAT8E8M0:
    case DT.FLOAT4E2M1:
      return new Uint8Array(n);
    case DT.INT16:
      return new Int16Array(n);
    case DT.UINT16:
    case DT.FLOAT16:
    case DT.BFLOAT16:
      return new Uint16Array(n);
    case DT.INT32:
      return new Int32Array(n);
    case DT.UINT32:
      return new Uint32Array(n);
    case DT.INT64:
      return new BigInt64Array(n);
    case DT.UINT64:
      return new BigUint64Array(n);
    case DT.STRING:
      return new Array<string>(n).fill("");
    case DT.COMPLEX64:
      return new Float32Array(2 * n);
    case DT.COMPLEX128:
      return new Float64Array(2 * n);
    default:
      throw new OnnxtxtError(`unsupported element type ${dtypeName(dtype)}`);
  }
}

export function dtypeName(dtype: number): string {
  return dataTypeInfo(dtype)?.name ?? `#${dtype}`;
}

export function tensor(dtype: number, dims: readonly number[], data?: TensorData): Tensor {
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0)
      throw new InterpError(`a tensor of shape [${dims.join(",")}] is not possible: dimensions must be whole numbers from 0 up`);
  }
  const n = sizeOf(dims);
  const d = data ?? allocData(dtype, n);
  const expected = dtype === DT.COMPLEX64 || dtype === DT.COMPLEX128 ? 2 * n : n;
  if (d.length !== expected) throw new OnnxtxtError(`tensor of shape [${dims.join(",")}] needs ${expected} elements, got ${d.length}`);
  return { kind: "tensor", dtype, dims: dims.slice(), data: d };
}

export function scalar(dtype: number, v: number | bigint | string | boolean): Tensor {
  const t = tensor(dtype, []);
  setElement(t, 0, v);
  return t;
}

export function isFloatType(dtype: number): boolean {
  return (
    dtype === DT.FLOAT ||
    dtype === DT.DOUBLE ||
    dtype === DT.FLOAT16 ||
    dtype === DT.BFLOAT16 ||
    dtype === DT.FLOAT8E4M3FN ||
    dtype === DT.FLOAT8E4M3FNUZ ||
    dtype === DT.FLOAT8E5M2 ||
    dtype === DT.FLOAT8E5M2FNUZ ||
    dtype === DT.FLOAT4E2M1 ||
    dtype === DT.FLOAT8E8M0
  );
}

export function isBigType(dtype: number): boolean {
  return dtype === DT.INT64 || dtype === DT.UINT64;
}

export function expectTensor(v: Value | undefined, what: string): Tensor {
  if (v === undefined) throw new OnnxtxtError(`${what}: missing input`);
  if (v.kind !== "tensor") throw new OnnxtxtError(`${what}: expected a tensor, got a ${v.kind}`);
  return v;
}

/** Element i as a JS value (number, bigint, string; bool as 0/1 number). */
export function getElement(t: Tensor, i: number): number | bigint | string {
  const v = t.data[i]!;
  switch (t.dtype) {
    case DT.FLOAT16:
      return float16ToNumber(v as number);
    case DT.BFLOAT16:
      return bfloat16ToNumber(v as number);
    case DT.FLOAT8E4M3FN:
      return miniToNumber(E4M3FN, v as number);
    case DT.FLOAT8E4M3FNUZ:
      return miniToNumber(E4M3FNUZ, v as number);
    case DT.FLOAT8E5M2:
      return miniToNumber(E5M2, v as number);
    case DT.FLOAT8E5M2FNUZ:
      return miniToNumber(E5M2FNUZ, v as number);
    case DT.FLOAT4E2M1:
      return miniToNumber(E2M1, v as number);
    case DT.FLOAT8E8M0:
      return (v as number) === 255 ? NaN : 2 ** ((v as number) - 127);
    default:
      return v;
  }
}

export function setElement(t: Tensor, i: number, v: number | bigint | string | boolean): void {
  const d = t.data as unknown as (number | bigint | string)[];
  d[i] = encodeElement(t.dtype, v);
}

export function encodeElement(dtype: number, v: number | bigint | string | boolean, saturate = true): number | bigint | string {
  if (dtype === DT.STRING) return String(v);
  if (dtype === DT.INT64 || dtype === DT.UINT64) {
    if (typeof v === "bigint") return v;
    const n = Number(v);
    if (!Number.isFinite(n)) return dtype === DT.INT64 ? -(2n ** 63n) : 0n;
    return BigInt(Math.trunc(n));
  }
  const n = typeof v === "number" ? v : Number(v);
  switch (dtype) {
    case DT.BOOL:
      return n !== 0 ? 1 : 0;
    case DT.FLOAT16:
      return numberToFloat16(n);
    case DT.BFLOAT16:
      return numberToBfloat16(n);
    case DT.FLOAT8E4M3FN:
      return numberToMini(E4M3FN, n, saturate);
    case DT.FLOAT8E4M3FNUZ:
      return numberToMini(E4M3FNUZ, n, saturate);
    case DT.FLOAT8E5M2:
      return numberToMini(E5M2, n, saturate);
    case DT.FLOAT8E5M2FNUZ:
      return numberToMini(E5M2FNUZ, n, saturate);
    case DT.FLOAT4E2M1:
      return numberToMini(E2M1, n, true);
    case DT.FLOAT8E8M0: {
      // a power of two, rounding up (the default round_mode); no sign, no zero
      if (Number.isNaN(n)) return 255;
      if (!Number.isFinite(n)) return saturate ? 254 : 255;
      const a = Math.abs(n);
      if (a <= 2 ** -127) return 0;
      const e = Math.ceil(Math.log2(a));
      return Math.max(0, Math.min(254, e + 127));
    }
    case DT.INT4:
      return wrapInt(n, 4, true);
    case DT.UINT4:
      return wrapInt(n, 4, false);
    case DT.INT2:
      return wrapInt(n, 2, true);
    case DT.UINT2:
      return wrapInt(n, 2, false);
    default:
      return n;
  }
}

function wrapInt(n: number, bits: number, signed: boolean): number {
  const m = 1 << bits;
  let v = ((Math.trunc(n) % m) + m) % m;
  if (signed && v >= m / 2) v -= m;
  return v;
}

/** Whether the tensor's elements are stored directly as numbers that need no decoding. */
function isPlainNumeric(dtype: number): boolean {
  switch (dtype) {
    case DT.FLOAT:
    case DT.DOUBLE:
    case DT.INT8:
    case DT.UINT8:
    case DT.INT16:
    case DT.UINT16:
    case DT.INT32:
    case DT.UINT32:
    case DT.BOOL:
    case DT.INT4:
    case DT.UINT4:
    case DT.INT2:
    case DT.UINT2:
      return true;
    default:
      return false;
  }
}

/**
 * The elements as numbers: the storage itself for plain numeric types (do not write to it),
 * otherwise a decoded Float64Array (int64 values beyond 2^53 lose precision here).
 */
export function numbers(t: Tensor): ArrayLike<number> {
  if (isPlainNumeric(t.dtype)) return t.data as NumericArray;
  if (t.dtype === DT.STRING) throw new OnnxtxtError("expected a numeric tensor, got string");
  const n = t.data.length;
  if (t.dtype === DT.COMPLEX64 || t.dtype === DT.COMPLEX128) return t.data as NumericArray;
  const out = floats64(n);
  if (t.dtype === DT.INT64 || t.dtype === DT.UINT64) {
    const d = t.data as BigInt64Array;
    for (let i = 0; i < n; i++) out[i] = Number(d[i]!);
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = getElement(t, i) as number;
  return out;
}

/** Builds a tensor of `dtype` from numbers (rounding/encoding as the type requires). */
export function fromNumbers(dtype: number, dims: readonly number[], values: ArrayLike<number>): Tensor {
  const t = tensor(dtype, dims);
  const n = values.length;
  switch (dtype) {
    case DT.FLOAT:
    case DT.DOUBLE:
    case DT.INT8:
    case DT.UINT8:
    case DT.INT16:
    case DT.UINT16:
    case DT.INT32:
    case DT.UINT32: {
      const d = t.data as NumericArray;
      for (let i = 0; i < n; i++) d[i] = values[i]!;
      return t;
    }
    case DT.INT64:
    case DT.UINT64: {
      const d = t.data as BigInt64Array;
      for (let i = 0; i < n; i++) d[i] = encodeElement(dtype, values[i]!) as bigint;
      return t;
    }
    default: {
      const d = t.data as unknown as (number | string)[];
      for (let i = 0; i < n; i++) d[i] = encodeElement(dtype, values[i]!) as number;
      return t;
    }
  }
}

/** Integer values of a (typically int64) tensor as JS numbers: shapes, axes, indices. */
export function intList(t: Tensor): number[] {
  const out: number[] = new Array(t.data.length);
  for (let i = 0; i < t.data.length; i++) out[i] = Number(t.data[i]);
  return out;
}

export function int64Tensor(dims: readonly number[], values: ArrayLike<number>): Tensor {
  checkAllocation(DT.INT64, values.length);
  const d = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) d[i] = BigInt(values[i]!);
  return tensor(DT.INT64, dims, d);
}

/** Same data under new dims (a view, no copy). */
export function reshaped(t: Tensor, dims: readonly number[]): Tensor {
  return tensor(t.dtype, dims, t.data);
}

export function byteSizeOf(v: Value): number {
  switch (v.kind) {
    case "tensor":
      return v.dtype === DT.STRING ? v.data.length * 16 : ((v.data as NumericArray).byteLength ?? v.data.length * 8);
    case "sequence":
      return v.items.reduce((s, x) => s + byteSizeOf(x), 0);
    case "map":
      return v.keys.length * 8 + byteSizeOf(v.values);
    case "optional":
      return v.value ? byteSizeOf(v.value) : 0;
  }
}

/** Row-major strides of dims. */
export function stridesOf(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i]!;
  }
  return s;
}

export function typeLabel(v: Value): string {
  switch (v.kind) {
    case "tensor":
      return `${dtypeName(v.dtype)}[${v.dims.join(",")}]`;
    case "sequence":
      return `seq(${v.items.length > 0 ? typeLabel(v.items[0]!) : v.elemType !== undefined ? dtypeName(v.elemType) : "?"}) of ${v.items.length}`;
    case "map":
      return `map(${dtypeName(v.keyType)}, ${typeLabel(v.values)})`;
    case "optional":
      return v.value ? `optional(${typeLabel(v.value)})` : "optional(none)";
  }
}
