// Re-analysis after an edit that breaks the syntax of one node statement of the main graph (a
// `(` deleted, a stray `,`), with the result a full analysis of the new text gives.
//
// Why it is the same: the parser reads a graph body statement by statement and, after an error,
// skips to the next line that starts like a statement (recoverToStatement); a broken statement
// leaves nothing to the next but the token where reading resumes. So the statements between the
// token before the edited one and the first token of the next are read again from that stretch
// of the new text (parseStatementsBetween: the scanner from the token before, reading the whole
// text; nodeBlock's loop in the parser state there). The text up to that token is unchanged and
// the statement's first character too, so everything before lexes and parses as it did. If the
// loop stops right at the next statement's first token, the whole parse gets there in the same
// state and goes on as before: the same rest of the tree and, as before, no diagnostic (the last
// analysis had none). When the error runs past it (a `{`, a string quote or a comment that
// swallows the next statement, a statement read as attributes of another) nothing is spliced.
// A text with syntax errors is analysed no further than its parse (analyze.ts), nor is this one.
//
// The last analysis's tree is taken over, as incremental.ts does, and given back (restoreBroken)
// when the next edit in the same statement comes: typing the `(` again then splices into the
// last clean analysis, whose model and checks it reuses.
import type * as A from "../../../grammar/src/ast.js";
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseStatementsBetween } from "../../../grammar/src/index.js";
import type { Analysis } from "./analysis.js";
import { syntaxSnapshot, type Parts } from "./analyze.js";
import { consumed, shiftAround, spliceComments } from "./incremental-tree.js";
import type { TextChange } from "./shift-diagnostics.js";
import { buildSymbolIndex, builtIndexOf, setBuiltIndex, type SymbolIndex } from "./symbols.js";
import { spliceNodeSymbols } from "./symbols-splice.js";

interface BrokenSplice {
  readonly ast: A.Model;
  readonly body: A.NodeBlock;
  readonly k: number;
  /** The statement replaced, in the last analysis's offsets. */
  readonly old: A.OpNode;
  /** What the new text has in its place: the broken statement, and any statements recovery found in it. */
  readonly fresh: readonly A.OpNode[];
  readonly delta: number;
  /** The last analysis's symbol index, and whether it was updated for the splice (else left as it was). */
  readonly index: SymbolIndex | undefined;
  readonly indexSpliced: boolean;
}

/** For an analysis whose tree a broken statement took over: the splice, and the analysis it made. */
const taken = new WeakMap<Analysis, { splice: BrokenSplice; by: Analysis }>();

/**
 * Steps for the text `after` = `before.text` with `change` applied, `change` being in statement
 * `k` of the main graph after its first character; undefined unless the statement is broken and
 * its errors stay between the statements around it.
 */
export function brokenSteps(before: Analysis, k: number, change: TextChange, after: string): Generator<Analysis | undefined, Analysis, void> | undefined {
  const ast = before.ast!;
  const body = ast.graph!.body!;
  const nodes = body.nodes;
  const old = nodes[k]!;
  const delta = change.newLength - (change.end - change.start);
  // The token before: the previous statement's last (a `)` or `>`) or the body's `{`; the one
  // after: the next statement's first or the body's `}`.
  const from = k === 0 ? body.span.start : nodes[k - 1]!.span.end - 1;
  const next = k + 1 < nodes.length ? nodes[k + 1]!.span.start : body.span.end - 1;
  if (!(from < old.span.start && old.span.start < change.start && change.end <= old.span.end && old.span.end <= next)) return undefined;
  const parsed = parseStatementsBetween(after, from, next + delta);
  // Without a syntax error the full analysis would lower the text: not this path.
  if (!parsed?.ast || !hasErrors(parsed.diagnostics)) return undefined;
  const splice = { ast, body, k, old, fresh: parsed.ast, delta, index: builtIndexOf(ast), indexSpliced: false };
  // The comments between the token before and the statement are the last analysis's already.
  const comments = parsed.comments.filter((c) => c.span.start >= old.span.start);
  return steps(before, splice, change, after, comments, parsed.diagnostics, next);
}

// A generator with no pause, as analyzeSteps is on a text with syntax errors: the parse is the
// whole analysis.
function* steps(
  before: Analysis,
  s: BrokenSplice,
  change: TextChange,
  text: string,
  fresh: readonly A.Comment[],
  diagnostics: Diagnostic[],
  next: number,
): Generator<Analysis | undefined, Analysis, void> {
  consumed.add(before);
  const { ast, old, delta } = s;
  const nodes = s.body.nodes as A.OpNode[];
  nodes.splice(s.k, 1);
  shiftAround(ast, old.span.start, old.span.end, delta, old);
  nodes.splice(s.k, 0, ...s.fresh);
  const comments = spliceComments(before.comments, fresh, old.span.start, next, delta);
  let index = s.index;
  const indexSpliced = !!index && s.fresh.length === 1 && spliceNodeSymbols(index, ast, old, s.fresh[0]!);
  if (!indexSpliced) index = undefined;
  setBuiltIndex(ast, index);
  const lines = before.lines.edited(text, change);
  const parts: Parts = { text, lines, ast, comments, symbols: () => (index ??= builtIndexOf(ast) ?? buildSymbolIndex(ast)), syntaxCount: diagnostics.length };
  const analysis = syntaxSnapshot(parts, diagnostics);
  taken.set(before, { splice: { ...s, indexSpliced }, by: analysis });
  return analysis;
}

/**
 * Gives `before` its tree back from the analysis of a broken statement that took it over, when
 * `change` (from `before`'s text) is in that statement: then the edit can be spliced into
 * `before` (the analysis of the broken text is used up). False otherwise, changing nothing.
 */
export function restoreBroken(before: Analysis, change: TextChange): boolean {
  const t = taken.get(before);
  if (!t || consumed.has(t.by)) return false;
  const { ast, old, delta, k, fresh } = t.splice;
  if (!(old.span.start < change.start && change.end <= old.span.end)) return false;
  const nodes = t.splice.body.nodes as A.OpNode[];
  nodes.splice(k, fresh.length);
  // The exact inverse of the splice's move: the spans after the statement move back, the
  // enclosing ones shrink back.
  shiftAround(ast, old.span.start, old.span.end + delta, -delta, old);
  nodes.splice(k, 0, old);
  const index = t.splice.index;
  if (!t.splice.indexSpliced) setBuiltIndex(ast, index);
  else setBuiltIndex(ast, builtIndexOf(ast) === index && spliceNodeSymbols(index!, ast, fresh[0]!, old) ? index : undefined);
  consumed.add(t.by);
  consumed.delete(before);
  taken.delete(before);
  return true;
}
