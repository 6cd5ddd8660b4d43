// Integer tensor data straight from its array into the output bytes: the digits of each value
// written in place, lines broken as the layout breaks a fill of strings (print/doc.ts), with no
// string per element. Used for raised integer tensors (int8 ... int64 weights, float16 bits).
import type { PackedValues } from "../../../grammar/src/ast.js";
import type { ByteWriter } from "./byte-writer.js";
import type { FillLayout } from "./fill-layout.js";

/** Longest text of a safe integer: `-9007199254740991`. */
const MAX_DIGITS = 17;

/** The length of `v`'s text (a safe integer; `-0` is `0`, as String gives it). */
function safeIntegerLength(v: number): number {
  let n = v < 0 ? 2 : 1;
  const a = Math.abs(v);
  for (let p = 10; p <= a; p *= 10) n++;
  return n;
}

/** Writes `v` (a safe integer) at `pos` of `buf`, `len` bytes (safeIntegerLength); returns the position after it. */
function writeSafeInteger(buf: Uint8Array, pos: number, v: number, len: number): number {
  const end = pos + len;
  if (v < 0) {
    buf[pos] = 45; // '-'
    v = -v;
  }
  let at = end;
  do {
    const q = Math.floor(v / 10);
    buf[--at] = 48 + (v - q * 10);
    v = q;
  } while (v > 0);
  return end;
}

/**
 * Appends `values` as a broken fill (see FillLayout), each value as String(value) would write it;
 * returns the column after the last one. Values that are not safe integers take String.
 */
export function writeIntegerFill(out: ByteWriter, values: PackedValues, at: FillLayout): number {
  const sep = at.sep.charCodeAt(0);
  const n = values.length;
  let col = at.col;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const safe = Number.isSafeInteger(v);
    const text = safe ? "" : String(v);
    const len = safe ? safeIntegerLength(v) : text.length;
    if (i > 0) {
      if (col + 2 + len + (i < n - 1 ? 1 : 0) <= at.width) {
        out.ensure(2);
        out.buf[out.pos++] = sep;
        out.buf[out.pos++] = 32;
        col += 2;
      } else {
        out.ascii(at.lineBreak);
        col = at.indentWidth;
      }
    }
    if (safe) {
      out.ensure(MAX_DIGITS);
      out.pos = writeSafeInteger(out.buf, out.pos, v, len);
    } else out.ascii(text);
    col += len;
  }
  return col;
}
