// The statement an edit stayed inside, in the newer text: the region whose whole-document
// results (tokens, folds) must be computed again, while the rest of the text only moved.
import { innermost, pathAt } from "../../../grammar/src/ast-walk.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import type { TextChange } from "./shift-diagnostics.js";

/**
 * The span, in `a`'s text, of the node statement that strictly contains `change` (given in the
 * older text's offsets), when every syntax diagnostic of `a` lies inside it (so the parser read
 * the rest of the text as before). Undefined otherwise.
 */
export function editedStatement(a: Analysis, change: TextChange): Span | undefined {
  if (!a.ast) return undefined;
  const end = change.start + change.newLength;
  // pathAt searches a statement list rather than scanning it, however long the body.
  const node = innermost(pathAt(a.ast, change.start), "Node");
  if (!node || !(node.span.start < change.start && end < node.span.end)) return undefined;
  const region = node.span;
  const syntax = a.diagnostics.slice(0, a.syntaxCount);
  if (syntax.some((d) => !d.span || d.span.start < region.start || d.span.end > region.end)) return undefined;
  return { start: region.start, end: region.end };
}
