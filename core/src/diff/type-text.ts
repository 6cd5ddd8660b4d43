// TypeProto as the text syntax writes it (`float[1, 3, N]`), for change messages. Denotations
// are shown in braces so that a denotation-only change still reads as a change.
import { dataTypeInfo, type TensorShapeProto, type TypeProto } from "../../../proto/src/index.js";

function elem(id: number): string {
  return dataTypeInfo(id)?.name ?? (id === 0 ? "?" : `type${id}`);
}

function shape(s: TensorShapeProto | undefined): string {
  if (!s) return "[]";
  if (s.dim.length === 0) return "";
  const dims = s.dim.map((d) => {
    const v = d.value.case === "dimValue" ? String(d.value.value) : d.value.case === "dimParam" ? d.value.value : "?";
    return d.denotation ? `${v}{${d.denotation}}` : v;
  });
  return `[${dims.join(", ")}]`;
}

/** The type in the text syntax, `(none)` when absent. Iterative depth is bounded by the proto nesting. */
export function typeText(t: TypeProto | undefined): string {
  if (!t) return "(none)";
  const v = t.value;
  const denoted = (s: string) => (t.denotation ? `${s}{${t.denotation}}` : s);
  switch (v.case) {
    case "tensorType":
      return denoted(`${elem(v.value.elemType)}${shape(v.value.shape)}`);
    case "sparseTensorType":
      return denoted(`sparse_tensor(${elem(v.value.elemType)}${shape(v.value.shape)})`);
    case "sequenceType":
      return denoted(`seq(${typeText(v.value.elemType)})`);
    case "optionalType":
      return denoted(`optional(${typeText(v.value.elemType)})`);
    case "mapType":
      return denoted(`map(${elem(v.value.keyType)}, ${typeText(v.value.valueType)})`);
    case "opaqueType":
      return denoted(`opaque(${v.value.domain}.${v.value.name})`);
    default:
      return denoted("(unset)");
  }
}
