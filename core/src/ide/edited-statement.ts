// The statement an edit stayed inside, in the newer text: the region whose whole-document
// results (tokens, folds) must be computed again, while the rest of the text only moved.
import type { Model, OpNode } from "../../../grammar/src/ast.js";
import { innermost, pathAt, statementIndexAt } from "../../../grammar/src/ast-walk.js";
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
  const top = topStatementAt(a.ast, change.start);
  const node = top && innermost(pathAt(top, change.start), "Node");
  if (!node || !(node.span.start < change.start && end < node.span.end)) return undefined;
  const region = node.span;
  const syntax = a.diagnostics.slice(0, a.syntaxCount);
  if (syntax.some((d) => !d.span || d.span.start < region.start || d.span.end > region.end)) return undefined;
  return { start: region.start, end: region.end };
}

/**
 * The node statement of the main graph or of a function that holds `offset`, by binary search
 * (a path from the root would list the 50k statements of a big graph's body).
 */
function topStatementAt(model: Model, offset: number): OpNode | undefined {
  for (const body of [model.graph?.body, ...model.functions.map((f) => f.body)]) {
    const nodes = body?.nodes ?? [];
    const k = statementIndexAt(nodes, offset, true);
    if (k !== undefined) return nodes[k];
  }
  return undefined;
}
