// Types as the text syntax writes them, for hovers, hints and code actions.
import type { TypeExpr } from "../../../grammar/src/ast.js";

/** A declared type, normalised to single spaces after commas (`float[N, 8]`). */
export function declaredTypeText(source: string, type: TypeExpr): string {
  return source
    .slice(type.span.start, type.span.end)
    .replace(/#[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([\[\](),])\s*/g, "$1")
    .replace(/,/g, ", ");
}
