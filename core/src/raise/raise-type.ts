// TypeProto -> type expression. Returns undefined when the syntax cannot say the type
// exactly (denotations, unset element types, partial opaque types): the caller then keeps
// the whole type in an extension.
import { clearField, clone } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import {
  TensorShapeProto_DimensionSchema as DimSchema,
  TypeProto_MapSchema,
  TypeProto_OpaqueSchema,
  TypeProto_SparseTensorSchema,
  TypeProto_TensorSchema,
  TypeProtoSchema,
  dataTypeInfo,
  type TensorShapeProto,
  type TypeProto,
} from "../../../proto/src/index.js";
import { isElementType } from "../../../grammar/src/keywords.js";
import { isSet } from "../ext/fields.js";
import { isPlainWord } from "../../../grammar/src/names.js";
import { bareName, int, keyword, name, NO_SPAN } from "./ast-build.js";

function elemKeyword(id: number): A.Keyword | undefined {
  const info = dataTypeInfo(id);
  return info && isElementType(info.name) ? keyword(info.name) : undefined;
}

function shapeOf(shape: TensorShapeProto): A.Shape | undefined {
  const dims: A.Dim[] = [];
  for (const d of shape.dim) {
    if (isSet(DimSchema, d, "denotation")) return undefined;
    let value: A.Dim["value"];
    if (d.value.case === "dimValue") value = int(d.value.value);
    else if (d.value.case === "dimParam") value = name(d.value.value);
    else value = { kind: "Unknown", span: NO_SPAN };
    dims.push({ kind: "Dim", span: NO_SPAN, value });
  }
  return { kind: "Shape", span: NO_SPAN, dims };
}

function tensorType(
  t: { elemType: number; shape?: TensorShapeProto | undefined },
  schema: typeof TypeProto_TensorSchema | typeof TypeProto_SparseTensorSchema,
): A.TensorType | undefined {
  if (!isSet(schema, t, "elem_type")) return undefined;
  const elem = elemKeyword(t.elemType);
  if (!elem) return undefined;
  // AST convention: no Shape = rank 0 (`float`); a Shape without dims = unknown rank (`float[]`).
  if (!t.shape) return { kind: "TensorType", span: NO_SPAN, elem, shape: { kind: "Shape", span: NO_SPAN, dims: [] } };
  const shape = shapeOf(t.shape);
  if (!shape) return undefined;
  return shape.dims.length ? { kind: "TensorType", span: NO_SPAN, elem, shape } : { kind: "TensorType", span: NO_SPAN, elem };
}

function opaqueType(o: { domain: string; name: string }): A.OpaqueType | undefined {
  const hasDomain = isSet(TypeProto_OpaqueSchema, o, "domain");
  const hasName = isSet(TypeProto_OpaqueSchema, o, "name");
  const dotted = (s: string): A.Name[] | undefined => {
    const parts = s.split(".");
    return parts.every(isPlainWord) ? parts.map(bareName) : undefined;
  };
  if (!hasDomain && !hasName) return { kind: "OpaqueType", span: NO_SPAN };
  if (!hasDomain) {
    const first = dotted(o.name);
    return first && { kind: "OpaqueType", span: NO_SPAN, first };
  }
  if (!hasName || !isPlainWord(o.name)) return undefined;
  const first = dotted(o.domain);
  return first && { kind: "OpaqueType", span: NO_SPAN, first, second: bareName(o.name) };
}

export function raiseType(t: TypeProto): A.TypeExpr | undefined {
  if (isSet(TypeProtoSchema, t, "denotation")) return undefined;
  const v = t.value;
  switch (v.case) {
    case "tensorType":
      return tensorType(v.value, TypeProto_TensorSchema);
    case "sparseTensorType": {
      const elem = tensorType(v.value, TypeProto_SparseTensorSchema);
      return elem && { kind: "SparseTensorType", span: NO_SPAN, elem };
    }
    case "sequenceType": {
      const elem = v.value.elemType && raiseType(v.value.elemType);
      return elem && { kind: "SeqType", span: NO_SPAN, elem };
    }
    case "optionalType": {
      const elem = v.value.elemType && raiseType(v.value.elemType);
      return elem && { kind: "OptionalType", span: NO_SPAN, elem };
    }
    case "mapType": {
      if (!isSet(TypeProto_MapSchema, v.value, "key_type")) return undefined;
      const key = elemKeyword(v.value.keyType);
      const value = v.value.valueType && raiseType(v.value.valueType);
      return key && value && { kind: "MapType", span: NO_SPAN, key, value };
    }
    case "opaqueType":
      return opaqueType(v.value);
    default:
      return undefined;
  }
}

/**
 * A tensor type without its denotations (the type's and its dims'), and those denotations as
 * `{"type": D, "dims": {"INDEX": D}}`; undefined for other types or when there are none.
 */
export function withoutDenotations(t: TypeProto): { type: TypeProto; denotations: { type?: string; dims?: Record<string, string> } } | undefined {
  if (t.value.case !== "tensorType") return undefined;
  const denotations: { type?: string; dims?: Record<string, string> } = {};
  const type = clone(TypeProtoSchema, t);
  if (isSet(TypeProtoSchema, t, "denotation")) {
    denotations.type = t.denotation;
    clearField(type, TypeProtoSchema.field.denotation);
  }
  const dims = type.value.case === "tensorType" ? (type.value.value.shape?.dim ?? []) : [];
  dims.forEach((d, i) => {
    if (!isSet(DimSchema, d, "denotation")) return;
    (denotations.dims ??= {})[i] = d.denotation;
    clearField(d, DimSchema.field.denotation);
  });
  return denotations.type === undefined && denotations.dims === undefined ? undefined : { type, denotations };
}
