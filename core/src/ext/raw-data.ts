// raw_data <-> typed fields, element by element, for every element type that raw_data can
// hold. The text writes raw tensors in the typed form (what the official parser reads), and
// the reader turns them back into the same bytes. Sub-byte and 6-bit types are already packed
// in both forms (one stored int32 per byte), so they map byte for byte.
import { TensorProto_DataType as DT, TensorProtoSchema, type TensorProto } from "../../../proto/src/index.js";
import { nanBitsOf } from "../io/nan-bits.js";

export type NumberField = "floatData" | "doubleData" | "int32Data";
export type BigField = "int64Data" | "uint64Data";

interface Layout<V> {
  readonly field: V extends bigint ? BigField : NumberField;
  readonly size: number;
  read(dv: DataView, at: number): V;
  write(dv: DataView, at: number, v: V): void;
}

type AnyLayout = Layout<number> | Layout<bigint>;

const f32: Layout<number> = { field: "floatData", size: 4, read: (d, o) => d.getFloat32(o, true), write: (d, o, v) => d.setFloat32(o, v, true) };
const f64: Layout<number> = { field: "doubleData", size: 8, read: (d, o) => d.getFloat64(o, true), write: (d, o, v) => d.setFloat64(o, v, true) };
const i8: Layout<number> = { field: "int32Data", size: 1, read: (d, o) => d.getInt8(o), write: (d, o, v) => d.setInt8(o, v) };
const u8: Layout<number> = { field: "int32Data", size: 1, read: (d, o) => d.getUint8(o), write: (d, o, v) => d.setUint8(o, v) };
const i16: Layout<number> = { field: "int32Data", size: 2, read: (d, o) => d.getInt16(o, true), write: (d, o, v) => d.setInt16(o, v, true) };
const u16: Layout<number> = { field: "int32Data", size: 2, read: (d, o) => d.getUint16(o, true), write: (d, o, v) => d.setUint16(o, v, true) };
const i32: Layout<number> = { field: "int32Data", size: 4, read: (d, o) => d.getInt32(o, true), write: (d, o, v) => d.setInt32(o, v, true) };
const i64: Layout<bigint> = { field: "int64Data", size: 8, read: (d, o) => d.getBigInt64(o, true), write: (d, o, v) => d.setBigInt64(o, v, true) };
const u32as64: Layout<bigint> = {
  field: "uint64Data",
  size: 4,
  read: (d, o) => BigInt(d.getUint32(o, true)),
  write: (d, o, v) => d.setUint32(o, Number(BigInt.asUintN(32, v)), true),
};
const u64: Layout<bigint> = { field: "uint64Data", size: 8, read: (d, o) => d.getBigUint64(o, true), write: (d, o, v) => d.setBigUint64(o, v, true) };

const LAYOUTS = new Map<number, AnyLayout>([
  [DT.FLOAT, f32],
  [DT.COMPLEX64, f32],
  [DT.DOUBLE, f64],
  [DT.COMPLEX128, f64],
  [DT.INT8, i8],
  [DT.UINT8, u8],
  [DT.BOOL, u8],
  [DT.INT16, i16],
  [DT.UINT16, u16],
  [DT.FLOAT16, u16],
  [DT.BFLOAT16, u16],
  [DT.INT32, i32],
  [DT.INT64, i64],
  [DT.UINT32, u32as64],
  [DT.UINT64, u64],
  ...[DT.FLOAT8E4M3FN, DT.FLOAT8E4M3FNUZ, DT.FLOAT8E5M2, DT.FLOAT8E5M2FNUZ, DT.FLOAT8E8M0].map((t): [number, AnyLayout] => [t, u8]),
  ...[DT.INT4, DT.UINT4, DT.FLOAT4E2M1, DT.INT2, DT.UINT2, DT.FLOAT6E2M3, DT.FLOAT6E3M2].map((t): [number, AnyLayout] => [t, u8]),
]);

type TypedValues = { readonly field: NumberField; readonly values: number[] } | { readonly field: BigField; readonly values: bigint[] };

/** The typed-field form of raw bytes, or undefined when the type or length does not allow it. */
export function rawToTyped(dataType: number, raw: Uint8Array): TypedValues | undefined {
  const layout = LAYOUTS.get(dataType);
  if (!layout || raw.length % layout.size !== 0) return undefined;
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const n = raw.length / layout.size;
  if (layout.field === "int64Data" || layout.field === "uint64Data") {
    const l = layout as Layout<bigint>;
    const values = new Array<bigint>(n);
    for (let i = 0; i < n; i++) values[i] = l.read(dv, i * l.size);
    return { field: l.field, values };
  }
  const l = layout as Layout<number>;
  const values = new Array<number>(n);
  for (let i = 0; i < n; i++) values[i] = l.read(dv, i * l.size);
  return { field: l.field, values };
}

/**
 * Like rawToTyped for the types whose typed field holds numbers, into one Float64Array: no
 * boxed number per element, which for big weights is what the JS heap would otherwise hold.
 */
export function rawToNumbers(dataType: number, raw: Uint8Array): { readonly field: NumberField; readonly values: Float64Array } | undefined {
  const layout = LAYOUTS.get(dataType);
  if (!layout || layout.field === "int64Data" || layout.field === "uint64Data" || raw.length % layout.size !== 0) return undefined;
  const l = layout as Layout<number>;
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const n = raw.length / l.size;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = l.read(dv, i * l.size);
  return { field: l.field, values };
}

/** Which typed field raw_data of this type turns into; undefined for strings and unknown types. */
export function rawField(dataType: number): NumberField | BigField | undefined {
  return LAYOUTS.get(dataType)?.field;
}

/** The bytes for the typed values of `t` (the field that raw_data of its type maps to). */
export function typedToRaw(t: TensorProto): Uint8Array | undefined {
  const layout = LAYOUTS.get(t.dataType);
  if (!layout) return undefined;
  const values = t[layout.field] as readonly (number | bigint)[];
  const out = new Uint8Array(values.length * layout.size);
  const dv = new DataView(out.buffer);
  if (layout.field === "int64Data" || layout.field === "uint64Data") {
    const l = layout as Layout<bigint>;
    for (let i = 0; i < values.length; i++) l.write(dv, i * l.size, BigInt(values[i]!));
  } else {
    const l = layout as Layout<number>;
    for (let i = 0; i < values.length; i++) l.write(dv, i * l.size, Number(values[i]!));
    // NaN payloads from their recorded bits, not from the numbers (io/nan-bits.ts).
    const recorded = layout.field === "floatData" || layout.field === "doubleData" ? nanBitsOf(t, TensorProtoSchema.field[layout.field].number) : undefined;
    if (recorded)
      for (const [i, bits] of recorded) {
        if (i >= values.length) continue;
        if (l.size === 8) dv.setBigUint64(i * 8, BigInt(bits), true);
        else dv.setUint32(i * 4, Number(bits), true);
      }
  }
  return out;
}

/** Element size in raw_data (bytes); 1 for packed sub-byte types. */
export function rawElementSize(dataType: number): number | undefined {
  return LAYOUTS.get(dataType)?.size;
}
