// Re-analysis after the common edit: one change inside a node statement of the main graph
// (after its first character). Instead of parsing and lowering the whole text again, the edited statement alone is
// parsed and lowered, spliced into the last analysis's syntax tree and model, and the spans
// after it are moved by the edit's length difference. Inference and checks then run on the
// spliced model as in a full analysis (semanticSteps), so the diagnostics are the same.
// An edit that breaks the statement's syntax is re-read as incremental-broken.ts explains.
// Anything else (lowering problems, an edit across statements, subgraphs) returns undefined
// and the caller analyses the whole text.
import type * as A from "../../../grammar/src/ast.js";
import { statementIndexAt } from "../../../grammar/src/ast-walk.js";
import { parseNode } from "../../../grammar/src/index.js";
import { lowerNode } from "../lower/index.js";
import type { SourceMap } from "../source-map.js";
import type { Analysis } from "./analysis.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { NodeProto } from "../../../proto/src/index.js";
import { earlySnapshot, semanticSnapshot, semanticState, semanticSteps, type Parts, type SemanticState } from "./analyze.js";
import { residualsBeyondDefaults } from "../ext/ext-comment.js";
import { applyNodeDefaults } from "../ext/apply-extensions.js";
import {
  breaksOrder,
  carryAcross,
  touchesGraphLints,
  editedNames,
  hasSubgraphs,
  namesDiagnostics,
  reinfer,
  withoutEach,
  type EditedNames,
} from "./incremental-semantics.js";
import type { TextChange } from "./shift-diagnostics.js";
import { buildSymbolIndex, builtIndexOf, setBuiltIndex, type SymbolIndex, type SymbolInfo } from "./symbols.js";
import { spliceNodeSymbols } from "./symbols-splice.js";
import { consumed, isSpan, shiftAround, spliceComments, type MutableSpan } from "./incremental-tree.js";
import { brokenSteps, restoreBroken } from "./incremental-broken.js";

export { isConsumed } from "./incremental-tree.js";

/**
 * Steps like analyzeSteps for the text `after` = `before.text` with `change` applied, reusing
 * `before` (whose tree and model it takes over), or undefined when the edit is not of that kind.
 */
export function reanalyzeSteps(before: Analysis, change: TextChange, after: string): Generator<Analysis | undefined, Analysis, void> | undefined {
  // Given back by an analysis that broke one of its statements, if this edit is in that one.
  if (consumed.has(before) && !restoreBroken(before, change)) return undefined;
  const { ast, model, sourceMap } = before;
  const body = ast?.graph?.body;
  const graph = model?.graph;
  if (!before.complete || !body || !graph || !sourceMap) return undefined;
  const state = semanticState(before);
  if (before.syntaxCount !== 0 || !state || state.lowering !== 0) return undefined;
  if (residualsBeyondDefaults(before.comments)) return undefined; // residuals apply to the whole text
  if (graph.node.length !== body.nodes.length) return undefined;
  const k = statementIndexAt(body.nodes, change.start, true);
  const old = k === undefined ? undefined : body.nodes[k];
  // The statement keeps its first character, so the statement before (which looks at the kind
  // of the next token) and the tokens before lex and parse as before.
  if (k === undefined || !old || !(old.span.start < change.start && change.end <= old.span.end)) return undefined;
  if (hasSubgraph(graph.node[k]!)) return undefined;
  const delta = change.newLength - (change.end - change.start);
  const start = old.span.start;
  const slice = after.slice(start, old.span.end + delta);
  const parsed = parseNode(slice);
  // A node that parses alone and ends with the slice (with its `)` or `>`: no comment or string
  // running on into the text after) parses so in the whole text too, and the next statement
  // after it as before. Otherwise the edit may have broken it: incremental-broken.ts.
  if (!parsed.ast || parsed.diagnostics.length > 0 || parsed.ast.span.end !== slice.length || residualsBeyondDefaults(parsed.comments))
    return brokenSteps(before, k, change, after);
  const fresh = parsed.ast;
  shiftAll(fresh, start);
  for (const c of parsed.comments) shiftSpan(c.span as MutableSpan, 0, start);
  const lowered = lowerNode(fresh, after);
  if (lowered.diagnostics.length > 0 || hasSubgraph(lowered.result)) return undefined;
  // The `#@model` defaults (a printed model's domains left unset, raw tensor storage), as the
  // full analysis's lowering applies them.
  if (!applyNodeDefaults(before.comments, fresh, lowered.result)) return undefined;
  const splice: Splice = { ast: ast!, body, k, old, fresh, comments: parsed.comments, delta, lowered: lowered.result, freshMap: lowered.sourceMap, sourceMap };
  return steps(before, splice, after, carriedSemantics(before, state, splice));
}

/** The last results reusable for the new text, or undefined when checks must run in full. */
interface Carried {
  readonly oldNode: NodeProto;
  readonly names: EditedNames;
  /** Checker diagnostics minus those about the edited names or inside the statement, moved. */
  readonly check: Diagnostic[];
  /** Inference diagnostics outside the statement, moved. */
  readonly infer: Diagnostic[];
}

function carriedSemantics(before: Analysis, state: SemanticState, s: Splice): Carried | undefined {
  const model = before.model!;
  const graph = model.graph!;
  if (before.diagnostics.some((d) => !d.span) || breaksOrder(state.check) || hasSubgraphs(graph)) return undefined;
  const oldNode = graph.node[s.k]!;
  if (touchesGraphLints(graph, oldNode, s.lowered)) return undefined;
  const names = editedNames(oldNode, s.lowered);
  // Computed before the splice, in the old text's offsets, like the diagnostics they cancel.
  const mentioning = statementsMentioning(builtIndexOf(s.ast), s.ast, names, s.k);
  const check = withoutEach(state.check, namesDiagnostics(model, graph, names, oldNode, s.sourceMap, false, mentioning));
  if (!check) return undefined;
  const { start, end } = s.old.span;
  return { oldNode, names, check: carryAcross(check, start, end, s.delta), infer: carryAcross(state.inference.diagnostics, start, end, s.delta) };
}

interface Splice {
  readonly ast: A.Model;
  readonly body: A.NodeBlock;
  readonly k: number;
  readonly old: A.OpNode;
  readonly fresh: A.OpNode;
  readonly comments: readonly A.Comment[];
  readonly delta: number;
  readonly lowered: import("../../../proto/src/index.js").NodeProto;
  readonly freshMap: SourceMap;
  readonly sourceMap: SourceMap;
}

function* steps(before: Analysis, s: Splice, text: string, carried: Carried | undefined): Generator<Analysis | undefined, Analysis, void> {
  consumed.add(before);
  const { start, end } = s.old.span;
  (s.body.nodes as A.OpNode[])[s.k] = s.fresh;
  shiftAround(s.ast, start, end, s.delta, s.fresh);
  const comments = spliceComments(before.comments, s.comments, start, end, s.delta);
  const model = before.model!;
  model.graph!.node[s.k] = s.lowered;
  copySpans(s.lowered, s.freshMap, s.sourceMap);
  let index = builtIndexOf(s.ast);
  if (index && !spliceNodeSymbols(index, s.ast, s.old, s.fresh)) index = undefined;
  setBuiltIndex(s.ast, index);
  const lines = before.lines.edited(text, { start, end, newLength: end - start + s.delta });
  const parts: Parts = { text, lines, ast: s.ast, comments, symbols: () => (index ??= builtIndexOf(s.ast) ?? buildSymbolIndex(s.ast)), syntaxCount: 0 };
  // As in a full analysis: the parse first, then the semantic stages.
  const lastTypes = (value: SymbolInfo): string | undefined => before.typeOf(value);
  yield earlySnapshot(parts, lastTypes);
  yield;
  if (carried) {
    const mentioning = statementsMentioning(index, s.ast, carried.names, s.k);
    const names = namesDiagnostics(model, model.graph!, carried.names, s.lowered, s.sourceMap, true, mentioning);
    const state = semanticState(before)!;
    const ordered = !breaksOrder(names);
    if (ordered) yield earlySnapshot(parts, lastTypes, [...carried.check, ...names, ...carried.infer]);
    const inference = ordered
      ? yield* reinfer(model, s.k, carried.oldNode, state.inference, s.sourceMap, carried.infer, (at) => statementIndexAt(s.body.nodes, at))
      : undefined;
    if (inference) return semanticSnapshot(parts, [], { lowering: 0, check: [...carried.check, ...names], inference }, model, s.sourceMap);
  }
  return yield* semanticSteps(parts, [], 0, model, s.sourceMap);
}

/**
 * The main graph's statements that mention any of `names`, ascending and with the edited one
 * (`k`), found through the symbol index; undefined without an index or when a name is not in it.
 * A stable name counts only where it is defined: its other uses keep their diagnostics (see
 * EditedNames), and a weight that every node reads would otherwise bring in every statement.
 */
function statementsMentioning(index: SymbolIndex | undefined, ast: A.Model, names: EditedNames, k: number): number[] | undefined {
  const graph = ast.graph;
  const body = graph?.body;
  const scope = index?.scopes.find((sc) => sc.owner === graph);
  if (!body || !scope) return undefined;
  const found = new Set<number>([k]);
  for (const name of names.all) {
    const symbol = scope.values.get(name);
    if (!symbol) return undefined;
    const definitionsOnly = names.stable.has(name);
    for (const o of symbol.occurrences) {
      if (definitionsOnly && o.role !== "def") continue;
      const j = statementIndexAt(body.nodes, o.span.start);
      if (j !== undefined) found.add(j);
    }
  }
  return [...found].sort((a, b) => a - b);
}

function hasSubgraph(node: import("../../../proto/src/index.js").NodeProto): boolean {
  return node.attribute.some((a) => a.g !== undefined || a.graphs.length > 0);
}

function shiftSpan(sp: MutableSpan, from: number, delta: number): void {
  if (sp.start >= from) {
    sp.start += delta;
    sp.end += delta;
  }
}

/** Moves every span in a subtree by `delta` (each span object once, even if shared). */
function shiftAll(root: object, delta: number): void {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    if (isSpan(v)) {
      v.start += delta;
      v.end += delta;
      return;
    }
    for (const x of Object.values(v)) visit(x);
  };
  visit(root);
}

/** Copies the source-map entries of a lowered message and everything inside it. */
function copySpans(message: object, from: SourceMap, to: SourceMap): void {
  const visit = (v: unknown): void => {
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v)) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const spans = from.get(v);
    if (spans) to.set(v, spans);
    for (const x of Object.values(v)) visit(x);
  };
  visit(message);
}
