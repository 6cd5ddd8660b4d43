// Offsets of the current text <-> offsets of an older text it was edited from by one
// replacement (`null`: no edit). Lets a position request be answered by the older text's
// analysis where the edit did not reach, instead of waiting for the new analysis.
import type { Span } from "../../grammar/src/span.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";

/** The older text's offset for `offset` of the current text, or undefined inside the edit. */
export function mapBack(change: TextChange | null, offset: number): number | undefined {
  if (!change || offset < change.start) return offset;
  const end = change.start + change.newLength;
  if (offset <= end) return undefined;
  return offset - (change.newLength - (change.end - change.start));
}

/** A span of the older text in the current text's offsets, or undefined when the edit touches it. */
export function mapSpan(change: TextChange | null, span: Span): Span | undefined {
  if (!change || span.end < change.start) return span;
  if (span.start <= change.end) return undefined;
  const delta = change.newLength - (change.end - change.start);
  return { start: span.start + delta, end: span.end + delta };
}
