// How a broken fill (a long list of numbers) lays out its items, shared by the layout engine
// (print/doc.ts) and the number writers that write items straight as bytes.
import type { ByteWriter } from "./byte-writer.js";

/** Where a broken fill's items go: `sep` + space between items, `lineBreak` instead when too long. */
export interface FillLayout {
  /** The separator (one ASCII character), written with a space after it. */
  readonly sep: string;
  /** The column where the first item starts. */
  readonly col: number;
  readonly width: number;
  /** The separator, a newline and the indentation: what starts a new line. */
  readonly lineBreak: string;
  readonly indentWidth: number;
}

/**
 * Appends a broken fill's items as ASCII bytes to `out`, lines broken as the fill of strings
 * would break them; returns the column after the last item.
 */
export type FillWriter = (out: ByteWriter, at: FillLayout) => number;
