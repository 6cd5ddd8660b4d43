// Folding ranges: bodies, headers, lists and runs of comment lines that span several lines.
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";
import { walkAst } from "../../../grammar/src/ast-walk.js";

export interface Fold {
  readonly span: Span;
  readonly kind: "region" | "comment";
}

const FOLDABLE = new Set(["Graph", "Function", "Header", "NodeBlock", "AttributeList", "ValueDeclList", "InlineData", "PackedNumbers", "ParamList", "List"]);

export function foldingRanges(a: Analysis): Fold[] {
  const out: Fold[] = [];
  const multiLine = (s: Span): boolean => a.lines.position(s.start).line !== a.lines.position(s.end).line;
  if (a.ast) {
    walkAst(a.ast, (n) => {
      if (FOLDABLE.has(n.kind) && multiLine(n.span)) out.push({ span: n.span, kind: "region" });
    });
  }
  // Consecutive whole-line comments fold as one block.
  let run: Span | undefined;
  let lastLine = -2;
  const flush = (): void => {
    if (run && multiLine(run)) out.push({ span: run, kind: "comment" });
    run = undefined;
  };
  for (const c of a.comments) {
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
  return out;
}
