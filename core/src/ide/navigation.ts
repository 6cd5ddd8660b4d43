// Definition, references and document highlight: all read the symbol index.
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import type { Occurrence } from "./symbols.js";

/** Where the symbol under the cursor is defined (empty for an undefined name). */
export function definition(a: Analysis, offset: number): Span[] {
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return [];
  return occ.symbol.occurrences.filter((o) => o.role === "def").map((o) => o.span);
}

/** Every occurrence of the symbol under the cursor, definitions included when asked. */
export function references(a: Analysis, offset: number, includeDeclaration: boolean): Span[] {
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return [];
  return sortedSpans(occ.symbol.occurrences.filter((o) => includeDeclaration || o.role !== "def"));
}

type HighlightKind = "read" | "write" | "text";

interface Highlight {
  readonly span: Span;
  readonly kind: HighlightKind;
}

export function documentHighlights(a: Analysis, offset: number): Highlight[] {
  const occ = a.symbols.occurrenceAt(offset);
  if (!occ) return [];
  return occ.symbol.occurrences
    .slice()
    .sort((x, y) => x.span.start - y.span.start)
    .map((o) => ({ span: o.span, kind: o.role === "def" ? "write" : o.role === "use" ? "read" : "text" }));
}

function sortedSpans(occs: readonly Occurrence[]): Span[] {
  return occs.map((o) => o.span).sort((x, y) => x.start - y.start);
}
