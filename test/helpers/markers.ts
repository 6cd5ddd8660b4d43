// Marker fixtures: `$0` marks a cursor, a pair `$0...$0` (two markers) marks a range. The
// markers are removed and their offsets recorded.
export interface Fixture {
  readonly text: string;
  /** Offsets of every marker, in order, in the text without markers. */
  readonly markers: readonly number[];
  readonly cursor: number;
}

export function fixture(marked: string): Fixture {
  const markers: number[] = [];
  let text = "";
  let last = 0;
  for (let i = marked.indexOf("$0"); i >= 0; i = marked.indexOf("$0", last)) {
    text += marked.slice(last, i);
    markers.push(text.length);
    last = i + 2;
  }
  text += marked.slice(last);
  if (markers.length === 0) throw new Error("fixture has no $0 marker");
  return { text, markers, cursor: markers[0]! };
}

/** Position (0-based line and UTF-16 character) of an offset. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

export function offsetOf(text: string, pos: { line: number; character: number }): number {
  const lines = text.split("\n");
  let offset = 0;
  for (let i = 0; i < pos.line; i++) offset += lines[i]!.length + 1;
  return offset + pos.character;
}

/** Applies non-overlapping edits given as offsets. */
export function applyEdits(text: string, edits: readonly { start: number; end: number; newText: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
