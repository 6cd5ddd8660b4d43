// The types that inference computes: a plain, immutable mirror of TypeProto with dimensions
// that are a number (known), a string (symbolic) or undefined (unknown).
import { create } from "@bufbuild/protobuf";
import {
  dataTypeByName,
  dataTypeInfo,
  TensorShapeProto_DimensionSchema,
  TensorShapeProtoSchema,
  TypeProto_MapSchema,
  TypeProto_OptionalSchema,
  TypeProto_SequenceSchema,
  TypeProto_SparseTensorSchema,
  TypeProto_TensorSchema,
  TypeProtoSchema,
  type TensorShapeProto,
  type TypeProto,
} from "../../../proto/src/index.js";

/** A dimension: its size, a symbolic name (`N`), or undefined when unknown. */
export type Dim = number | string | undefined;
export type Shape = readonly Dim[];

export interface TensorType {
  readonly kind: "tensor" | "sparse";
  /** TensorProto.DataType; 0 when unknown. */
  readonly elem: number;
  /** Undefined when even the rank is unknown. */
  readonly shape?: Shape | undefined;
}
export interface SequenceType {
  readonly kind: "sequence";
  readonly elem?: ValueType | undefined;
}
export interface OptionalType {
  readonly kind: "optional";
  readonly elem?: ValueType | undefined;
}
export interface MapType {
  readonly kind: "map";
  readonly key: number;
  readonly value?: ValueType | undefined;
}
/** A value's type as inference knows it, as plain data (what it does not know is left out). */
export type ValueType = TensorType | SequenceType | OptionalType | MapType;

declare module "../../../grammar/src/diagnostics.js" {
  interface DiagnosticData {
    /**
     * `declared-type-mismatch`: the type inference proves, which the fix declares instead.
     * Plain data (toTypeProto makes the TypeProto): a TypeProto holds 64-bit dimensions as
     * bigint, which JSON.stringify of a diagnostic would throw on.
     */
    readonly inferredType?: ValueType;
  }
}

export function tensor(elem: number, shape?: Shape): TensorType {
  return shape === undefined ? { kind: "tensor", elem } : { kind: "tensor", elem, shape };
}

export function isTensor(t: ValueType | undefined): t is TensorType {
  return t !== undefined && (t.kind === "tensor" || t.kind === "sparse");
}

function shapeOf(s: TensorShapeProto | undefined): Shape | undefined {
  if (!s) return undefined;
  return s.dim.map((d) =>
    d.value.case === "dimValue" ? Number(d.value.value) : d.value.case === "dimParam" && d.value.value !== "" ? d.value.value : undefined,
  );
}

export function fromTypeProto(t: TypeProto | undefined): ValueType | undefined {
  switch (t?.value.case) {
    case "tensorType":
      return { kind: "tensor", elem: t.value.value.elemType, ...(t.value.value.shape ? { shape: shapeOf(t.value.value.shape) } : {}) };
    case "sparseTensorType":
      return { kind: "sparse", elem: t.value.value.elemType, ...(t.value.value.shape ? { shape: shapeOf(t.value.value.shape) } : {}) };
    case "sequenceType":
      return { kind: "sequence", elem: fromTypeProto(t.value.value.elemType) };
    case "optionalType":
      return { kind: "optional", elem: fromTypeProto(t.value.value.elemType) };
    case "mapType":
      return { kind: "map", key: t.value.value.keyType, value: fromTypeProto(t.value.value.valueType) };
    default:
      return undefined;
  }
}

function shapeProto(shape: Shape): TensorShapeProto {
  return create(TensorShapeProtoSchema, {
    dim: shape.map((d) =>
      create(TensorShapeProto_DimensionSchema, {
        value: typeof d === "number" ? { case: "dimValue", value: BigInt(d) } : typeof d === "string" ? { case: "dimParam", value: d } : { case: undefined },
      }),
    ),
  });
}

export function toTypeProto(t: ValueType): TypeProto {
  switch (t.kind) {
    case "tensor":
    case "sparse": {
      const inner = { elemType: t.elem, ...(t.shape ? { shape: shapeProto(t.shape) } : {}) };
      return create(TypeProtoSchema, {
        value:
          t.kind === "tensor"
            ? { case: "tensorType", value: create(TypeProto_TensorSchema, inner) }
            : { case: "sparseTensorType", value: create(TypeProto_SparseTensorSchema, inner) },
      });
    }
    case "sequence":
      return create(TypeProtoSchema, {
        value: { case: "sequenceType", value: create(TypeProto_SequenceSchema, t.elem ? { elemType: toTypeProto(t.elem) } : {}) },
      });
    case "optional":
      return create(TypeProtoSchema, {
        value: { case: "optionalType", value: create(TypeProto_OptionalSchema, t.elem ? { elemType: toTypeProto(t.elem) } : {}) },
      });
    case "map":
      return create(TypeProtoSchema, {
        value: { case: "mapType", value: create(TypeProto_MapSchema, { keyType: t.key, ...(t.value ? { valueType: toTypeProto(t.value) } : {}) }) },
      });
  }
}

function elemName(elem: number): string {
  return elem === 0 ? "?" : (dataTypeInfo(elem)?.name ?? `type#${elem}`);
}

export function formatShape(shape: Shape | undefined): string {
  if (!shape) return "[?rank]";
  return `[${shape.map((d) => (d === undefined ? "?" : String(d))).join(",")}]`;
}

/** In the text syntax's spelling: `float[N,3]`, `seq(int64[])`. */
export function formatType(t: ValueType | undefined): string {
  if (!t) return "unknown";
  switch (t.kind) {
    case "tensor":
      return elemName(t.elem) + (t.shape ? formatShape(t.shape) : "");
    case "sparse":
      return `sparse_tensor(${elemName(t.elem)}${t.shape ? formatShape(t.shape) : ""})`;
    case "sequence":
      return `seq(${formatType(t.elem)})`;
    case "optional":
      return `optional(${formatType(t.elem)})`;
    case "map":
      return `map(${elemName(t.key)}, ${formatType(t.value)})`;
  }
}

/** Parses a schema type string such as `tensor(float)` or `seq(tensor(int64))` (shape unknown). */
export function fromTypeString(s: string): ValueType | undefined {
  const m = /^(\w+)\((.*)\)$/.exec(s);
  if (!m) return undefined;
  const [, kind, inner] = m as unknown as [string, string, string];
  if (kind === "tensor" || kind === "sparse_tensor") {
    const elem = elemIdByName(inner);
    return elem === undefined ? undefined : { kind: kind === "tensor" ? "tensor" : "sparse", elem };
  }
  if (kind === "seq") return { kind: "sequence", elem: fromTypeString(inner) };
  if (kind === "optional") return { kind: "optional", elem: fromTypeString(inner) };
  if (kind === "map") {
    const comma = inner.indexOf(",");
    const key = elemIdByName(inner.slice(0, comma).trim());
    return key === undefined ? undefined : { kind: "map", key, value: fromTypeString(inner.slice(comma + 1).trim()) };
  }
  return undefined;
}

function elemIdByName(name: string): number | undefined {
  return dataTypeByName(name)?.id;
}

/** `tensor(float)` and the like by element type id: made once, asked for every input of every node. */
const TENSOR_STRINGS = new Map<number, string | undefined>();

/** The schema type string of a value type, shape left out: `tensor(float)`, `seq(tensor(int64))`. */
export function typeString(t: ValueType | undefined): string | undefined {
  if (!t) return undefined;
  switch (t.kind) {
    case "tensor": {
      let s = TENSOR_STRINGS.get(t.elem);
      if (s === undefined && !TENSOR_STRINGS.has(t.elem)) {
        const name = t.elem === 0 ? undefined : dataTypeInfo(t.elem)?.name;
        s = name === undefined ? undefined : `tensor(${name})`;
        TENSOR_STRINGS.set(t.elem, s);
      }
      return s;
    }
    case "sparse": {
      if (t.elem === 0) return undefined;
      const name = dataTypeInfo(t.elem)?.name;
      return name === undefined ? undefined : `sparse_tensor(${name})`;
    }
    case "sequence": {
      const e = typeString(t.elem);
      return e === undefined ? undefined : `seq(${e})`;
    }
    case "optional": {
      const e = typeString(t.elem);
      return e === undefined ? undefined : `optional(${e})`;
    }
    case "map": {
      const k = dataTypeInfo(t.key)?.name;
      const v = typeString(t.value);
      return k === undefined || v === undefined ? undefined : `map(${k}, ${v})`;
    }
  }
}
