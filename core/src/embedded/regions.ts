// Regions as the finders draft them, numbered in file order.
import type { EmbeddedRegion } from "./types.js";

export type RegionDraft = Omit<EmbeddedRegion, "index">;

export function finishRegions(drafts: readonly RegionDraft[]): EmbeddedRegion[] {
  return [...drafts].sort((a, b) => a.literal.span.start - b.literal.span.start).map((d, index) => ({ index, ...d }));
}
