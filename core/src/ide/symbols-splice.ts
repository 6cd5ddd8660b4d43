// Keeping the symbol index of a tree up to date when incremental.ts replaces one node statement
// of the main graph: the old statement's occurrences leave their symbols, the new statement's
// join them, and everything else stays (the spans it points at were moved in place). Rebuilding
// the index of a 50k-node text takes a quarter of a second; this takes microseconds.
import type { AstNode, Model, OpNode } from "../../../grammar/src/ast.js";
import { walkAst } from "../../../grammar/src/ast-walk.js";
import type { Span } from "../../../grammar/src/span.js";
import { indexNode, type Occurrence, type SymbolIndex } from "./symbols.js";

/**
 * Updates `index` (built for `model` before `old` was replaced by `fresh` in the main graph's
 * body) in place. False when the edit changed what the statement defines, or the graph has
 * subgraphs (whose captures may share symbols with the statement), or the new statement has one
 * (a broken statement may read a name as a graph; its scope goes in text order): then it must
 * be rebuilt.
 */
export function spliceNodeSymbols(index: SymbolIndex, model: Model, old: OpNode, fresh: OpNode): boolean {
  const scope = index.scopes[0];
  if (!scope || scope.owner !== model.graph || index.scopes.some((s) => s.parent === scope)) return false;
  if (outputNames(old) !== outputNames(fresh) || hasGraphValue(fresh)) return false;
  const spans = new Set<Span>();
  walkAst(old as AstNode, (n) => {
    if (n.kind === "Name") spans.add(n.span);
  });
  // The old statement's occurrences are in text order where it started (its spans were not moved).
  const at = index.firstAtOrAfter(old.span.start);
  let count = 0;
  for (let o = index.occurrence(at); o && spans.has(o.span); o = index.occurrence(at + ++count)) remove(o);
  fresh.outputs.items.forEach((name, i) => {
    if (name.kind !== "Name" || name.value === "") return;
    const symbol = scope.values.get(name.value)!;
    if (symbol.producer?.kind === "node" && symbol.producer.node === old) symbol.producer = { kind: "node", node: fresh, index: i };
    index.add(symbol, name, "def");
  });
  indexNode(index, scope, fresh);
  index.finish(at, count);
  return true;
}

/** The names a statement defines, as one comparable string. */
function outputNames(node: OpNode): string {
  return JSON.stringify(node.outputs.items.map((o) => (o.kind === "Name" ? o.value : "")));
}

/** Takes an occurrence out of its symbol; an undefined name no longer written anywhere leaves its scope. */
function remove(o: Occurrence): void {
  const list = o.symbol.occurrences;
  list.splice(list.indexOf(o), 1);
  const scope = o.symbol.scope;
  if (list.length === 0 && !o.symbol.producer && scope?.values.get(o.symbol.name) === o.symbol) scope.values.delete(o.symbol.name);
}

/** Whether a statement has a graph among its attribute values. */
function hasGraphValue(node: OpNode): boolean {
  let found = false;
  walkAst(node as AstNode, (n) => {
    if (n.kind === "Graph") found = true;
  });
  return found;
}
