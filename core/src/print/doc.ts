// A small document algebra for layout (after Wadler's "prettier printer"): the printer builds
// a Doc, and `layout` chooses where groups break so lines stay within the width.
import { ByteWriter } from "../numbers/byte-writer.js";
import type { FillLayout, FillWriter } from "../numbers/fill-layout.js";

export type { FillLayout, FillWriter };

export type Doc = string | Doc[] | DocNode;

type DocNode =
  | { readonly t: "line"; readonly soft: boolean; readonly hard: boolean }
  | { readonly t: "group"; readonly body: Doc; readonly broken: boolean }
  | { readonly t: "indent"; readonly body: Doc }
  | { readonly t: "suffix"; readonly text: string }
  | { readonly t: "freshline" }
  /** A group known to have no hard break, with its flat text; the group is built on demand. */
  | { readonly t: "known"; readonly text: string; readonly group: () => Doc }
  | {
      readonly t: "fill";
      readonly count: number;
      readonly item: (i: number) => string;
      readonly sep: string;
      /** All items written as bytes, when broken (faster for big tensors); optional. */
      readonly write?: FillWriter;
    }
  | Lazy;

/** A sequence of docs made one at a time as layout reaches them (see `lazy`). */
interface Lazy {
  readonly t: "lazy";
  readonly count: number;
  readonly item: (i: number) => Doc;
}

/** A space in flat mode, a newline when the group breaks. */
export const line: Doc = { t: "line", soft: false, hard: false };
/** Nothing in flat mode, a newline when the group breaks. */
export const softline: Doc = { t: "line", soft: true, hard: false };
/** Always a newline; breaks every enclosing group. */
export const hardline: Doc = { t: "line", soft: false, hard: true };

export function group(body: Doc, broken = false): Doc {
  return { t: "group", body, broken: broken || hasHardBreak(body) };
}

export function indent(body: Doc): Doc {
  return { t: "indent", body };
}

/** A newline unless the current line holds only indentation (so own-line comments stay so). */
export const freshline: Doc = { t: "freshline" };

/** Text put at the end of the current line (a trailing comment); forces the line to end. */
export function lineSuffix(text: string): Doc {
  return { t: "suffix", text };
}

/**
 * A group given with its flat text, for the common element that fits on its line: layout
 * writes the text and builds `group` only when the text does not fit. The caller promises
 * that `group()` has no hard break and renders flat as exactly `text`.
 */
export function knownGroup(text: string, group: () => Doc): Doc {
  return { t: "known", text, group };
}

/** `count` items (rendered on demand) separated by `sep` + space, packed onto as few lines as fit. */
export function fill(count: number, item: (i: number) => string, sep: string, write?: FillWriter): Doc {
  return write ? { t: "fill", count, item, sep, write } : { t: "fill", count, item, sep };
}

/**
 * `count` docs made on demand, in order, each dropped once laid out: the statements of a big
 * graph never all exist at once. Layout may look one item ahead (to see where the current line
 * ends), so the last two items are kept and each is made only once. For vertical lists: the
 * sequence counts as holding a hard break.
 */
export function lazy(count: number, make: (i: number) => Doc): Doc {
  // The last two items made, in two slots (the older one is replaced).
  let i0 = -1;
  let i1 = -1;
  let d0: Doc = "";
  let d1: Doc = "";
  const item = (i: number): Doc => {
    if (i === i1) return d1;
    if (i === i0) return d0;
    const d = make(i);
    i0 = i1;
    d0 = d1;
    i1 = i;
    d1 = d;
    return d;
  };
  return { t: "lazy", count, item };
}

function isSequence(doc: Doc): doc is Doc[] | Lazy {
  return Array.isArray(doc) || (typeof doc === "object" && doc.t === "lazy");
}

export function join(sep: Doc, docs: readonly Doc[]): Doc[] {
  const out: Doc[] = [];
  docs.forEach((d, i) => {
    if (i > 0) out.push(sep);
    out.push(d);
  });
  return out;
}

function hasHardBreak(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) return doc.some(hasHardBreak);
  switch (doc.t) {
    case "line":
      return doc.hard;
    case "group":
      return doc.broken;
    case "indent":
      return hasHardBreak(doc.body);
    case "suffix":
    case "freshline":
    case "lazy":
      return true;
    case "fill":
    case "known":
      return false;
  }
}

type Mode = "flat" | "break";

/**
 * A stack of docs to visit without an object per entry: arrays (and lazy sequences) are walked
 * with a cursor instead of being pushed element by element (a graph body can hold 100k nodes).
 * The arrays only grow; `size` marks the top (changing an array's length costs more than the walk).
 */
class DocStack {
  private readonly docs: (Doc | undefined)[] = [];
  private readonly modes: Mode[] = [];
  private readonly inds: number[] = [];
  /** For an array entry, the next index to visit; -1 for a single doc. */
  private readonly cursors: number[] = [];
  size = 0;

  push(doc: Doc, mode: Mode, ind: number): void {
    const top = this.size++;
    this.docs[top] = doc;
    this.modes[top] = mode;
    this.inds[top] = ind;
    this.cursors[top] = isSequence(doc) ? 0 : -1;
  }

  /** The next leaf-or-node doc; sets `mode` and `ind` to its frame's. Undefined when empty. */
  mode: Mode = "break";
  ind = 0;
  next(): Doc | undefined {
    for (;;) {
      const top = this.size - 1;
      if (top < 0) return undefined;
      const doc = this.docs[top]!;
      this.mode = this.modes[top]!;
      this.ind = this.inds[top]!;
      const c = this.cursors[top]!;
      if (c < 0) {
        this.size = top;
        return doc;
      }
      const seq = doc as Doc[] | Lazy;
      const array = Array.isArray(seq);
      if (c >= (array ? seq.length : seq.count)) {
        this.size = top;
        continue;
      }
      this.cursors[top] = c + 1;
      const item = array ? seq[c]! : seq.item(c);
      if (isSequence(item)) {
        this.push(item, this.mode, this.ind);
        continue;
      }
      return item;
    }
  }

  clear(): void {
    this.size = 0;
  }

  /** Drops the references to docs, so a finished layout does not keep its document alive. */
  release(): void {
    this.size = 0;
    this.docs.length = 0;
  }

  /** Copies the frames (with their cursors) for a look-ahead that must not disturb them. */
  copyFrom(other: DocStack): void {
    const n = other.size;
    for (let i = 0; i < n; i++) {
      this.docs[i] = other.docs[i];
      this.modes[i] = other.modes[i]!;
      this.inds[i] = other.inds[i]!;
      this.cursors[i] = other.cursors[i]!;
    }
    this.size = n;
  }
}

const fitStack = new DocStack();
const restStack = new DocStack();

/** Does `doc` (then what follows in `rest`) fit in `width` columns up to the first line break? */
function fits(doc: Doc, rest: DocStack, width: number): boolean {
  let remaining = width;
  fitStack.clear();
  fitStack.push(doc, "flat", 0);
  let inRest = false;
  while (remaining >= 0) {
    let d = fitStack.next();
    let mode = fitStack.mode;
    if (d === undefined) {
      if (!inRest) {
        // Only the top few frames of the rest matter: up to the next line break.
        restStack.copyFrom(rest);
        inRest = true;
      }
      d = restStack.next();
      mode = restStack.mode;
      if (d === undefined) return true;
    }
    if (typeof d === "string") {
      remaining -= d.length;
      continue;
    }
    if (Array.isArray(d)) continue;
    switch (d.t) {
      case "line":
        if (mode === "break" || d.hard) return true;
        if (!d.soft) remaining -= 1;
        break;
      case "group":
        (inRest ? restStack : fitStack).push(d.body, d.broken ? "break" : mode, 0);
        break;
      case "indent":
        (inRest ? restStack : fitStack).push(d.body, mode, 0);
        break;
      case "suffix":
        break;
      case "freshline":
        return true;
      case "known":
        if (mode === "flat") remaining -= d.text.length;
        else (inRest ? restStack : fitStack).push(d.group(), mode, 0);
        break;
      case "fill":
        if (mode === "break") return true;
        for (let i = 0; i < d.count && remaining >= 0; i++) remaining -= d.item(i).length + (i > 0 ? d.sep.length + 1 : 0);
        break;
      case "lazy": // (the stack walks sequences itself)
        break;
    }
  }
  return false;
}

/**
 * Where layout's text goes once a fill is written as bytes: the pieces so far are encoded
 * into it, the fill follows, and the whole text is decoded once at the end (one big string,
 * not a decoded chunk and then a joined copy).
 */
const sink = new ByteWriter();

/**
 * Renders `doc` with lines of at most `width` columns where the groups allow it. With `write`,
 * the text goes to it as UTF-8 bytes, about `chunkBytes` at a time (each chunk valid only
 * during the call), and the result is "": a big model's text is never whole in memory.
 */
export function layout(doc: Doc, width_ = 100, indentUnit = "  ", write?: (bytes: Uint8Array) => void, chunkBytes = 1 << 22): string {
  const out: string[] = [];
  let col = 0;
  let lineStart = 0; // out index where the current line starts
  let lineInSink = false; // whether the current line has text already moved to the sink
  let sunk = false;
  sink.pos = 0;
  sink.flush = write;
  sink.flushAt = chunkBytes;
  const flushPieces = Math.max(1, chunkBytes >> 10);
  let suffixes: string[] = [];
  let lineIndent = 0; // indentation of the current line, for comments that spill over it
  const stack = new DocStack();
  stack.push(doc, "break", 0);
  const breaks: string[] = []; // a line break with the indentation, by depth
  const newline = (ind: number): void => {
    if (suffixes.length) {
      // One comment per line: a second one would merge into the first comment's text. Spilled
      // comments sit between this line and the next, inside whichever of the two is deeper (a
      // block the next line opens, or a list it closes), where a re-parse attaches them too.
      out.push(suffixes[0]!);
      const spill = indentUnit.repeat(Math.max(lineIndent, ind));
      for (const extra of suffixes.slice(1)) out.push("\n" + spill + extra.trimStart());
      suffixes = [];
    }
    // Trim spaces that a break left at the end of the line.
    const last = out.length - 1;
    if (last >= 0 && out[last]!.endsWith(" ")) out[last] = out[last]!.replace(/[ ]+$/, "");
    out.push((breaks[ind] ??= "\n" + indentUnit.repeat(ind)));
    lineIndent = ind;
    lineStart = out.length;
    lineInSink = false;
    if (write && out.length > flushPieces) {
      // streaming: finished lines move on (later trims and fresh-line checks look only at this line)
      sink.utf8(out.join(""));
      out.length = lineStart = 0;
      sunk = true;
    }
    col = ind * indentUnit.length;
  };
  for (;;) {
    const d = stack.next();
    if (d === undefined) break;
    const ind = stack.ind;
    const mode = stack.mode;
    if (typeof d === "string") {
      out.push(d);
      col += d.length;
      continue;
    }
    if (Array.isArray(d)) continue;
    switch (d.t) {
      case "line":
        if (mode === "break" || d.hard) newline(ind);
        else if (!d.soft) {
          out.push(" ");
          col++;
        }
        break;
      case "group": {
        const flat = !d.broken && fits(d.body, stack, width_ - col);
        stack.push(d.body, flat ? "flat" : "break", ind);
        break;
      }
      case "indent":
        stack.push(d.body, mode, ind + 1);
        break;
      case "known":
        // Flat when the group would be: its text fits with what follows up to the next break.
        if (mode === "flat" || (d.text.length <= width_ - col && fits(d.text, stack, width_ - col))) {
          out.push(d.text);
          col += d.text.length;
        } else stack.push(d.group(), mode, ind);
        break;
      case "suffix":
        suffixes.push(d.text);
        break;
      case "freshline":
        if (lineInSink) {
          newline(ind);
          break;
        }
        for (let i = lineStart; i < out.length; i++) {
          if (out[i]!.trim() !== "") {
            newline(ind);
            break;
          }
        }
        break;
      case "fill": {
        if (d.write && mode === "break" && suffixes.length === 0) {
          // The line is taken to start at the fill, as when the fill was one piece of `out`.
          lineInSink = d.count > 0;
          sink.utf8(out.join(""));
          out.length = lineStart = 0;
          sunk = true;
          col = d.write(sink, { sep: d.sep, col, width: width_, lineBreak: d.sep + "\n" + indentUnit.repeat(ind), indentWidth: ind * indentUnit.length });
          break;
        }
        // Items are joined a line at a time: one string per line, not one per item.
        const sepWidth = d.sep.length + 1;
        const spaced = d.sep + " ";
        let row: string[] = [];
        for (let i = 0; i < d.count; i++) {
          const item = d.item(i);
          const width = item.length + (i < d.count - 1 ? d.sep.length : 0);
          if (i > 0) {
            if (mode === "flat" || col + sepWidth + width <= width_) col += sepWidth;
            else {
              out.push(row.join(spaced) + d.sep);
              row = [];
              newline(ind);
            }
          }
          row.push(item);
          col += item.length;
        }
        out.push(row.join(spaced));
        break;
      }
      case "lazy": // (the stack walks sequences itself)
        break;
    }
  }
  if (suffixes.length) out.push(suffixes[0]!, ...suffixes.slice(1).map((x) => "\n" + x.trimStart()));
  fitStack.release();
  restStack.release();
  if (write) {
    sink.utf8(out.join(""));
    if (sink.pos > 0) write(sink.buf.subarray(0, sink.pos));
    sink.pos = 0;
    sink.flush = undefined;
    return "";
  }
  if (!sunk) return out.join("");
  sink.utf8(out.join(""));
  return sink.text();
}
