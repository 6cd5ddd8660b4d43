// Folding ranges: bodies, headers, lists and runs of comment lines that span several lines.
import { copySpan, type Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import type { AstNode } from "../../../grammar/src/ast.js";
import { walkAstSteps, walkOverlapping } from "../../../grammar/src/ast-walk.js";
import { finish } from "../../../grammar/src/steps.js";
import { editedStatement } from "./edited-statement.js";
import type { TextChange } from "./shift-diagnostics.js";
import { spliceRegion } from "./text-change.js";

export interface Fold {
  readonly span: Span;
  readonly kind: "region" | "comment";
}

const FOLDABLE = new Set(["Graph", "Function", "Header", "NodeBlock", "AttributeList", "ValueDeclList", "InlineData", "PackedNumbers", "ParamList", "List"]);

export function foldingRanges(a: Analysis): Fold[] {
  return finish(foldingRangeSteps(a));
}

/** foldingRanges in steps (see walkAstSteps): the same folds, with pauses along the walk. */
export function* foldingRangeSteps(a: Analysis): Generator<void, Fold[], void> {
  const out: Fold[] = [];
  const multiLine = (s: Span): boolean => a.lines.position(s.start).line !== a.lines.position(s.end).line;
  if (a.ast)
    yield* walkAstSteps(a.ast, (n) => {
      if (FOLDABLE.has(n.kind) && multiLine(n.span)) out.push({ span: copySpan(n.span), kind: "region" });
    });
  // Consecutive whole-line comments fold as one block.
  let run: Span | undefined;
  let lastLine = -2;
  const flush = (): void => {
    if (run && multiLine(run)) out.push({ span: copySpan(run), kind: "comment" });
    run = undefined;
  };
  let left = COMMENT_STEP;
  for (const c of a.comments) {
    if (--left <= 0) {
      left = COMMENT_STEP;
      yield;
    }
    const line = a.lines.position(c.span.start).line;
    const lineStart = a.lines.offset({ line, character: 0 });
    const ownLine = a.text.slice(lineStart, c.span.start).trim() === "";
    if (ownLine && run && line === lastLine + 1) run = { start: run.start, end: c.span.end };
    else {
      flush();
      if (ownLine) run = c.span;
    }
    lastLine = line;
  }
  flush();
  return out.sort((x, y) => x.span.start - y.span.start);
}

/** How many comments the comment folds take between pauses. */
const COMMENT_STEP = 1024;

/** Folds of the syntax tree inside `range`. */
function regionFolds(a: Analysis, range: Span): Fold[] {
  const out: Fold[] = [];
  const multiLine = (s: Span): boolean => a.lines.position(s.start).line !== a.lines.position(s.end).line;
  const add = (n: AstNode): void => {
    if (FOLDABLE.has(n.kind) && multiLine(n.span)) out.push({ span: copySpan(n.span), kind: "region" });
  };
  if (!a.ast) return out;
  // Only the nodes on the way to the range are visited, and those inside it (in text order).
  walkOverlapping(a.ast, range, (n) => {
    if (range.start <= n.span.start && n.span.end <= range.end) add(n);
  });
  return out;
}

/**
 * The folds of `a` from those of an older text and one replacement between them, when it lies
 * inside one node statement with no comment (see updatedTokens); otherwise undefined.
 */
export function updatedFolds(a: Analysis, old: readonly Fold[], change: TextChange): Fold[] | undefined {
  const region = editedStatement(a, change);
  if (!region || a.comments.some((c) => c.span.end > region.start && c.span.start < region.end)) return undefined;
  const delta = change.newLength - (change.end - change.start);
  const move = (f: Fold, d: number): Fold => ({ ...f, span: { start: f.span.start + d, end: f.span.end + d } });
  const grow = (f: Fold, d: number): Fold => ({ ...f, span: { start: f.span.start, end: f.span.end + d } });
  return spliceRegion(old, (f) => f.span, move, { start: region.start, end: region.end - delta }, delta, regionFolds(a, region), grow);
}
