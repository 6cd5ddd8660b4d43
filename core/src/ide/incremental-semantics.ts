// Checker and inference results after one node of the main graph was replaced, computed from
// the last analysis's results instead of from scratch:
// - names: every name-and-scope diagnostic depends only on the definitions and uses of its own
//   name, so only the names the old or new node mentions are checked again, on a graph reduced
//   to what mentions them; their old diagnostics are taken out, the new ones put in;
// - per-node schema checks: only the new node's;
// - inference: the new node and then, in order, every node that reads a value whose type or
//   constant changed (the final scope of the last inference stands for everything else, which
//   is exact because no name is defined twice or used before its definition).
import { create } from "@bufbuild/protobuf";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { Span } from "../../../grammar/src/span.js";
import { GraphProtoSchema, NodeProtoSchema, type GraphProto, type ModelProto, type NodeProto, type ValueInfoProto } from "../../../proto/src/index.js";
import { Emitter } from "../check/emit.js";
import { checkNode } from "../check/nodes.js";
import { StructureChecker } from "../check/structure.js";
import { inferNode, type Env } from "../infer/engine.js";
import { inferResult, modelFunctions, modelOpsets, type InferResult } from "../infer/index.js";
import { NodeWhere, Reporter, type Where } from "../infer/location.js";
import { SourceMap, type ElementSpans } from "../source-map.js";
import { movedDiagnostic } from "./shift-diagnostics.js";

/** Diagnostics that mean names are defined twice or out of order: the shortcut does not hold. */
const ORDER_CODES = new Set(["redefinition", "use-before-definition"]);

export function breaksOrder(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => ORDER_CODES.has(d.code));
}

/**
 * Whether editing node `before` into `after` may change a check over the whole graph
 * (check/identity-chain.ts, check/float64-constant.ts, check/unused-value-info.ts), which the
 * names check does not redo: those depend only on Identity, Cast and Constant nodes, on the uses
 * of float64 constants and on the names value_info entries describe.
 */
export function touchesGraphLints(g: GraphProto, before: NodeProto, after: NodeProto): boolean {
  const ops = new Set(["Identity", "Cast", "Constant"]);
  if (ops.has(before.opType) || ops.has(after.opType)) return true;
  const mentioned = new Set([...before.input, ...before.output, ...after.input, ...after.output]);
  if (g.valueInfo.some((vi) => mentioned.has(vi.name))) return true;
  const inputs = new Set([...before.input, ...after.input]);
  if (g.initializer.some((t) => t.dataType === 11 && inputs.has(t.name))) return true;
  return g.node.some((n) => n.opType === "Constant" && n.output.some((o) => inputs.has(o)) && n.attribute.some((a) => a.t?.dataType === 11));
}

export function hasSubgraphs(g: GraphProto): boolean {
  return g.node.some((n) => n.attribute.some((a) => a.g !== undefined || a.graphs.length > 0));
}

/**
 * The names whose diagnostics an edit of one node can change. `stable` names are read by the
 * node before and after and written by neither: their other uses keep their diagnostics, so
 * only their definitions and this node's use of them need checking again (that keeps a weight
 * that every node reads from dragging every node into the check).
 */
export interface EditedNames {
  readonly all: ReadonlySet<string>;
  readonly stable: ReadonlySet<string>;
}

export function editedNames(before: NodeProto, after: NodeProto): EditedNames {
  const all = new Set<string>();
  for (const n of [before, after]) for (const name of [...n.input, ...n.output]) if (name !== "") all.add(name);
  const written = new Set([...before.output, ...after.output]);
  const stable = new Set(before.input.filter((n) => n !== "" && after.input.includes(n) && !written.has(n)));
  return { all, stable };
}

/** Looks in its own entries first, then in the model's source map. */
class LayeredSourceMap extends SourceMap {
  constructor(private readonly base: SourceMap) {
    super();
  }

  override get(message: object): ElementSpans | undefined {
    return super.get(message) ?? this.base.get(message);
  }
}

/**
 * The name-and-scope diagnostics about `names` in graph `g`, whose node `edited` changed (plus
 * that node's schema checks when `checkEdited`): the structure check run on a copy of the
 * graph that keeps only those names (other names become empty, which the check skips).
 */
export function namesDiagnostics(
  model: ModelProto,
  g: GraphProto,
  names: EditedNames,
  edited: NodeProto,
  sourceMap: SourceMap,
  checkEdited = false,
  mentioning?: readonly number[],
): Diagnostic[] {
  const { all, stable } = names;
  const changing = (n: string): boolean => all.has(n) && !stable.has(n);
  const layered = new LayeredSourceMap(sourceMap);
  const copies = new Map<NodeProto, NodeProto>();
  const node: NodeProto[] = [];
  // `mentioning`: the indices (ascending) of the nodes that may mention the names, from the
  // symbol index, rather than a scan of every node.
  const candidates = mentioning ? mentioning.map((j) => g.node[j]!) : g.node;
  for (const n of candidates) {
    const isEdited = n === edited;
    if (!isEdited && !n.input.some(changing) && !n.output.some((x) => all.has(x))) continue;
    const input = n.input.map((x) => (changing(x) || (isEdited && all.has(x)) ? x : ""));
    const output = n.output.map((x) => (all.has(x) ? x : ""));
    const copy = create(NodeProtoSchema, { input, output, opType: n.opType, domain: n.domain, name: n.name });
    const spans = sourceMap.get(n);
    if (spans) layered.set(copy, spans);
    copies.set(copy, n);
    node.push(copy);
  }
  const reduced = create(GraphProtoSchema, {
    name: g.name,
    input: g.input.filter((vi) => all.has(vi.name)),
    output: g.output.filter((vi) => all.has(vi.name)),
    initializer: g.initializer.filter((t) => all.has(t.name)),
    sparseInitializer: g.sparseInitializer.filter((s) => all.has(s.values?.name ?? "")),
    node,
  });
  const diagnostics: Diagnostic[] = [];
  const out = new Emitter(layered, diagnostics);
  const env = { opsets: modelOpsets(model), functions: modelFunctions(model) };
  const hook = (copy: NodeProto, where: Where): void => {
    if (checkEdited && copies.get(copy) === edited) checkNode(edited, where, env, new Emitter(sourceMap, diagnostics));
  };
  new StructureChecker(out, hook, model.irVersion >= 4n).checkGraph(reduced, `graph '${g.name}'`);
  return diagnostics;
}

/** Structural equality, fast for the small plain objects and arrays that types are made of. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return sameBytes(a, b);
  // Anything else that is not a plain object counts as different: a needless recheck, never a missed one.
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function sameBytes(a: object, b: object): boolean {
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return x.every((v, i) => v === y[i]);
}

function key(d: Diagnostic): string {
  return `${d.severity}|${d.code}|${d.span?.start}|${d.span?.end}|${d.message}`;
}

/** `from` without one occurrence of each of `remove`; undefined if one is missing. */
export function withoutEach(from: readonly Diagnostic[], remove: readonly Diagnostic[]): Diagnostic[] | undefined {
  const counts = new Map<string, number>();
  for (const d of remove) counts.set(key(d), (counts.get(key(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of from) {
    const k = key(d);
    const c = counts.get(k) ?? 0;
    if (c > 0) counts.set(k, c - 1);
    else out.push(d);
  }
  return [...counts.values()].every((c) => c === 0) ? out : undefined;
}

/**
 * Diagnostics of the text before an edit, in the text after it: those inside the replaced
 * statement [start, end) are dropped (and those whose related place is inside it: they are
 * about the statement too), later ones move by `delta`, enclosing ones grow.
 */
export function carryAcross(diags: readonly Diagnostic[], start: number, end: number, delta: number): Diagnostic[] {
  const move = (s: Span): Span | undefined =>
    s.start >= start && s.end <= end
      ? undefined
      : s.start >= end
        ? { start: s.start + delta, end: s.end + delta }
        : s.start <= start && s.end >= end
          ? { start: s.start, end: s.end + delta }
          : { start: s.start, end: s.end };
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const moved = d.span && movedDiagnostic(d, d.span, move);
    if (!d.span) out.push(d);
    else if (moved) out.push(moved);
  }
  return out;
}

/** How long inference runs before it yields, so that a hover is not held up by a long chain. */
const SLICE_MS = 2;

/**
 * Inference after node `k` of the main graph changed from `oldNode`: re-infers that node and
 * the nodes downstream whose inputs changed, yielding every few milliseconds (a change at the
 * top of a 50k-node chain reaches every node below it). `carried` are the last inference's
 * diagnostics outside the replaced node, in the new text's offsets; `nodeAt` finds a node by offset.
 */
export function* reinfer(
  model: ModelProto,
  k: number,
  oldNode: NodeProto,
  prev: InferResult,
  sourceMap: SourceMap,
  carried: readonly Diagnostic[],
  nodeAt: (offset: number) => number | undefined,
): Generator<undefined, InferResult | undefined, void> {
  const g = model.graph!;
  const last = prev.scope;
  if (!last) return undefined;
  // The last analysis is consumed: its scope and maps are updated in place.
  const scope = last;
  const diagnostics: Diagnostic[] = [];
  const env: Env = {
    opsets: modelOpsets(model),
    functions: modelFunctions(model),
    reporter: new Reporter(sourceMap, diagnostics),
    graphTypes: new Map(prev.graphTypes) as Env["graphTypes"],
    depth: 0,
  };
  const declared = new Map<string, ValueInfoProto>();
  for (const vi of [...g.output, ...g.valueInfo]) if (vi.type && !declared.has(vi.name)) declared.set(vi.name, vi);
  const path = `graph '${g.name}'`;
  const clear = (node: NodeProto): void => {
    for (const n of node.output) {
      scope.types.delete(n);
      scope.consts.delete(n);
      scope.operatorOverrides.delete(n);
    }
  };
  const changed = new Set<string>([...oldNode.output, ...g.node[k]!.output].filter((n) => n !== ""));
  clear(oldNode);
  const redone = new Set<number>([k]);
  inferNode(g.node[k]!, scope, env, new NodeWhere(path, g.node[k]!, k), declared);
  let sliceStart = performance.now();
  for (let j = k + 1; j < g.node.length; j++) {
    const node = g.node[j]!;
    if (!node.input.some((n) => changed.has(n))) continue;
    if (redone.size % 64 === 0 && performance.now() - sliceStart > SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    const types = node.output.map((n) => scope.types.get(n));
    const consts = node.output.map((n) => scope.consts.get(n));
    clear(node);
    inferNode(node, scope, env, new NodeWhere(path, node, j), declared);
    redone.add(j);
    node.output.forEach((n, o) => {
      if (n !== "" && !(same(types[o], scope.types.get(n)) && same(consts[o], scope.consts.get(n)))) changed.add(n);
    });
  }
  env.graphTypes.set(g, scope.types);
  // A diagnostic belongs to the node it is at, or else to the node its related place is in
  // (a declaration contradicted by the node that produces the value).
  const kept = carried.filter((d) => {
    const j = nodeAt(d.span!.start) ?? (d.related?.[0] && nodeAt(d.related[0].span.start));
    return j === undefined || !redone.has(j);
  });
  return inferResult(g, scope, env.graphTypes, [...kept, ...diagnostics]);
}
