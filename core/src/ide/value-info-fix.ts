// The fix for `unused-value-info`: removes the entry from its graph's (or function's) `<...>`
// list with one of its commas, and the `#@value` residual lines written for it (left behind,
// they would describe the next value declared). Other comments stay: an entry alone on its line
// takes the line with it, but a comment at the end of that line is kept on a line of its own.
import { pathAt } from "../../../grammar/src/ast-walk.js";
import type { ValueDecl, ValueDeclList } from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import type { CodeAction } from "./code-actions.js";
import type { TextEdit } from "./text-edit.js";

const overlaps = (a: Span, b: Span): boolean => a.start <= b.end && b.start <= a.end;

export function unusedValueInfoFixes(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  if (!a.ast) return out;
  for (const d of a.diagnostics) {
    if (d.code !== "unused-value-info" || !d.span || !overlaps(d.span, range)) continue;
    const path = pathAt(a.ast, d.span.start);
    let at = path.length - 1;
    while (at >= 0 && path[at]!.kind !== "ValueDecl") at--;
    const decl = path[at];
    const list = path[at - 1];
    const owner = path[at - 2];
    if (decl?.kind !== "ValueDecl" || list?.kind !== "ValueDeclList" || (owner?.kind !== "Graph" && owner?.kind !== "Function")) continue;
    if (owner.valueInfos !== list || decl.init) continue;
    out.push({ title: `Remove the unused value_info '${decl.name?.value ?? ""}'`, kind: "quickfix", edits: removeEntry(a.text, list, decl), fixes: d.span });
  }
  return out;
}

const isBlank = (s: string): boolean => /^\s*$/.test(s);

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const eol = text.indexOf("\n", at);
  return eol < 0 ? text.length : eol;
}

/** The first comma in `text[from, to)` outside comments (the gap between two entries holds nothing else). */
function commaIn(text: string, from: number, to: number): number | undefined {
  for (let i = from; i < to; i++) {
    if (text[i] === "#") i = lineEnd(text, i);
    else if (text[i] === ",") return i;
  }
  return undefined;
}

/** The `#@value` lines right above `start` (only blank lines and comments in between). */
function residualLines(text: string, start: number): Span[] {
  const out: Span[] = [];
  let ls = lineStart(text, start);
  while (ls > 0) {
    const prev = lineStart(text, ls - 1);
    const line = text.slice(prev, ls - 1).trim();
    if (line !== "" && !line.startsWith("#")) break;
    if (line.startsWith("#@value")) out.push({ start: prev, end: ls });
    ls = prev;
  }
  return out;
}

function removeEntry(text: string, list: ValueDeclList, decl: ValueDecl): TextEdit[] {
  const items = list.items;
  const k = items.indexOf(decl);
  const next = items[k + 1];
  const prev = items[k - 1];
  const del = (start: number, end: number): TextEdit => ({ span: { start, end }, newText: "" });
  const startsLine = isBlank(text.slice(lineStart(text, decl.span.start), decl.span.start));
  const residuals = startsLine ? residualLines(text, decl.span.start) : [];
  // `<` and `>` are the list's first and last characters
  const inner = { start: list.span.start + 1, end: list.span.end - 1 };
  if (items.length === 1) {
    const rest = [text.slice(inner.start, decl.span.start), text.slice(decl.span.end, inner.end)].join("");
    const residualsInside = residuals.every((r) => r.start >= inner.start);
    const withoutResiduals = residuals.reduce((s, r) => s.replace(text.slice(r.start, r.end).trim(), ""), rest);
    if (residualsInside && isBlank(withoutResiduals)) {
      // nothing else in the list: the whole `<...>` goes, with the blanks before it
      let start = list.span.start;
      while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
      return [del(start, list.span.end)];
    }
  }
  // the comma that goes with the entry: the one after it, or for the last entry the one before it
  const after = commaIn(text, decl.span.end, next ? next.span.start : inner.end);
  const before = after === undefined && prev ? commaIn(text, prev.span.end, decl.span.start) : undefined;
  const end = after !== undefined ? after + 1 : decl.span.end;
  const eol = lineEnd(text, end);
  const tail = text.slice(end, eol);
  const comment = /^\s*(#.*)$/.exec(tail)?.[1];
  const edits = residuals.map((r) => del(r.start, r.end));
  if (before !== undefined) edits.push(del(before, before + 1));
  if (startsLine && (isBlank(tail) || comment !== undefined) && isBlank(text.slice(decl.span.end, after ?? decl.span.end))) {
    // alone on its line(s): the lines go; a comment at their end stays, at the entry's indentation
    const ls = lineStart(text, decl.span.start);
    const indent = text.slice(ls, decl.span.start);
    edits.push({ span: { start: ls, end: Math.min(eol + 1, text.length) }, newText: comment !== undefined ? `${indent}${comment}\n` : "" });
    return edits;
  }
  if (after !== undefined && isBlank(text.slice(decl.span.end, after))) {
    let stop = after + 1;
    while (text[stop] === " " || text[stop] === "\t") stop++;
    edits.push(del(decl.span.start, stop));
  } else if (before !== undefined && isBlank(text.slice(before + 1, decl.span.start))) {
    edits.pop();
    edits.push(del(before, decl.span.end));
  } else {
    edits.push(del(decl.span.start, decl.span.end));
    if (after !== undefined) edits.push(del(after, after + 1));
  }
  return edits;
}
