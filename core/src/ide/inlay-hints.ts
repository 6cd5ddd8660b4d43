// Inlay hints: the type and shape of each node output that has no written type.
import type { Analysis } from "./analysis.js";

export interface InlayHint {
  /** Where the hint shows: just after the output name. */
  readonly offset: number;
  readonly label: string;
}

export function inlayHints(a: Analysis, start: number, end: number): InlayHint[] {
  const out: InlayHint[] = [];
  for (const sym of a.symbols.symbols) {
    if (sym.kind !== "value" || sym.producer?.kind !== "node" || sym.declaredType) continue;
    const type = a.typeOf(sym);
    if (!type) continue;
    for (const o of sym.occurrences) {
      if (o.role === "def" && o.span.end >= start && o.span.start <= end) out.push({ offset: o.span.end, label: `: ${type}` });
    }
  }
  return out.sort((x, y) => x.offset - y.offset);
}
