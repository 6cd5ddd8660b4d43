// Types: TypeExpr -> TypeProto (syntax doc §2.4).
import { create } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import {
  TensorShapeProto_DimensionSchema,
  TensorShapeProtoSchema,
  TypeProto_MapSchema,
  TypeProto_OpaqueSchema,
  TypeProto_OptionalSchema,
  TypeProto_SequenceSchema,
  TypeProto_SparseTensorSchema,
  TypeProto_TensorSchema,
  TypeProtoSchema,
  dataTypeByName,
  type TensorShapeProto,
  type TypeProto,
} from "../../../proto/src/index.js";
import type { LowerContext } from "./context.js";

function elemTypeId(k: A.Keyword): number {
  return dataTypeByName(k.text)?.id ?? 0;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 field value; reports out-of-range literals. */
export function int64Of(lit: A.IntLit, cx: LowerContext, what: string): bigint {
  if (lit.value < INT64_MIN || lit.value > INT64_MAX) {
    cx.error("int-range", `${what} ${lit.text} does not fit in a 64-bit integer`, lit.span);
    return 0n;
  }
  return lit.value;
}

function shapeOf(shape: A.Shape, cx: LowerContext): TensorShapeProto {
  const dim = shape.dims.map((d) => {
    const v = d.value;
    if (v?.kind === "Int") {
      // PyTorch's and numpy's "any size"; onnx keeps it as a size of -1, onnxruntime reads it as unknown
      if (v.value < 0n) cx.warn("negative-dimension", `a dimension of ${v.text} is not a size; write '?' or a name for a dimension that is not known`, v.span);
      return create(TensorShapeProto_DimensionSchema, { value: { case: "dimValue", value: int64Of(v, cx, "the dimension") } });
    }
    if (v?.kind === "Name") {
      if (v.value === "None" && !v.quoted)
        cx.warn(
          "dimension-named-none",
          "'None' here is a dimension named None (as any name is), not Python's None; write '?' for a dimension that is not known",
          v.span,
        );
      return create(TensorShapeProto_DimensionSchema, { value: { case: "dimParam", value: v.value } });
    }
    return create(TensorShapeProto_DimensionSchema, {});
  });
  return create(TensorShapeProtoSchema, { dim });
}

/** `float` has a rank-0 shape, `float[]` none, `float[N]` one dim. */
function tensorParts(t: A.TensorType, cx: LowerContext): { elemType: number; shape?: TensorShapeProto } {
  const elemType = elemTypeId(t.elem);
  if (!t.shape) return { elemType, shape: create(TensorShapeProtoSchema, {}) };
  if (t.shape.dims.length === 0) return { elemType };
  return { elemType, shape: shapeOf(t.shape, cx) };
}

export function lowerType(t: A.TypeExpr, cx: LowerContext): TypeProto {
  switch (t.kind) {
    case "TensorType":
      return create(TypeProtoSchema, { value: { case: "tensorType", value: create(TypeProto_TensorSchema, tensorParts(t, cx)) } });
    case "SeqType":
      return create(TypeProtoSchema, {
        value: { case: "sequenceType", value: create(TypeProto_SequenceSchema, t.elem ? { elemType: lowerType(t.elem, cx) } : {}) },
      });
    case "OptionalType":
      return create(TypeProtoSchema, {
        value: { case: "optionalType", value: create(TypeProto_OptionalSchema, t.elem ? { elemType: lowerType(t.elem, cx) } : {}) },
      });
    case "MapType":
      return create(TypeProtoSchema, {
        value: {
          case: "mapType",
          value: create(TypeProto_MapSchema, {
            ...(t.key && { keyType: elemTypeId(t.key) }),
            ...(t.value && { valueType: lowerType(t.value, cx) }),
          }),
        },
      });
    case "SparseTensorType":
      return create(TypeProtoSchema, {
        value: { case: "sparseTensorType", value: create(TypeProto_SparseTensorSchema, t.elem ? tensorParts(t.elem, cx) : {}) },
      });
    case "OpaqueType": {
      const first = t.first?.map((n) => n.value).join(".");
      const fields = t.second ? { domain: first ?? "", name: t.second.value } : first !== undefined ? { name: first } : {};
      return create(TypeProtoSchema, { value: { case: "opaqueType", value: create(TypeProto_OpaqueSchema, fields) } });
    }
  }
}

/** The element type and integer dims of a type that can carry tensor data, or undefined. */
export function tensorShapeForData(t: A.TypeExpr): { elem: A.Keyword; dims: A.IntLit[] } | "not-tensor" | "not-static" {
  if (t.kind !== "TensorType") return "not-tensor";
  if (!t.shape) return { elem: t.elem, dims: [] };
  if (t.shape.dims.length === 0) return "not-static";
  const dims: A.IntLit[] = [];
  for (const d of t.shape.dims) {
    if (d.value?.kind !== "Int") return "not-static";
    dims.push(d.value);
  }
  return { elem: t.elem, dims };
}
