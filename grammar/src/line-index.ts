// Offset <-> (line, column) conversion: sorted line starts and a binary search. Lines and
// columns are 0-based UTF-16 units (as in LSP); `\r\n`, `\n` and `\r` each end a line.

export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A replacement of old offsets [start, end) by `newLength` characters. */
export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly newLength: number;
}

/** Pushes the starts of the lines that begin in text[from, to) after a line break. */
function scanLineStarts(text: string, from: number, to: number, starts: number[]): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
}

export class LineIndex {
  private readonly starts: number[];

  constructor(
    private readonly text: string,
    starts?: number[],
  ) {
    if (starts) this.starts = starts;
    else {
      this.starts = [0];
      scanLineStarts(text, 0, text.length, this.starts);
    }
  }

  /**
   * The index of `text`, which is this index's text with `change` applied: the lines the
   * change touches are scanned again, the others' starts are kept or moved (a keystroke in a
   * long document costs a copy of the starts, not a scan of every character).
   */
  edited(text: string, change: Replacement): LineIndex {
    const delta = change.newLength - (change.end - change.start);
    // From the line before the change's (a `\r` just before it may now pair with a `\n`)...
    const first = Math.max(0, this.position(change.start).line - 1);
    // ...to the first line start past the changed text and the character after it.
    let after = first + 1;
    while (after < this.starts.length && this.starts[after]! <= change.end + 1) after++;
    const starts = this.starts.slice(0, first + 1);
    if (after === this.starts.length) scanLineStarts(text, this.starts[first]!, text.length, starts);
    else {
      const stop = this.starts[after]! + delta;
      scanLineStarts(text, this.starts[first]!, stop, starts);
      if (starts[starts.length - 1] === stop) starts.pop(); // the kept line start below
      for (let i = after; i < this.starts.length; i++) starts.push(this.starts[i]! + delta);
    }
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The position of an offset; offsets beyond the text clamp to its end. */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo]! };
  }

  /**
   * The position of `offset` found by walking forward from line `from` (whose start is at or
   * before it): linear over a sorted run of offsets instead of a search for each.
   */
  positionFrom(offset: number, from: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    if (!(from >= 0 && from < this.starts.length && this.starts[from]! <= o)) return this.position(o);
    let line = from;
    while (line + 1 < this.starts.length && this.starts[line + 1]! <= o) line++;
    return { line, character: o - this.starts[line]! };
  }

  /** The offset of a position; out-of-range lines and columns clamp to the text. */
  offset(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line]!;
    const next = pos.line + 1 < this.starts.length ? this.starts[pos.line + 1]! : this.text.length;
    let lineEnd = next;
    while (lineEnd > start && (this.text.charCodeAt(lineEnd - 1) === 10 || this.text.charCodeAt(lineEnd - 1) === 13)) lineEnd--;
    return Math.min(start + Math.max(0, pos.character), lineEnd);
  }

  /** `line:col`, both 1-based, as printed in `FILE:LINE:COL` messages. */
  lineCol(offset: number): string {
    const p = this.position(offset);
    return `${p.line + 1}:${p.character + 1}`;
  }
}
