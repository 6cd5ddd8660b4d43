// Tensor elements as literals, in the form the text syntax stores them (§4 of the syntax
// notes): floats at their own width, float16/float8 and packed sub-byte types as stored
// integers, strings as text. NaNs other than the default `nan` are listed by index so the
// extension can restore their bits.
import type * as A from "../../../grammar/src/ast.js";
import { TensorProto_DataType as DT, TensorProtoSchema, type TensorProto } from "../../../proto/src/index.js";
import { nanBitsOf } from "../io/nan-bits.js";
import { rawField, rawToNumbers, rawToTyped, type BigField, type NumberField } from "../ext/raw-data.js";
import { DEFAULT_NAN32, float32Bits, float64Bits } from "../numbers/float-text.js";
import { NO_SPAN } from "./ast-build.js";
import { utf8Text } from "./utf8-text.js";

export interface RaisedElements {
  readonly elements: A.Literal[] | A.PackedNumbers;
  /** Element index -> bit pattern (hex) for NaNs that `nan`/`-nan` would not reproduce. */
  readonly nanBits: Record<string, string>;
}

/**
 * Numbers that fit a double exactly (floats, doubles, int32-stored types) travel as packed
 * numbers: the printer formats them by the tensor's element type, with no object per element.
 */
function packed(
  values: readonly number[] | Float64Array,
  float: "f32" | "f64" | undefined,
  nanBits: Record<string, string>,
  rawBits?: (i: number) => string,
): A.PackedNumbers {
  // A plain loop: decoded repeated fields hold boxed numbers, where the typed-array
  // constructor takes a generic path several times slower. Values read from raw_data are
  // a Float64Array already and are kept as they are.
  const out = values instanceof Float64Array ? values : new Float64Array(values.length);
  let nans = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v;
    if (v !== v) nans = true;
  }
  if (float && nans) {
    let signs: DataView | undefined;
    const plain = float === "f64" ? "7ff8000000000000" : DEFAULT_NAN32.toString(16);
    for (let i = 0; i < out.length; i++) {
      const v = out[i]!;
      if (v !== v) {
        const bits = rawBits ? rawBits(i) : float === "f64" ? float64Bits(v).toString(16) : float32Bits(v).toString(16);
        if (bits !== plain) nanBits[i] = bits;
        // The visible sign (`-nan`) from the bits: the number may have lost it.
        const negative = bits.length === (float === "f64" ? 16 : 8) && Number.parseInt(bits[0]!, 16) >= 8;
        signs ??= new DataView(out.buffer, out.byteOffset, out.byteLength);
        signs.setUint32(i * 8 + 4, negative ? 0xfff80000 : 0x7ff80000, true);
        signs.setUint32(i * 8, 0, true);
      }
    }
  }
  return { kind: "PackedNumbers", span: NO_SPAN, values: out, allIntegers: float === undefined };
}

function intLiterals(values: readonly (number | bigint)[]): A.Literal[] {
  const out = new Array<A.Literal>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = BigInt(values[i]!);
    out[i] = { kind: "Int", span: NO_SPAN, text: v.toString(), value: v };
  }
  return out;
}

function stringLiterals(values: readonly Uint8Array[]): A.Literal[] | undefined {
  const out: A.Literal[] = [];
  for (const b of values) {
    const s = utf8Text(b);
    if (s === undefined) return undefined;
    out.push({ kind: "Str", span: NO_SPAN, value: s });
  }
  return out;
}

function elementsOf(
  field: NumberField | BigField,
  values: readonly (number | bigint)[] | Float64Array,
  nanBits: Record<string, string>,
  rawBits?: (i: number) => string,
): A.Literal[] | A.PackedNumbers {
  switch (field) {
    case "floatData":
      return packed(values as number[] | Float64Array, "f32", nanBits, rawBits);
    case "doubleData":
      return packed(values as number[] | Float64Array, "f64", nanBits, rawBits);
    case "int32Data":
      return packed(values as number[] | Float64Array, undefined, nanBits);
    default: {
      const big = values as readonly (number | bigint)[];
      return safeInt64s(big.length, (i) => BigInt(big[i]!)) ?? intLiterals(big);
    }
  }
}

/** Sub-byte types: the text writes element values; lowering packs them (onnx.proto layout). */
const SUB_BYTE = new Map<number, { bits: number; signed: boolean }>([
  [DT.INT4, { bits: 4, signed: true }],
  [DT.UINT4, { bits: 4, signed: false }],
  [DT.FLOAT4E2M1, { bits: 4, signed: false }],
  [DT.INT2, { bits: 2, signed: true }],
  [DT.UINT2, { bits: 2, signed: false }],
]);

/**
 * Unpacks stored bytes into element values, first element in the low bits. Writes exactly the
 * shape's element count when the padding bits are zero, else every slot (packing either back
 * gives the same bytes). Undefined when a stored value is not a byte.
 */
function unpack(stored: ArrayLike<number>, dataType: number, count: bigint): A.PackedNumbers | undefined {
  const sub = SUB_BYTE.get(dataType)!;
  const perByte = 8 / sub.bits;
  const mask = (1 << sub.bits) - 1;
  const slots = stored.length * perByte;
  const out = new Float64Array(slots);
  for (let b = 0; b < stored.length; b++) {
    const byte = stored[b]!;
    if (!Number.isInteger(byte) || byte < 0 || byte > 255) return undefined;
    for (let k = 0; k < perByte; k++) {
      let v = (byte >> (k * sub.bits)) & mask;
      if (sub.signed && v > mask >> 1) v -= mask + 1;
      out[b * perByte + k] = v;
    }
  }
  let n = slots;
  if (count <= BigInt(slots) && BigInt(Math.ceil(Number(count) / perByte)) === BigInt(stored.length) && out.subarray(Number(count)).every((v) => v === 0))
    n = Number(count);
  return { kind: "PackedNumbers", span: NO_SPAN, values: out.subarray(0, n), allIntegers: true };
}

function elementCount(t: TensorProto): bigint {
  return t.dims.reduce((a, d) => a * d, 1n);
}

/** The elements held in the typed field `field` of `t`; undefined when strings are not UTF-8. */
export function typedElements(t: TensorProto, field: NumberField | BigField | "stringData"): RaisedElements | undefined {
  const nanBits: Record<string, string> = {};
  if (field === "stringData") {
    const literals = stringLiterals(t.stringData);
    return literals && { elements: literals, nanBits };
  }
  if (SUB_BYTE.has(t.dataType)) {
    const elements = unpack(t.int32Data, t.dataType, elementCount(t));
    return elements && { elements, nanBits };
  }
  const recorded = field === "floatData" || field === "doubleData" ? nanBitsOf(t, TensorProtoSchema.field[field].number) : undefined;
  const bitsOf =
    recorded &&
    ((i: number): string => {
      const b = recorded.get(i);
      if (b !== undefined) return b.toString(16);
      const v = t[field as "floatData"][i]!;
      return field === "doubleData" ? float64Bits(v).toString(16) : float32Bits(v).toString(16);
    });
  return { elements: elementsOf(field, t[field], nanBits, bitsOf), nanBits };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * float32 raw bytes as they are, when no value is a NaN (NaNs need the widened copy, which
 * carries their sign for the printer): the weights of a big model are not copied at all
 * when aligned, and take 4 bytes a value rather than 8 when not.
 */
function float32View(raw: Uint8Array): A.PackedNumbers | undefined {
  if (!LITTLE_ENDIAN || raw.length % 4 !== 0) return undefined;
  const n = raw.length / 4;
  let values: Float32Array;
  if (raw.byteOffset % 4 === 0) values = new Float32Array(raw.buffer, raw.byteOffset, n);
  else {
    values = new Float32Array(n);
    new Uint8Array(values.buffer).set(raw);
  }
  const bits = new Uint32Array(values.buffer, values.byteOffset, n);
  for (let i = 0; i < n; i++) if ((bits[i]! & 0x7fffffff) > 0x7f800000) return undefined;
  return { kind: "PackedNumbers", span: NO_SPAN, values, allIntegers: false };
}

type IntegerArrayType =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor;

/** Integer-valued types whose raw bytes read as one typed array (little-endian), as raw-data.ts reads them. */
const INTEGER_ARRAYS = new Map<number, IntegerArrayType>([
  [DT.INT8, Int8Array],
  [DT.UINT8, Uint8Array],
  [DT.BOOL, Uint8Array],
  [DT.INT16, Int16Array],
  [DT.UINT16, Uint16Array],
  [DT.FLOAT16, Uint16Array],
  [DT.BFLOAT16, Uint16Array],
  [DT.INT32, Int32Array],
  [DT.UINT32, Uint32Array],
  ...[DT.FLOAT8E4M3FN, DT.FLOAT8E4M3FNUZ, DT.FLOAT8E5M2, DT.FLOAT8E5M2FNUZ, DT.FLOAT8E8M0, DT.FLOAT6E2M3, DT.FLOAT6E3M2].map(
    (t): [number, IntegerArrayType] => [t, Uint8Array],
  ),
]);

/**
 * Raw bytes of an integer-valued type as its typed array: a view when aligned, else one copy at
 * the element's own width (never a double per element). Undefined when the length does not fit.
 */
function integerView(raw: Uint8Array, dataType: number): A.PackedNumbers | undefined {
  const Kind = INTEGER_ARRAYS.get(dataType);
  if (!Kind || !LITTLE_ENDIAN || raw.length % Kind.BYTES_PER_ELEMENT !== 0) return undefined;
  const n = raw.length / Kind.BYTES_PER_ELEMENT;
  let values: InstanceType<IntegerArrayType>;
  if (raw.byteOffset % Kind.BYTES_PER_ELEMENT === 0) values = new Kind(raw.buffer as ArrayBuffer, raw.byteOffset, n);
  else {
    values = new Kind(n);
    new Uint8Array(values.buffer).set(raw);
  }
  return { kind: "PackedNumbers", span: NO_SPAN, values, allIntegers: true };
}

/**
 * 64-bit integers as packed doubles when every one is a safe integer (the usual case): 8 bytes
 * a value instead of a literal object and a bigint each. Undefined when one is not.
 */
function safeInt64s(count: number, read: (i: number) => bigint): A.PackedNumbers | undefined {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = read(i);
    if (v > MAX_SAFE || v < -MAX_SAFE) return undefined;
    out[i] = Number(v);
  }
  return { kind: "PackedNumbers", span: NO_SPAN, values: out, allIntegers: true };
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The elements held in raw_data, or undefined when its length does not fit the type. */
export function rawElements(t: TensorProto, dataType = t.dataType): RaisedElements | undefined {
  if (SUB_BYTE.has(dataType)) {
    const elements = unpack(t.rawData, dataType, elementCount(t));
    return elements && { elements, nanBits: {} };
  }
  const view = dataType === DT.FLOAT ? float32View(t.rawData) : integerView(t.rawData, dataType);
  if (view) return { elements: view, nanBits: {} };
  if ((dataType === DT.INT64 || dataType === DT.UINT64) && LITTLE_ENDIAN && t.rawData.length % 8 === 0) {
    const raw = t.rawData;
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const signed = dataType === DT.INT64;
    const packed64 = safeInt64s(raw.length / 8, (i) => (signed ? dv.getBigInt64(i * 8, true) : dv.getBigUint64(i * 8, true)));
    if (packed64) return { elements: packed64, nanBits: {} };
  }
  const typed = rawToNumbers(dataType, t.rawData) ?? rawToTyped(dataType, t.rawData);
  if (!typed) return undefined;
  const dv = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
  const wide = typed.field === "doubleData";
  const rawBits = (i: number): string => (wide ? dv.getBigUint64(i * 8, true).toString(16) : dv.getUint32(i * 4, true).toString(16));
  const nanBits: Record<string, string> = {};
  return { elements: elementsOf(typed.field, typed.values, nanBits, rawBits), nanBits };
}

export function canBeRaw(dataType: number): boolean {
  return rawField(dataType) !== undefined && dataType !== DT.STRING;
}
