// Types as the text syntax writes them, for hovers, hints and code actions.
import type { TypeExpr } from "../../../grammar/src/ast.js";
import { dataTypeInfo } from "../../../proto/src/index.js";
import type { Shape, ValueType } from "../infer/index.js";
import { nameText } from "../../../grammar/src/names.js";

/** A declared type, normalised to single spaces after commas (`float[N, 8]`). */
export function declaredTypeText(source: string, type: TypeExpr): string {
  return source
    .slice(type.span.start, type.span.end)
    .replace(/#[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([\[\](),])\s*/g, "$1")
    .replace(/,/g, ", ");
}

function elemText(elem: number): string | undefined {
  return elem === 0 ? undefined : dataTypeInfo(elem)?.name;
}

function shapeText(shape: Shape | undefined): string {
  if (!shape) return "[]";
  if (shape.length === 0) return "";
  return `[${shape.map((d) => (d === undefined ? "?" : typeof d === "number" ? String(d) : nameText(d))).join(", ")}]`;
}

/** An inferred type in the text syntax, or undefined when too little is known to write one. */
export function valueTypeText(t: ValueType | undefined): string | undefined {
  if (!t) return undefined;
  switch (t.kind) {
    case "tensor": {
      const e = elemText(t.elem);
      return e && `${e}${shapeText(t.shape)}`;
    }
    case "sparse": {
      const e = elemText(t.elem);
      return e && `sparse_tensor(${e}${shapeText(t.shape)})`;
    }
    case "sequence": {
      const inner = valueTypeText(t.elem);
      return inner && `seq(${inner})`;
    }
    case "optional": {
      const inner = valueTypeText(t.elem);
      return inner && `optional(${inner})`;
    }
    case "map": {
      const k = elemText(t.key);
      const v = valueTypeText(t.value);
      return k && v && `map(${k}, ${v})`;
    }
  }
}
