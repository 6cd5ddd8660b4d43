// Inlay hints: the type and shape of each node output that has no written type.
import type { Analysis } from "./analysis.js";

interface InlayHint {
  /** Where the hint shows: just after the output name. */
  readonly offset: number;
  readonly label: string;
}

export function inlayHints(a: Analysis, start: number, end: number): InlayHint[] {
  const out: InlayHint[] = [];
  // Only the names in the range: a 50k-node document asks for one screen at a time.
  for (const o of a.symbols.occurrencesIn({ start, end })) {
    const sym = o.symbol;
    if (o.role !== "def" || sym.kind !== "value" || sym.producer?.kind !== "node" || sym.declaredType) continue;
    const type = a.typeOf(sym);
    // `float[]` says only that inference stopped (below an error, say): no hint rather than a wrong-looking one.
    if (!type || type.endsWith("[]")) continue;
    out.push({ offset: o.span.end, label: `: ${type}` });
  }
  return out.sort((x, y) => x.offset - y.offset);
}
