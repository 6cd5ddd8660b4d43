// A small document algebra for layout (after Wadler's "prettier printer"): the printer builds
// a Doc, and `layout` chooses where groups break so lines stay within the width.

export type Doc = string | Doc[] | DocNode;

export type DocNode =
  | { readonly t: "line"; readonly soft: boolean; readonly hard: boolean }
  | { readonly t: "group"; readonly body: Doc; readonly broken: boolean }
  | { readonly t: "indent"; readonly body: Doc }
  | { readonly t: "suffix"; readonly text: string }
  | { readonly t: "fill"; readonly count: number; readonly item: (i: number) => string; readonly sep: string };

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

/** Text put at the end of the current line (a trailing comment); forces the line to end. */
export function lineSuffix(text: string): Doc {
  return { t: "suffix", text };
}

/** `count` items (rendered on demand) separated by `sep` + space, packed onto as few lines as fit. */
export function fill(count: number, item: (i: number) => string, sep: string): Doc {
  return { t: "fill", count, item, sep };
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
      return true;
    case "fill":
      return false;
  }
}

type Mode = "flat" | "break";

interface Frame {
  readonly ind: number;
  readonly mode: Mode;
  readonly doc: Doc;
}

/** Does `doc` (then `rest`) fit in `width` columns up to the first line break? */
function fits(doc: Doc, rest: readonly Frame[], width: number, mustBeFlat: boolean): boolean {
  let remaining = width;
  const stack: { mode: Mode; doc: Doc }[] = [{ mode: "flat", doc }];
  let restIdx = rest.length;
  while (remaining >= 0) {
    let item = stack.pop();
    if (!item) {
      if (restIdx === 0 || mustBeFlat) return true;
      const f = rest[--restIdx]!;
      item = { mode: f.mode, doc: f.doc };
    }
    const d = item.doc;
    if (typeof d === "string") {
      remaining -= d.length;
      continue;
    }
    if (Array.isArray(d)) {
      for (let i = d.length - 1; i >= 0; i--) stack.push({ mode: item.mode, doc: d[i]! });
      continue;
    }
    switch (d.t) {
      case "line":
        if (item.mode === "break" || d.hard) return true;
        if (!d.soft) remaining -= 1;
        break;
      case "group":
        if (mustBeFlat && d.broken) return false;
        stack.push({ mode: d.broken ? "break" : item.mode, doc: d.body });
        break;
      case "indent":
        stack.push({ mode: item.mode, doc: d.body });
        break;
      case "suffix":
        break;
      case "fill":
        if (item.mode === "break") return true;
        for (let i = 0; i < d.count && remaining >= 0; i++) remaining -= d.item(i).length + (i > 0 ? d.sep.length + 1 : 0);
        break;
    }
  }
  return false;
}

/** Renders `doc` with lines of at most `width` columns where the groups allow it. */
export function layout(doc: Doc, width_ = 100, indentUnit = "  "): string {
  const out: string[] = [];
  let col = 0;
  let suffixes: string[] = [];
  const stack: Frame[] = [{ ind: 0, mode: "break", doc }];
  const newline = (ind: number): void => {
    if (suffixes.length) {
      out.push(suffixes.join(""));
      suffixes = [];
    }
    // Trim spaces that a break left at the end of the line.
    const last = out.length - 1;
    if (last >= 0 && out[last]!.endsWith(" ")) out[last] = out[last]!.replace(/[ ]+$/, "");
    out.push("\n" + indentUnit.repeat(ind));
    col = ind * indentUnit.length;
  };
  while (stack.length) {
    const { ind, mode, doc: d } = stack.pop()!;
    if (typeof d === "string") {
      out.push(d);
      col += d.length;
      continue;
    }
    if (Array.isArray(d)) {
      for (let i = d.length - 1; i >= 0; i--) stack.push({ ind, mode, doc: d[i]! });
      continue;
    }
    switch (d.t) {
      case "line":
        if (mode === "break" || d.hard) newline(ind);
        else if (!d.soft) {
          out.push(" ");
          col++;
        }
        break;
      case "group": {
        const flat = !d.broken && fits(d.body, stack, width_ - col, false);
        stack.push({ ind, mode: flat ? "flat" : "break", doc: d.body });
        break;
      }
      case "indent":
        stack.push({ ind: ind + 1, mode, doc: d.body });
        break;
      case "suffix":
        suffixes.push(d.text);
        break;
      case "fill": {
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
    }
  }
  if (suffixes.length) out.push(suffixes.join(""));
  return out.join("");
}
