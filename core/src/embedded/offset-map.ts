// Offsets of an embedded text <-> offsets of its host file. The text is made of pieces: runs
// copied as they stand in the host, and escapes (`\n`, `\x41`, a line continuation) whose
// decoded units come from a longer stretch of host text.
import type { Span } from "../../../grammar/src/span.js";
import { partitionPoint } from "../arrays.js";

export interface MapPiece {
  /** Where the piece starts in the text. */
  readonly text: number;
  /** Where it starts in the host. */
  readonly host: number;
  /** Its length in the text (0 for a line continuation). */
  readonly textLength: number;
  /** Its length in the host. */
  readonly hostLength: number;
}

export class OffsetMap {
  private readonly pieces: readonly MapPiece[];

  /** `pieces` in order, contiguous in the text; an empty text maps to `emptyAt`. */
  constructor(
    pieces: readonly MapPiece[],
    private readonly emptyAt: number,
  ) {
    this.pieces = pieces;
  }

  /** One run copied from `host`. */
  static copy(host: number, length: number): OffsetMap {
    return new OffsetMap([{ text: 0, host, textLength: length, hostLength: length }], host);
  }

  /** The host offset where text offset `offset` starts (the end of the text maps after its last piece). */
  toHost(offset: number): number {
    const ps = this.pieces;
    if (ps.length === 0) return this.emptyAt;
    // the last piece starting at or before `offset` that has text (continuations have none)
    let i = partitionPoint(ps.length, (k) => ps[k]!.text > offset) - 1;
    while (i > 0 && ps[i]!.textLength === 0) i--;
    if (i < 0) return ps[0]!.host;
    const p = ps[i]!;
    if (offset >= p.text + p.textLength) return this.endOf(i);
    return p.textLength === p.hostLength ? p.host + (offset - p.text) : p.host;
  }

  /** The host offset just after text unit `offset - 1` (for the end of a span). */
  toHostEnd(offset: number): number {
    if (offset <= 0) return this.toHost(0);
    const ps = this.pieces;
    const i = partitionPoint(ps.length, (k) => ps[k]!.text > offset - 1) - 1;
    if (i < 0) return this.emptyAt;
    const p = ps[i]!;
    if (offset >= p.text + p.textLength) return this.endOf(i);
    return p.textLength === p.hostLength ? p.host + (offset - p.text) : p.host + p.hostLength;
  }

  spanToHost(span: Span): Span {
    const start = this.toHost(span.start);
    return { start, end: span.end > span.start ? this.toHostEnd(span.end) : start };
  }

  /** The text offset of host offset `host`, or undefined outside the text (an escape maps to its start). */
  toText(host: number): number | undefined {
    const ps = this.pieces;
    if (ps.length === 0) return host === this.emptyAt ? 0 : undefined;
    const i = partitionPoint(ps.length, (k) => ps[k]!.host > host) - 1;
    if (i < 0) return undefined;
    const p = ps[i]!;
    if (host < p.host + p.hostLength) return p.textLength === p.hostLength ? p.text + (host - p.host) : p.text;
    if (host === p.host + p.hostLength) return p.text + p.textLength;
    return undefined;
  }

  /** The same map for a host whose text moved by `delta` before this region. */
  shifted(delta: number): OffsetMap {
    return new OffsetMap(
      this.pieces.map((p) => ({ ...p, host: p.host + delta })),
      this.emptyAt + delta,
    );
  }

  /** The host stretch the text covers. */
  get hostSpan(): Span {
    const ps = this.pieces;
    if (ps.length === 0) return { start: this.emptyAt, end: this.emptyAt };
    return { start: ps[0]!.host, end: this.endOf(ps.length - 1) };
  }

  private endOf(i: number): number {
    const p = this.pieces[i]!;
    return p.host + p.hostLength;
  }
}

/** Builds a text and its map piece by piece, merging adjacent copied runs. */
export class MapBuilder {
  private readonly parts: string[] = [];
  private readonly pieces: MapPiece[] = [];
  private length = 0;

  /** Copies host text `source.slice(from, to)`. */
  copy(source: string, from: number, to: number): void {
    if (to <= from) return;
    this.parts.push(source.slice(from, to));
    const last = this.pieces[this.pieces.length - 1];
    if (last && last.textLength === last.hostLength && last.host + last.hostLength === from) {
      this.pieces[this.pieces.length - 1] = { ...last, textLength: last.textLength + (to - from), hostLength: last.hostLength + (to - from) };
    } else this.pieces.push({ text: this.length, host: from, textLength: to - from, hostLength: to - from });
    this.length += to - from;
  }

  /** `decoded` stands for host text [from, to) (an escape; empty for a line continuation). */
  escape(decoded: string, from: number, to: number): void {
    this.parts.push(decoded);
    this.pieces.push({ text: this.length, host: from, textLength: decoded.length, hostLength: to - from });
    this.length += decoded.length;
  }

  /** The text and its map; `emptyAt` is where an empty text sits in the host. */
  finish(emptyAt: number): { text: string; map: OffsetMap } {
    return { text: this.parts.join(""), map: new OffsetMap(this.pieces, emptyAt) };
  }
}
