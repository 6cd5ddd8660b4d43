// Tensor constants: type + inline or external data -> TensorProto, filling the same typed field
// the reference parser fills (syntax doc §4). Deviation (follows the ONNX spec, not the 1.23
// parser): 4-bit and 2-bit types are packed into int32_data, two or four elements per value.
import { create } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import { scanNumber } from "../../../grammar/src/number-scan.js";
import type { Span } from "../../../grammar/src/span.js";
import { StringStringEntryProtoSchema, TensorProto_DataLocation, TensorProtoSchema, dataTypeByName, type TensorProto } from "../../../proto/src/index.js";
import type { LowerContext } from "./context.js";
import { roundToFloat32 } from "./float32.js";
import { int64Of, tensorShapeForData } from "./types.js";

const utf8 = new TextEncoder();
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Sub-byte element types: bit width and value range of the written numbers. */
const SUB_BYTE: Readonly<Record<string, { bits: number; min: number; max: number }>> = {
  int4: { bits: 4, min: -8, max: 7 },
  uint4: { bits: 4, min: 0, max: 15 },
  float4e2m1: { bits: 4, min: 0, max: 15 },
  int2: { bits: 2, min: -2, max: 1 },
  uint2: { bits: 2, min: 0, max: 3 },
};

/** One element of inline data, as the literal text and its kind, read lazily for packed lists. */
interface Elements {
  readonly count: number;
  /** The literal text of element k (for exact conversions). */
  text(k: number): string;
  /** The double value of element k. */
  value(k: number): number;
  isInt(k: number): boolean;
  isString(k: number): boolean;
  str(k: number): string;
  span(k: number): Span;
}

function literalElements(items: readonly A.Literal[]): Elements {
  return {
    count: items.length,
    text: (k) => {
      const e = items[k]!;
      return e.kind === "Str" ? e.value : e.text;
    },
    value: (k) => {
      const e = items[k]!;
      return e.kind === "Float" ? e.value : e.kind === "Int" ? Number(e.value) : NaN;
    },
    isInt: (k) => items[k]!.kind === "Int",
    isString: (k) => items[k]!.kind === "Str",
    str: (k) => {
      const e = items[k]!;
      return e.kind === "Str" ? e.value : "";
    },
    span: (k) => items[k]!.span,
  };
}

/** Element texts of a packed list, recomputed from the source only when exactness needs them. */
function packedElements(p: A.PackedNumbers, source: string | undefined): Elements {
  let offsets: Int32Array | undefined;
  const locate = (): Int32Array => {
    if (offsets) return offsets;
    offsets = new Int32Array(p.values.length * 2);
    const text = source ?? "";
    let pos = p.span.start + 1;
    for (let k = 0; k < p.values.length; k++) {
      while (pos < text.length && !isNumberStart(text.charCodeAt(pos))) pos++;
      const end = scanNumber(text, pos).end;
      offsets[2 * k] = pos;
      offsets[2 * k + 1] = end;
      pos = end;
    }
    return offsets;
  };
  const canRead = source !== undefined;
  return {
    count: p.values.length,
    text: (k) => {
      if (!canRead) return String(p.values[k]);
      const o = locate();
      return source!.slice(o[2 * k]!, o[2 * k + 1]!);
    },
    value: (k) => p.values[k]!,
    isInt: (k) => {
      if (p.allIntegers) return true;
      if (!canRead) return Number.isInteger(p.values[k]);
      const o = locate();
      return scanNumber(source!, o[2 * k]!).isFloat === false;
    },
    isString: () => false,
    str: () => "",
    span: (k) => {
      if (!canRead) return p.span;
      const o = locate();
      return { start: o[2 * k]!, end: o[2 * k + 1]! };
    },
  };
}

function isNumberStart(c: number): boolean {
  return c === 45 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

const SAFE = 2 ** 53;

/** The exact integer of element k (re-read from the text beyond 2^53). */
function bigIntOf(el: Elements, k: number): bigint {
  const v = el.value(k);
  if (Math.abs(v) < SAFE) return BigInt(v);
  return BigInt(el.text(k));
}

interface TensorSource {
  readonly type: A.TypeExpr;
  readonly name?: string;
  readonly data?: A.TensorData;
  readonly span: Span;
}

export function lowerTensor(src: TensorSource, cx: LowerContext, text: string | undefined): TensorProto | undefined {
  const shape = tensorShapeForData(src.type);
  if (shape === "not-tensor" || shape === "not-static") {
    cx.error(
      "bad-tensor",
      shape === "not-tensor"
        ? "tensor data needs a tensor type such as float[2,3]"
        : "tensor data needs a type with integer dimensions (e.g. float[2,3], or float for a scalar)",
      src.type.span,
    );
    return undefined;
  }
  const info = dataTypeByName(shape.elem.text);
  if (!info) return undefined;
  const dims = shape.dims.map((d) => int64Of(d, cx, "the dimension"));
  const t = create(TensorProtoSchema, { dims, dataType: info.id });
  if (src.name !== undefined) t.name = src.name;
  const data = src.data;
  if (!data) {
    // Written without values: the same as `{}`, which the printer writes for such a tensor.
    checkCount(shape.dims, info.name, 0, src.span, cx, t);
    return t;
  }
  if (data.kind === "ExternalData") {
    t.dataLocation = TensorProto_DataLocation.EXTERNAL;
    t.externalData = data.props.items.map((e) => create(StringStringEntryProtoSchema, { key: e.key?.value ?? "", value: e.value?.value ?? "" }));
    return t;
  }
  const el = data.elements instanceof Array ? literalElements(data.elements) : packedElements(data.elements as A.PackedNumbers, text);
  fillData(t, info.name, info.storage, el, cx, data.elements instanceof Array ? undefined : (data.elements as A.PackedNumbers));
  checkCount(shape.dims, info.name, el.count, data.span, cx, el.count === 0 ? t : undefined);
  return t;
}

/** `empty`: the tensor when no values are written, which a residual comment may still fill. */
function checkCount(dims: readonly A.IntLit[], elem: string, count: number, span: Span, cx: LowerContext, empty?: TensorProto): void {
  let expected = 1n;
  for (const d of dims) expected *= d.value;
  if (elem === "complex64" || elem === "complex128") expected *= 2n;
  if (BigInt(count) === expected) return;
  // An error, not a warning: onnxruntime and the interpreter refuse such a tensor.
  const message = `the shape holds ${expected} value${expected === 1n ? "" : "s"} but ${count} ${count === 1 ? "is" : "are"} written`;
  if (empty) cx.emptyTensor(empty, message, span);
  else cx.error("element-count", message, span);
}

/** Float32 data from a packed list: one tight loop; element texts are read only for midpoints. */
function packedFloats(packed: A.PackedNumbers, el: Elements, cx: LowerContext): number[] {
  const values = packed.values;
  const n = values.length;
  const out = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const d = values[k]!;
    let f = Math.fround(d);
    if (f !== d && f === f) {
      f = roundToFloat32(d, () => el.text(k));
      if (!Number.isFinite(f) && Number.isFinite(d)) cx.error("int-range", `${el.text(k)} is beyond the float range`, el.span(k));
    }
    out[k] = f;
  }
  return out;
}

function fillData(t: TensorProto, elem: string, storage: string, el: Elements, cx: LowerContext, packed?: A.PackedNumbers): void {
  const n = el.count;
  const needNumber = (k: number): boolean => {
    if (!el.isString(k)) return true;
    cx.error("bad-literal", `${elem} tensor elements are numbers, found a string`, el.span(k));
    return false;
  };
  const needInt = (k: number): boolean => {
    if (!needNumber(k)) return false;
    if (el.isInt(k)) return true;
    const hint =
      storage === "int32Data" && !elem.startsWith("int") && !elem.startsWith("uint") && elem !== "bool"
        ? ` (${elem} values are written as their bit patterns, e.g. 15360 for float16 1.0)`
        : "";
    cx.error("bad-literal", `${elem} tensor elements must be integers, found ${el.text(k)}${hint}`, el.span(k));
    return false;
  };
  switch (storage) {
    case "floatData": {
      if (packed) {
        t.floatData = packedFloats(packed, el, cx);
        return;
      }
      const out = new Array<number>(n);
      for (let k = 0; k < n; k++) {
        if (!needNumber(k)) {
          out[k] = 0;
          continue;
        }
        const d = el.value(k);
        const f = roundToFloat32(d, () => el.text(k));
        if (f !== d && !Number.isFinite(f) && Number.isFinite(d)) cx.error("int-range", `${el.text(k)} is beyond the float range`, el.span(k));
        out[k] = f;
      }
      t.floatData = out;
      return;
    }
    case "doubleData": {
      const out = new Array<number>(n);
      for (let k = 0; k < n; k++) out[k] = needNumber(k) ? el.value(k) : 0;
      t.doubleData = out;
      return;
    }
    case "int64Data": {
      const out = new Array<bigint>(n);
      for (let k = 0; k < n; k++) {
        out[k] = 0n;
        if (!needInt(k)) continue;
        const v = bigIntOf(el, k);
        if (v < -(2n ** 63n) || v > 2n ** 63n - 1n) cx.error("int-range", `${el.text(k)} does not fit in int64`, el.span(k));
        else out[k] = v;
      }
      t.int64Data = out;
      return;
    }
    case "uint64Data": {
      const out = new Array<bigint>(n);
      for (let k = 0; k < n; k++) {
        out[k] = 0n;
        if (!needInt(k)) continue;
        const v = bigIntOf(el, k);
        // Like strtoull: a leading '-' wraps around (-1 is 2^64-1).
        if (v > UINT64_MAX || v < -UINT64_MAX) cx.error("int-range", `${el.text(k)} does not fit in ${elem}`, el.span(k));
        else out[k] = BigInt.asUintN(64, v);
      }
      t.uint64Data = out;
      return;
    }
    case "int32Data": {
      const sub = SUB_BYTE[elem];
      const out = new Array<number>(n);
      for (let k = 0; k < n; k++) {
        out[k] = 0;
        if (!needInt(k)) continue;
        const v = el.value(k);
        if (sub) {
          if (v < sub.min || v > sub.max) cx.error("int-range", `${el.text(k)} is outside the ${elem} range ${sub.min}..${sub.max}`, el.span(k));
          else out[k] = v;
        } else if (!Number.isSafeInteger(v) || BigInt(v) < INT32_MIN || BigInt(v) > INT32_MAX) {
          cx.error("int-range", `${el.text(k)} does not fit in a 32-bit integer`, el.span(k));
        } else out[k] = v;
      }
      t.int32Data = sub ? pack(out, sub.bits) : out;
      return;
    }
    case "stringData": {
      const out = new Array<Uint8Array>(n);
      for (let k = 0; k < n; k++) {
        if (!el.isString(k)) {
          cx.error("bad-literal", `string tensor elements are quoted strings, found ${el.text(k)}`, el.span(k));
          out[k] = new Uint8Array(0);
        } else out[k] = utf8.encode(el.str(k));
      }
      t.stringData = out;
      return;
    }
  }
}

/** Packs sub-byte values, first element in the lowest bits (onnx.proto, int32_data). */
function pack(values: readonly number[], bits: number): number[] {
  const perByte = 8 / bits;
  const mask = (1 << bits) - 1;
  const out = new Array<number>(Math.ceil(values.length / perByte)).fill(0);
  for (let k = 0; k < values.length; k++) {
    out[Math.floor(k / perByte)]! |= (values[k]! & mask) << ((k % perByte) * bits);
  }
  return out;
}
