// Formatting as edits: the formatter's output compared line by line with the text, so an
// editor keeps its cursor and undo history where nothing changed. A range formats the whole
// document but applies only the changes that touch the range's lines.
import type { Span } from "../../../grammar/src/span.js";
import { formatText } from "../print/format.js";
import type { Analysis } from "./analysis.js";
import type { TextEdit } from "./text-edit.js";

/** Above this many differing lines per side, the middle is replaced as one edit. */
const MAX_DIFF_LINES = 3000;

type FormatEditsResult = { readonly ok: true; readonly edits: TextEdit[] } | { readonly ok: false; readonly reason: string };

/** `width`: the configured line width (line-width), when there is one. */
export function formatEdits(a: Analysis, range?: Span, width?: number): FormatEditsResult {
  const r = formatText(a.text, width !== undefined ? { width } : {});
  if (!r.ok) return { ok: false, reason: "The document has syntax errors; fix them before formatting." };
  const hunks = diffLines(a.text, r.text);
  const selected = range ? hunks.filter((h) => touches(h.span, range)) : hunks;
  return { ok: true, edits: selected };
}

/** Whether an edit's lines meet the range (an edit that ends where the range starts does not). */
function touches(edit: Span, range: Span): boolean {
  const end = Math.max(range.end, range.start + 1);
  if (edit.start === edit.end) return range.start <= edit.start && edit.start <= end;
  return edit.start < end && range.start < edit.end;
}

interface Line {
  readonly text: string;
  readonly start: number;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) {
      out.push({ text: text.slice(start), start });
      return out;
    }
    out.push({ text: text.slice(start, nl + 1), start });
    start = nl + 1;
  }
}

/** Edits that turn `before` into `after`, one per run of changed lines. */
function diffLines(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  const a = splitLines(before);
  const b = splitLines(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre]!.text === b[pre]!.text) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf]!.text === b[b.length - 1 - suf]!.text) suf++;
  const aMid = a.slice(pre, a.length - suf);
  const bMid = b.slice(pre, b.length - suf);
  const offsetOfLine = (i: number): number => (i < a.length ? a[i]!.start : before.length);
  const edit = (a0: number, a1: number, b0: number, b1: number): TextEdit => ({
    span: { start: offsetOfLine(pre + a0), end: offsetOfLine(pre + a1) },
    newText: bMid
      .slice(b0, b1)
      .map((l) => l.text)
      .join(""),
  });
  if (aMid.length > MAX_DIFF_LINES || bMid.length > MAX_DIFF_LINES) return [edit(0, aMid.length, 0, bMid.length)];
  // Longest common subsequence of the middle lines, then walk it into hunks.
  const n = aMid.length;
  const m = bMid.length;
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        aMid[i]!.text === bMid[j]!.text ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const edits: TextEdit[] = [];
  let i = 0;
  let j = 0;
  let hunkA = -1;
  let hunkB = -1;
  const flush = (): void => {
    if (hunkA < 0) return;
    // Line-for-line changes stay separate edits, so a range can take just its own lines.
    if (i - hunkA === j - hunkB) for (let k = 0; k < i - hunkA; k++) edits.push(edit(hunkA + k, hunkA + k + 1, hunkB + k, hunkB + k + 1));
    else edits.push(edit(hunkA, i, hunkB, j));
    hunkA = -1;
  };
  while (i < n || j < m) {
    if (i < n && j < m && aMid[i]!.text === bMid[j]!.text) {
      flush();
      i++;
      j++;
      continue;
    }
    if (hunkA < 0) {
      hunkA = i;
      hunkB = j;
    }
    if (j < m && (i >= n || lcs[i * (m + 1) + j + 1]! >= lcs[(i + 1) * (m + 1) + j]!)) j++;
    else i++;
  }
  flush();
  return edits;
}
