// The outline in LSP form (DocumentSymbol), carried across an edit. Converting 50,000 items to
// line/character ranges makes some 300,000 objects on every keystroke; but every item before
// the edit has the same range as before, and every item on a line after it the same range
// moved by the lines the edit added or removed, so only the items around the edit are
// converted again.
import { SymbolKind, type DocumentSymbol, type Range } from "vscode-languageserver";
import type { OutlineItem, OutlineKind } from "../../core/src/ide/outline.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import type { Span } from "../../grammar/src/span.js";
import type { LineIndex } from "../../grammar/src/line-index.js";
import { finish } from "../../grammar/src/steps.js";
import { toRange } from "./convert.js";

export const OUTLINE_KINDS: Record<OutlineKind, SymbolKind> = {
  graph: SymbolKind.Module,
  function: SymbolKind.Function,
  node: SymbolKind.Method,
  input: SymbolKind.Variable,
  output: SymbolKind.Variable,
  initializer: SymbolKind.Constant,
};

/** An outline and its symbols, item for item (children included). */
export interface ConvertedOutline {
  readonly text: string;
  readonly items: readonly OutlineItem[];
  readonly symbols: DocumentSymbol[];
}

export function toDocumentSymbol(lines: LineIndex, item: OutlineItem, children?: DocumentSymbol[]): DocumentSymbol {
  const kids = children ?? item.children.map((c) => toDocumentSymbol(lines, c));
  return {
    name: item.name || " ",
    ...(item.detail !== undefined ? { detail: item.detail } : {}),
    kind: OUTLINE_KINDS[item.kind],
    range: toRange(lines, item.span),
    selectionRange: toRange(lines, item.selectionSpan),
    // Leaves go without an empty list: 5000 of them are 70 KB of an outline's JSON.
    ...(kids.length > 0 && { children: kids }),
  };
}

/**
 * The symbols of `items` (the outline of `text`), reusing those of `before` where `change` (the
 * one replacement from before.text to text) cannot have moved them.
 */
export function outlineSymbols(
  lines: LineIndex,
  text: string,
  items: readonly OutlineItem[],
  before?: ConvertedOutline,
  change?: TextChange | null,
): DocumentSymbol[] {
  return finish(outlineSymbolSteps(lines, text, items, before, change));
}

/** How many items are converted or compared between pauses. */
const SYMBOL_STEP = 256;

/**
 * outlineSymbols in steps (see server/src/slices.ts). An item before the edit keeps its symbol;
 * an item on a line after it keeps its symbol moved by the lines the edit added or removed; the
 * items between are converted afresh (a graph or function that keeps its kind and name is
 * carried item by item the same way).
 */
export function* outlineSymbolSteps(
  lines: LineIndex,
  text: string,
  items: readonly OutlineItem[],
  before?: ConvertedOutline,
  change?: TextChange | null,
): Generator<void, DocumentSymbol[], void> {
  const convert = function* (list: readonly OutlineItem[]): Generator<void, DocumentSymbol[], void> {
    const out: DocumentSymbol[] = [];
    for (let i = 0; i < list.length; i++) {
      if (i % SYMBOL_STEP === SYMBOL_STEP - 1) yield;
      out.push(toDocumentSymbol(lines, list[i]!));
    }
    return out;
  };
  if (!before || !change) return yield* convert(items);
  const delta = change.newLength - (change.end - change.start);
  const editedLine = lines.position(change.start).line;
  // The last line the replaced text reached in the old text, and how many lines it added.
  const lastOldLine = editedLine + lineBreaks(before.text, change.start, change.end);
  const lineDelta = editedLine + lineBreaks(text, change.start, change.start + change.newLength) - lastOldLine;
  /** The symbol of the new item `n` from the old `o` and its symbol `s`, when `n` is `o` before the edit or moved by it. */
  const carriedSymbol = (n: OutlineItem, o: OutlineItem, s: DocumentSymbol): DocumentSymbol | undefined => {
    if (n.name !== o.name || n.kind !== o.kind || n.detail !== o.detail || n.children.length > 0 || o.children.length > 0) return undefined;
    if (o.span.end < change.start) return sameSpan(n.span, o.span, 0) && sameSpan(n.selectionSpan, o.selectionSpan, 0) ? s : undefined;
    if (
      !(o.span.start > change.end && s.range.start.line > lastOldLine && sameSpan(n.span, o.span, delta) && sameSpan(n.selectionSpan, o.selectionSpan, delta))
    )
      return undefined;
    return lineDelta === 0 ? s : movedSymbol(s, lineDelta);
  };
  const carry = function* (
    now: readonly OutlineItem[],
    old: readonly OutlineItem[],
    symbols: readonly DocumentSymbol[],
  ): Generator<void, DocumentSymbol[], void> {
    // The common run at each end is reused; the items between are matched by kind and name
    // (a graph or function keeps its place) or made afresh.
    const head: DocumentSymbol[] = [];
    while (head.length < now.length && head.length < old.length) {
      const i = head.length;
      if (i % SYMBOL_STEP === SYMBOL_STEP - 1) yield;
      const s = carriedSymbol(now[i]!, old[i]!, symbols[i]!);
      if (!s) break;
      head.push(s);
    }
    const tail: DocumentSymbol[] = [];
    while (tail.length < now.length - head.length && tail.length < old.length - head.length) {
      const t = tail.length;
      if (t % SYMBOL_STEP === SYMBOL_STEP - 1) yield;
      const s = carriedSymbol(now[now.length - 1 - t]!, old[old.length - 1 - t]!, symbols[symbols.length - 1 - t]!);
      if (!s) break;
      tail.push(s);
    }
    const middle: DocumentSymbol[] = [];
    for (let k = 0; k < now.length - head.length - tail.length; k++) {
      if (k % SYMBOL_STEP === SYMBOL_STEP - 1) yield;
      const n = now[head.length + k]!;
      const o = old[head.length + k];
      const s = symbols[head.length + k];
      middle.push(
        o && s && n.children.length > 0 && o.kind === n.kind && o.name === n.name
          ? toDocumentSymbol(lines, n, yield* carry(n.children, o.children, s.children ?? []))
          : toDocumentSymbol(lines, n),
      );
    }
    return [...head, ...middle, ...tail.reverse()];
  };
  return yield* carry(items, before.items, before.symbols);
}

/** A leaf symbol `lines` lines further down. */
function movedSymbol(s: DocumentSymbol, lines: number): DocumentSymbol {
  const move = (r: Range): Range => ({
    start: { line: r.start.line + lines, character: r.start.character },
    end: { line: r.end.line + lines, character: r.end.character },
  });
  return { ...s, range: move(s.range), selectionRange: move(s.selectionRange) };
}

function sameSpan(now: Span, old: Span, shift: number): boolean {
  return now.start === old.start + shift && now.end === old.end + shift;
}

/** How many line breaks text[start, end) holds. */
function lineBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", start); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
