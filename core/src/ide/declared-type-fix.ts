// The fix for `declared-type-mismatch`: the declaration (a graph output or value_info) takes the
// type inference proves, which inference hands over as data on the diagnostic and the printer
// writes (as a TypeProto, through the code that prints every declaration). Unsafe: it changes the declared interface (what callers and tools are told to
// expect), and the mistake may be in the computation rather than in the declaration.
import { pathAt } from "../../../grammar/src/ast-walk.js";
import type { Span } from "../../../grammar/src/span.js";
import { toTypeProto } from "../infer/types.js";
import { printType } from "../print-parts.js";
import type { Analysis } from "./analysis.js";
import type { CodeAction } from "./code-actions.js";

const overlaps = (a: Span, b: Span): boolean => a.start <= b.end && b.start <= a.end;

export function declaredTypeFixes(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  if (!a.ast) return out;
  for (const d of a.diagnostics) {
    const inferred = d.code === "declared-type-mismatch" ? d.data?.inferredType : undefined;
    if (!inferred || !d.span || !overlaps(d.span, range)) continue;
    const path = pathAt(a.ast, d.span.start);
    const i = path.findIndex((n) => n.kind === "ValueDecl");
    const decl = path[i];
    // only a type written in the text (not one from a residual comment) can be rewritten
    if (decl?.kind !== "ValueDecl" || !decl.type || decl.type.span.start !== d.span.start || decl.type.span.end !== d.span.end) continue;
    const text = printType(toTypeProto(inferred));
    if (text === undefined) continue;
    // a main graph output needs a shape (missing-shape): `T[]` there would trade one error for another
    if (text.endsWith("[]") && a.ast.graph?.outputs?.items.includes(decl)) continue;
    const name = decl.name?.value ?? "";
    out.push({ title: `Declare '${name}' as the inferred ${text}`, kind: "quickfix", edits: [{ span: d.span, newText: text }], fixes: d.span });
  }
  return out;
}
