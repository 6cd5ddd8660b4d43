// Tensor elements as literals, in the form the text syntax stores them (§4 of the syntax
// notes): floats at their own width, float16/float8 and packed sub-byte types as stored
// integers, strings as text. NaNs other than the default `nan` are listed by index so the
// extension can restore their bits.
import type * as A from "../../../grammar/src/ast.js";
import { TensorProto_DataType as DT, type TensorProto } from "../../../proto/src/index.js";
import { rawField, rawToTyped, type BigField, type NumberField } from "../ext/raw-data.js";
import { DEFAULT_NAN32, float32Bits, float64Bits } from "../print/float-text.js";
import { NO_SPAN } from "./ast-build.js";

export interface RaisedElements {
  readonly elements: A.Literal[] | A.PackedNumbers;
  /** Element index -> bit pattern (hex) for NaNs that `nan`/`-nan` would not reproduce. */
  readonly nanBits: Record<string, string>;
}

/**
 * Numbers that fit a double exactly (floats, doubles, int32-stored types) travel as packed
 * numbers: the printer formats them by the tensor's element type, with no object per element.
 */
function packed(values: ArrayLike<number>, float: "f32" | "f64" | undefined, nanBits: Record<string, string>, rawBits?: (i: number) => string): A.PackedNumbers {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v;
    if (v !== v && float) {
      const bits = rawBits ? rawBits(i) : float === "f64" ? float64Bits(v).toString(16) : float32Bits(v).toString(16);
      if (bits !== (float === "f64" ? "7ff8000000000000" : DEFAULT_NAN32.toString(16))) nanBits[i] = bits;
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

const utf8 = new TextDecoder("utf-8", { fatal: true });

function stringLiterals(values: readonly Uint8Array[]): A.Literal[] | undefined {
  const out: A.Literal[] = [];
  for (const b of values) {
    let s: string;
    try {
      s = utf8.decode(b);
    } catch {
      return undefined;
    }
    out.push({ kind: "Str", span: NO_SPAN, value: s });
  }
  return out;
}

function elementsOf(field: NumberField | BigField, values: readonly (number | bigint)[], nanBits: Record<string, string>, rawBits?: (i: number) => string): A.Literal[] | A.PackedNumbers {
  switch (field) {
    case "floatData":
      return packed(values as number[], "f32", nanBits, rawBits);
    case "doubleData":
      return packed(values as number[], "f64", nanBits, rawBits);
    case "int32Data":
      return packed(values as number[], undefined, nanBits);
    default:
      return intLiterals(values);
  }
}

/** The elements held in the typed field `field` of `t`; undefined when strings are not UTF-8. */
export function typedElements(t: TensorProto, field: NumberField | BigField | "stringData"): RaisedElements | undefined {
  const nanBits: Record<string, string> = {};
  if (field === "stringData") {
    const literals = stringLiterals(t.stringData);
    return literals && { elements: literals, nanBits };
  }
  return { elements: elementsOf(field, t[field], nanBits), nanBits };
}

/** The elements held in raw_data, or undefined when its length does not fit the type. */
export function rawElements(t: TensorProto): RaisedElements | undefined {
  const typed = rawToTyped(t.dataType, t.rawData);
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
