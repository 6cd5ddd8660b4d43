// The parts of splicing a re-read statement into the last analysis's tree that incremental.ts
// and incremental-broken.ts share: which analyses gave their tree away, moving the spans after
// the statement, and the comment list.
import type * as A from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { pushAll } from "../arrays.js";

export type MutableSpan = { start: number; end: number };

/** Analyses reused by an edit: their tree and model now belong to the newer text. */
export const consumed = new WeakSet<Analysis>();

/** True when a later edit took over this analysis's tree (its spans now fit a newer text). */
export function isConsumed(a: Analysis): boolean {
  return consumed.has(a);
}

export function isSpan(v: object): v is MutableSpan {
  return typeof (v as MutableSpan).start === "number" && typeof (v as MutableSpan).end === "number" && !("kind" in v);
}

/**
 * Adjusts the tree around a replaced statement [start, end): spans after it move by `delta`,
 * spans that enclose it grow by `delta`, spans before it stay. `skip` is a statement to leave
 * as it is (one already in the new text's offsets).
 * A node may share its span object with a child (a one-name list and its name, an op name and
 * its name, inline data and its packed numbers), never with another node: that span has moved
 * with the parent already. (No set of moved spans: a keystroke early in a long document moves
 * hundreds of thousands.)
 */
export function shiftAround(root: object, start: number, end: number, delta: number, skip: object): void {
  if (delta === 0) return;
  const visit = (v: unknown, parentSpan: unknown): void => {
    if (typeof v !== "object" || v === null || v === skip) return;
    if (Array.isArray(v)) {
      for (const x of v) {
        if (x !== skip && isPlainStatement(x) && x.span.start >= end) moveStatement(x, delta);
        else visit(x, parentSpan);
      }
      return;
    }
    if (isSpan(v)) {
      if (v === parentSpan) return;
      if (v.start >= end) {
        v.start += delta;
        v.end += delta;
      } else if (v.start <= start && v.end >= end) v.end += delta;
      return;
    }
    const span = (v as { span?: MutableSpan }).span;
    // A subtree that ends before the statement has nothing to move.
    if (span && span.end <= start) return;
    if (span) visit(span, parentSpan);
    const fields = v as Record<string, unknown>;
    for (const key in fields) if (key !== "span") visit(fields[key], span);
  };
  visit(root, undefined);
}

/** A node statement without a label or attributes: most of a big graph's, moved without the walk. */
function isPlainStatement(x: unknown): x is A.OpNode {
  const n = x as A.OpNode;
  return n.kind === "Node" && n.label === undefined && n.attributes === undefined;
}

/**
 * Moves every span of a plain statement after the edit by `delta`, each span object once (a
 * child may share its parent's): what the walk does, written out, since a keystroke early in a
 * long document moves every statement after it and the walk visits some eighty values each.
 */
function moveStatement(n: A.OpNode, delta: number): void {
  const move = (s: MutableSpan, parent?: Span): void => {
    if (s === parent) return;
    s.start += delta;
    s.end += delta;
  };
  const moveList = (list: A.IdList, parent: Span): void => {
    move(list.span, parent);
    for (let i = 0; i < list.items.length; i++) move(list.items[i]!.span, list.span);
  };
  move(n.span);
  moveList(n.outputs, n.span);
  if (n.inputs) moveList(n.inputs, n.span);
  const op = n.op;
  if (!op) return;
  move(op.span, n.span);
  for (let i = 0; i < op.domain.length; i++) move(op.domain[i]!.span, op.span);
  if (op.opType) move(op.opType.span, op.span);
  if (op.overload) move(op.overload.span, op.span);
}

export function spliceComments(old: readonly A.Comment[], fresh: readonly A.Comment[], start: number, end: number, delta: number): A.Comment[] {
  const out: A.Comment[] = [];
  for (const c of old) {
    if (c.span.end <= start) out.push(c);
    else if (c.span.start >= end) out.push({ ...c, span: { start: c.span.start + delta, end: c.span.end + delta } });
  }
  pushAll(out, fresh);
  return out.sort((a, b) => a.span.start - b.span.start);
}
