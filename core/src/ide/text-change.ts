// Edits between two versions of a text, folded into one replacement, and results that carry
// across such a replacement: whole-document features (semantic tokens, folds) recompute only
// the edited statement and move the rest, instead of walking a 50k-node tree per keystroke.
import type { Span } from "../../../grammar/src/span.js";
import { partitionPoint } from "../arrays.js";
import type { TextChange } from "./shift-diagnostics.js";

/**
 * One replacement equivalent to applying `changes` in order (each in the offsets of the text
 * the previous ones produced): the smallest range of the first text that covers them all.
 */
export function composeChanges(changes: readonly TextChange[]): TextChange | undefined {
  let net: TextChange | undefined;
  for (const c of changes) {
    if (!net) {
      net = c;
      continue;
    }
    // The region `net` produced in the current text, and its union with the next change.
    const producedEnd = net.start + net.newLength;
    const lo = Math.min(net.start, c.start);
    const hi = Math.max(producedEnd, c.end);
    const growth = net.newLength - (net.end - net.start);
    const oldStart = Math.min(lo, net.start);
    const oldEnd = hi > producedEnd ? hi - growth : net.end;
    net = { start: oldStart, end: oldEnd, newLength: hi + c.newLength - (c.end - c.start) - lo };
  }
  return net;
}

/**
 * Items of an older text carried into the newer one where a region was recomputed: items
 * before `oldRegion` stay, items after it move by the length difference, items that enclose
 * it grow (when `grown` is given), items inside it are replaced by `fresh` (computed on the
 * newer text for the region). Items must be sorted by start; an item that overlaps the region
 * only partly makes the result undefined (the caller recomputes everything).
 */
export function spliceRegion<T>(
  old: readonly T[],
  spanOf: (item: T) => Span,
  moved: (item: T, delta: number) => T,
  oldRegion: Span,
  delta: number,
  fresh: readonly T[],
  grown?: (item: T, delta: number) => T,
): T[] | undefined {
  const before: T[] = [];
  const after: T[] = [];
  for (const item of old) {
    const s = spanOf(item);
    if (s.end <= oldRegion.start) before.push(item);
    else if (s.start >= oldRegion.end) after.push(delta === 0 ? item : moved(item, delta));
    else if (s.start >= oldRegion.start && s.end <= oldRegion.end) continue;
    else if (grown && s.start <= oldRegion.start && s.end >= oldRegion.end) before.push(grown(item, delta));
    else return undefined;
  }
  return before.concat(fresh, after);
}

/** The result of spliceDisjoint: `old[from, to)` was replaced by the fresh items. */
export interface Spliced<T> {
  readonly items: T[];
  readonly from: number;
  readonly to: number;
  readonly fresh: number;
}

/**
 * spliceRegion for items that do not overlap one another (semantic tokens): the items around
 * the region are found by binary search and copied, not visited one by one.
 */
export function spliceDisjoint<T extends { readonly start: number }>(
  old: readonly T[],
  endOf: (item: T) => number,
  moved: (item: T, delta: number) => T,
  oldRegion: Span,
  delta: number,
  fresh: readonly T[],
): Spliced<T> | undefined {
  // Items in start order that do not overlap also end in order.
  const i = partitionPoint(old.length, (k) => endOf(old[k]!) > oldRegion.start);
  const j = partitionPoint(old.length, (k) => old[k]!.start >= oldRegion.end);
  for (let k = i; k < j; k++) if (old[k]!.start < oldRegion.start || endOf(old[k]!) > oldRegion.end) return undefined;
  const after = old.slice(j);
  if (delta !== 0) for (let k = 0; k < after.length; k++) after[k] = moved(after[k]!, delta);
  return { items: old.slice(0, i).concat(fresh, after), from: i, to: j, fresh: fresh.length };
}
