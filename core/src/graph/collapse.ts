// Keeps big graphs usable: a layered layout of tens of thousands of boxes is neither fast nor
// readable. Long straight runs of ops (each the only consumer of the one before) fold into one
// box that counts what it holds; if a graph is still too big, the ops past a limit fold into a
// last box. Every fold is described in the notes, so a view can say what it hides.
import type { DisplayEdge, DisplayGraph, DisplayNode } from "./display-graph.js";

interface CollapseOptions {
  /** Graphs with at most this many boxes are left as they are. */
  readonly threshold?: number;
  /** Runs shorter than this stay unfolded. */
  readonly minRun?: number;
  /** After folding runs, at most this many boxes per graph. */
  readonly maxNodes?: number;
}

export interface Collapsed {
  readonly graph: DisplayGraph;
  /** One sentence per fold: `graph 'main': 49,996 ops from t0 to t49995 folded into one box`. */
  readonly notes: string[];
}

const DEFAULTS = { threshold: 600, minRun: 6, maxNodes: 1500 };

export function collapseLargeGraph(graph: DisplayGraph, options: CollapseOptions = {}): Collapsed {
  const opts = { ...DEFAULTS, ...options };
  const notes: string[] = [];
  return { graph: collapseGraph(graph, opts, notes), notes };
}

function collapseGraph(graph: DisplayGraph, opts: Required<CollapseOptions>, notes: string[]): DisplayGraph {
  const nested = graph.nodes.map((n) => (n.groups.length === 0 ? n : { ...n, groups: n.groups.map((g) => collapseGraph(g, opts, notes)) }));
  let current: DisplayGraph = { ...graph, nodes: nested };
  if (current.nodes.length <= opts.threshold) return current;
  current = foldRuns(current, opts.minRun, notes);
  if (current.nodes.length > opts.maxNodes) current = foldTail(current, opts.maxNodes, notes);
  return current;
}

/**
 * Boxes no fold takes: graph inputs and outputs, and in diff mode the boxes of removed nodes
 * (drawn for the change they show, which a fold would hide).
 */
function pinned(n: DisplayNode): boolean {
  return n.kind === "input" || n.kind === "output" || n.diff?.kind === "removed";
}

function opCounts(nodes: readonly DisplayNode[]): string[] {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.label, (counts.get(n.label) ?? 0) + (n.count ?? 1));
  return [...counts].sort((a, b) => b[1] - a[1]).map(([op, k]) => `${op} ×${k.toLocaleString("en-US")}`);
}

function foldedBox(id: string, members: readonly DisplayNode[], label: string): DisplayNode {
  const count = members.reduce((sum, n) => sum + (n.count ?? 1), 0);
  const errors = members.flatMap((n) => n.errors);
  const first = members[0]?.span;
  const last = members[members.length - 1]?.span;
  // diff mode: a fold holding changed boxes shows as changed, with their changes
  const marked = members.flatMap((n) => (n.diff ? [n.diff] : []));
  const diff = marked.length > 0 && {
    diff: { kind: marked.every((m) => m.kind === "added") ? ("added" as const) : ("changed" as const), messages: marked.flatMap((m) => m.messages) },
  };
  return {
    ...diff,
    id,
    kind: "collapsed",
    label,
    details: opCounts(members),
    errors,
    groups: [],
    count,
    ...(first && last && { span: { start: first.start, end: last.end } }),
  };
}

/** Rewires edges to folded boxes, dropping edges inside a box and repeats of the same value. */
function rewire(edges: readonly DisplayEdge[], boxOf: ReadonlyMap<string, string>): DisplayEdge[] {
  const seen = new Set<string>();
  const out: DisplayEdge[] = [];
  for (const e of edges) {
    const from = boxOf.get(e.from) ?? e.from;
    const to = boxOf.get(e.to) ?? e.to;
    if (from === to) continue;
    const key = `${from}\u0000${to}\u0000${e.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(from === e.from && to === e.to ? e : { ...e, from, to });
  }
  return out;
}

function foldRuns(graph: DisplayGraph, minRun: number, notes: string[]): DisplayGraph {
  const ops = new Map(graph.nodes.filter((n) => !pinned(n)).map((n) => [n.id, n]));
  const succ = new Map<string, Set<string>>();
  const opPred = new Map<string, Set<string>>();
  // the neighbours of a removed box end runs, so that its edges reach boxes of their own
  const nextToRemoved = new Set(graph.edges.filter((e) => e.diff === "removed").flatMap((e) => [e.from, e.to]));
  for (const e of graph.edges) {
    if (e.diff === "removed") continue;
    if (!succ.has(e.from)) succ.set(e.from, new Set());
    succ.get(e.from)!.add(e.to);
    if (ops.has(e.from)) {
      if (!opPred.has(e.to)) opPred.set(e.to, new Set());
      opPred.get(e.to)!.add(e.from);
    }
  }
  const single = (set: Set<string> | undefined): string | undefined => (set?.size === 1 ? [...set][0] : undefined);
  /** The op that continues a run from `id`: its only consumer, fed by no other op, and no group. */
  const next = (id: string): string | undefined => {
    const to = single(succ.get(id));
    if (nextToRemoved.has(id)) return undefined;
    return to !== undefined && ops.has(to) && !nextToRemoved.has(to) && single(opPred.get(to)) === id && ops.get(to)!.groups.length === 0 ? to : undefined;
  };
  const inRunAfter = new Set<string>();
  for (const id of ops.keys()) {
    const n = next(id);
    if (n !== undefined && ops.get(id)!.groups.length === 0) inRunAfter.add(n);
  }
  const boxOf = new Map<string, string>();
  const boxes = new Map<string, DisplayNode>();
  for (const start of ops.keys()) {
    if (inRunAfter.has(start) || ops.get(start)!.groups.length > 0) continue;
    const run: DisplayNode[] = [ops.get(start)!];
    for (let id = next(start); id !== undefined; id = next(id)) run.push(ops.get(id)!);
    // Keep the first and last op visible so the run's ends read naturally.
    const middle = run.slice(1, -1);
    if (middle.length < minRun) continue;
    const boxId = `${middle[0]!.id}/run`;
    for (const m of middle) boxOf.set(m.id, boxId);
    boxes.set(middle[0]!.id, foldedBox(boxId, middle, `${middle.length.toLocaleString("en-US")} ops`));
    notes.push(`graph '${graph.title}': ${middle.length.toLocaleString("en-US")} ops in a straight run after ${run[0]!.label} folded into one box`);
  }
  if (boxOf.size === 0) return graph;
  const nodes: DisplayNode[] = [];
  for (const n of graph.nodes) {
    const box = boxes.get(n.id);
    if (box) nodes.push(box);
    else if (!boxOf.has(n.id)) nodes.push(n);
  }
  return { ...graph, nodes, edges: rewire(graph.edges, boxOf) };
}

function foldTail(graph: DisplayGraph, maxNodes: number, notes: string[]): DisplayGraph {
  // Nodes are in statement order, which ONNX requires to be topological: keep the first ones.
  const keptOps = maxNodes - 1 - graph.nodes.filter(pinned).length;
  const boxOf = new Map<string, string>();
  const folded: DisplayNode[] = [];
  const nodes: DisplayNode[] = [];
  let ops = 0;
  const boxId = `${graph.id}/rest`;
  for (const n of graph.nodes) {
    if (pinned(n) || ops++ < keptOps) nodes.push(n);
    else {
      folded.push(n);
      boxOf.set(n.id, boxId);
    }
  }
  if (folded.length === 0) return graph;
  const box = foldedBox(boxId, folded, `${folded.length.toLocaleString("en-US")} more`);
  const firstOutput = nodes.findIndex((n) => n.kind === "output");
  nodes.splice(firstOutput < 0 ? nodes.length : firstOutput, 0, box);
  notes.push(`graph '${graph.title}': the last ${box.count!.toLocaleString("en-US")} ops folded into one box (the view shows ${maxNodes} boxes at most)`);
  return { ...graph, nodes, edges: rewire(graph.edges, boxOf) };
}
