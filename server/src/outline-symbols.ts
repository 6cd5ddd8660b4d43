// The outline in LSP form (DocumentSymbol), carried across an edit that stays inside one line.
// Converting 5,000 items to line/character ranges makes some 30,000 objects on every keystroke;
// but when no line starts or ends, every item away from the edited line has the same range as
// before, so its converted symbol is reused and only the items around the edit are made again.
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver";
import type { OutlineItem, OutlineKind } from "../../core/src/ide/outline.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import type { Span } from "../../grammar/src/span.js";
import type { LineIndex } from "../../grammar/src/line-index.js";
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
  if (!before || !change || !withinOneLine(before.text, text, change)) return items.map((i) => toDocumentSymbol(lines, i));
  const delta = change.newLength - (change.end - change.start);
  const editedLine = lines.position(change.start).line;
  /** The old item `o` is `n` before the edit, or `n` moved by it without leaving its lines. */
  const unmoved = (n: OutlineItem, o: OutlineItem, s: DocumentSymbol): boolean => {
    if (n.name !== o.name || n.kind !== o.kind || n.detail !== o.detail || n.children.length > 0 || o.children.length > 0) return false;
    if (o.span.end < change.start) return sameSpan(n.span, o.span, 0) && sameSpan(n.selectionSpan, o.selectionSpan, 0);
    return o.span.start > change.end && s.range.start.line > editedLine && sameSpan(n.span, o.span, delta) && sameSpan(n.selectionSpan, o.selectionSpan, delta);
  };
  const carry = (now: readonly OutlineItem[], old: readonly OutlineItem[], symbols: readonly DocumentSymbol[]): DocumentSymbol[] => {
    // The common run at each end is reused; the items between are matched by kind and name
    // (a graph or function keeps its place) or made afresh.
    let head = 0;
    while (head < now.length && head < old.length && unmoved(now[head]!, old[head]!, symbols[head]!)) head++;
    let tail = 0;
    while (
      tail < now.length - head &&
      tail < old.length - head &&
      unmoved(now[now.length - 1 - tail]!, old[old.length - 1 - tail]!, symbols[symbols.length - 1 - tail]!)
    )
      tail++;
    const middle = now.slice(head, now.length - tail).map((n, k) => {
      const o = old[head + k];
      const s = symbols[head + k];
      return o && s && n.children.length > 0 && o.kind === n.kind && o.name === n.name
        ? toDocumentSymbol(lines, n, carry(n.children, o.children, s.children ?? []))
        : toDocumentSymbol(lines, n);
    });
    return [...symbols.slice(0, head), ...middle, ...symbols.slice(symbols.length - tail)];
  };
  return carry(items, before.items, before.symbols);
}

function sameSpan(now: Span, old: Span, shift: number): boolean {
  return now.start === old.start + shift && now.end === old.end + shift;
}

/** Whether the replacement neither removes nor adds a line break. */
function withinOneLine(before: string, after: string, change: TextChange): boolean {
  const removed = before.indexOf("\n", change.start);
  const added = after.indexOf("\n", change.start);
  return (removed < 0 || removed >= change.end) && (added < 0 || added >= change.start + change.newLength);
}
