// Offset <-> (line, column) conversion: sorted line starts and a binary search. Lines and
// columns are 0-based UTF-16 units (as in LSP); `\r\n`, `\n` and `\r` each end a line.

export interface Position {
  readonly line: number;
  readonly character: number;
}

export class LineIndex {
  private readonly starts: number[];

  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.starts = starts;
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
