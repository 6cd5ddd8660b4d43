// The nodes of two paired graphs reported from their matching: added and removed nodes, what
// differs in paired ones (op, name, inputs under the pairing of values, attributes, subgraphs),
// and nodes that moved (those outside the longest run kept in order).
import type { NodeProto } from "../../../proto/src/index.js";
import { compareAttributes } from "./attributes.js";
import { graphBody, viewId, type Body, type BodyPaths } from "./body.js";
import type { DiffContext } from "./context.js";
import { opKey, type NodeMatching } from "./match-nodes.js";
import type { ValueMap } from "./value-map.js";
import type { Change, Place, RemovedNode, TensorDifference } from "./types.js";

export type SubgraphDiff = (a: Body, b: Body, paths: BodyPaths) => void;

export function opText(n: NodeProto): string {
  return n.domain ? `${n.domain}.${n.opType}` : n.opType;
}

function describe(n: NodeProto): string {
  return n.name ? `${opText(n)} "${n.name}"` : opText(n);
}

/** The statement as the text syntax writes it, without attributes: `y = Relu (x)`. */
export function statementText(n: NodeProto): string {
  return `${n.output.join(", ")} = ${opText(n)} (${n.input.join(", ")})`;
}

export function nodePath(scope: string, i: number, n: NodeProto): string {
  return `${scope} / node ${i} (${describe(n)})`;
}

/** Which paired nodes keep their order: a longest increasing run of B's indices in A's order. */
function keptInOrder(aToB: Int32Array): Uint8Array {
  const idx: number[] = [];
  for (let i = 0; i < aToB.length; i++) if (aToB[i]! >= 0) idx.push(i);
  const tails: number[] = []; // positions in idx
  const prev = new Int32Array(idx.length).fill(-1);
  for (let k = 0; k < idx.length; k++) {
    const v = aToB[idx[k]!]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (aToB[idx[tails[mid]!]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const kept = new Uint8Array(aToB.length);
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) kept[idx[k]!] = 1;
  return kept;
}

export function compareNodes(
  cx: DiffContext,
  as: readonly NodeProto[],
  bs: readonly NodeProto[],
  m: NodeMatching,
  values: ValueMap,
  paths: BodyPaths,
  diffSub: SubgraphDiff,
): void {
  const kept = keptInOrder(m.aToB);
  const spliced = splices(as, bs, m, values);
  const pa = (i: number) => cx.a.place(nodePath(paths.a, i, as[i]!), as[i]!, undefined, viewId(paths.idA, `n${i}`));
  const pb = (j: number) => cx.b.place(nodePath(paths.b, j, bs[j]!), bs[j]!, undefined, viewId(paths.idB, `n${j}`));
  const wiring = paths.idB === undefined ? undefined : removedWiring(as, m, values, paths.idB);
  const removed = (i: number, before: number) => {
    const change: Change = {
      kind: "node-removed",
      message: `node removed: ${statementText(as[i]!)}${around(spliced.removed.get(i), "taken out before")}`,
      a: pa(i),
    };
    cx.changes.push(change);
    if (wiring) cx.removed.push(wiring(change, i, before));
  };
  // removed nodes come before the added ones at the same place, as in a line diff
  const nextPaired = new Int32Array(bs.length + 1).fill(as.length);
  for (let j = bs.length - 1; j >= 0; j--) nextPaired[j] = m.bToA[j]! >= 0 ? m.bToA[j]! : nextPaired[j + 1]!;
  let nextA = 0;
  for (let j = 0; j < bs.length; j++) {
    const i = m.bToA[j]!;
    if (i < 0) {
      for (; nextA < nextPaired[j]!; nextA++) if (m.aToB[nextA]! < 0) removed(nextA, j);
      cx.changes.push({ kind: "node-added", message: `node added: ${statementText(bs[j]!)}${around(spliced.added.get(j), "inserted before")}`, b: pb(j) });
      continue;
    }
    for (; nextA <= i; nextA++) if (m.aToB[nextA]! < 0) removed(nextA, j);
    if (!kept[i]) cx.changes.push({ kind: "node-moved", message: `node ${describe(as[i]!)} moved from position ${i} to ${j}`, a: pa(i), b: pb(j) });
    compareNode(
      cx,
      as[i]!,
      bs[j]!,
      values,
      spliced.skip,
      i,
      {
        a: nodePath(paths.a, i, as[i]!),
        b: nodePath(paths.b, j, bs[j]!),
        ...(paths.idA !== undefined && { idA: `${paths.idA}/n${i}` }),
        ...(paths.idB !== undefined && { idB: `${paths.idB}/n${j}` }),
      },
      () => [pa(i), pb(j)],
      diffSub,
    );
  }
  for (; nextA < as.length; nextA++) if (m.aToB[nextA]! < 0) removed(nextA, bs.length);
}

/**
 * How a removed node of A is wired into B's drawing: the B values its inputs pair with, and the
 * B nodes paired with those that read its outputs in A (readers are indexed on first use).
 */
function removedWiring(as: readonly NodeProto[], m: NodeMatching, values: ValueMap, graph: string): (change: Change, i: number, before: number) => RemovedNode {
  let readers: Map<string, number[]> | undefined;
  const readersOf = (value: string): readonly number[] => {
    if (!readers) {
      const found = new Map<string, number[]>();
      as.forEach((n, k) => {
        const j = m.aToB[k]!;
        if (j >= 0) for (const x of new Set(n.input)) if (x !== "") found.set(x, [...(found.get(x) ?? []), j]);
      });
      readers = found;
    }
    return value === "" ? [] : (readers.get(value) ?? []);
  };
  return (change, i, before) => {
    const node = as[i]!;
    const inputs = node.input.map((x) => (x === "" ? undefined : values.b(x)));
    return { change, node, index: i, graph, before, inputs, readers: node.output.map(readersOf) };
  };
}

function around(consumers: readonly NodeProto[] | undefined, how: string): string {
  return consumers ? ` (${how} ${consumers.map(describe).join(", ")})` : "";
}

interface Splices {
  /** Added nodes of B put between a paired value and its consumers -> those consumers (in B). */
  readonly added: Map<number, NodeProto[]>;
  /** Removed nodes of A whose consumers now read the removed node's input -> those consumers (in A). */
  readonly removed: Map<number, NodeProto[]>;
  /** The input changes these explain: `${A node}\u0000${k}` of paired nodes, not reported again. */
  readonly skip: Set<string>;
}

/**
 * A node inserted on an edge (or taken out of one) rewires its consumers' inputs: those
 * rewirings are the insertion itself, so the insertion is reported once, naming the consumers.
 */
function splices(as: readonly NodeProto[], bs: readonly NodeProto[], m: NodeMatching, values: ValueMap): Splices {
  const out: Splices = { added: new Map(), removed: new Map(), skip: new Set() };
  const producers = (nodes: readonly NodeProto[], alone: (i: number) => boolean) => {
    const p = new Map<string, number>();
    nodes.forEach((n, i) => {
      if (alone(i)) for (const o of n.output) if (o !== "" && !p.has(o)) p.set(o, i);
    });
    return p;
  };
  const addedBy = producers(bs, (j) => m.bToA[j]! < 0);
  const removedBy = producers(as, (i) => m.aToB[i]! < 0);
  if (addedBy.size === 0 && removedBy.size === 0) return out;
  const note = (map: Map<number, NodeProto[]>, k: number, n: NodeProto) => {
    const list = map.get(k);
    if (!list) map.set(k, [n]);
    else if (!list.includes(n)) list.push(n);
  };
  as.forEach((a, i) => {
    const j = m.aToB[i]!;
    if (j < 0) return;
    const b = bs[j]!;
    if (a.input.length !== b.input.length) return;
    a.input.forEach((x, k) => {
      const y = b.input[k]!;
      const p = addedBy.get(y);
      if (p !== undefined && values.b(x) !== undefined && bs[p]!.input.includes(values.b(x)!)) {
        out.skip.add(`${i}\u0000${k}`);
        note(out.added, p, b);
      }
      const r = removedBy.get(x);
      if (r !== undefined && values.a(y) !== undefined && as[r]!.input.includes(values.a(y)!)) {
        out.skip.add(`${i}\u0000${k}`);
        note(out.removed, r, a);
      }
    });
  });
  return out;
}

function inputDifferences(x: readonly string[], y: readonly string[], values: ValueMap, skip: (k: number) => boolean): string[] {
  if (x.length !== y.length) return [`inputs (${x.join(", ")}) -> (${y.join(", ")})`];
  const lines: string[] = [];
  x.forEach((name, k) => {
    if (skip(k)) return;
    const other = y[k]!;
    const want = name === "" ? "" : values.b(name);
    const same = want === undefined ? other === name && values.a(other) === undefined : want === other;
    if (!same) lines.push(`input ${k}: ${name || "(none)"} -> ${other || "(none)"}`);
  });
  return lines;
}

function compareNode(
  cx: DiffContext,
  a: NodeProto,
  b: NodeProto,
  values: ValueMap,
  skip: ReadonlySet<string>,
  index: number,
  paths: BodyPaths,
  places: () => [Place, Place],
  diffSub: SubgraphDiff,
): void {
  const details: string[] = [];
  if (opKey(a) !== opKey(b)) details.push(`op ${opText(a)} -> ${opText(b)}`);
  if (a.overload !== b.overload) details.push(`overload "${a.overload}" -> "${b.overload}"`);
  if (a.name !== b.name && !cx.ignoreNames) details.push(`name "${a.name}" -> "${b.name}"`);
  details.push(...inputDifferences(a.input, b.input, values, (k) => skip.has(`${index}\u0000${k}`)));
  if (a.output.length !== b.output.length) details.push(`outputs (${a.output.join(", ")}) -> (${b.output.join(", ")})`);
  else a.output.forEach((o, k) => (o === "") !== (b.output[k] === "") && details.push(`output ${k}: ${o || "(none)"} -> ${b.output[k] || "(none)"}`));
  const attrs = compareAttributes(a.attribute, b.attribute, cx.tensors);
  details.push(...attrs.lines);
  if (a.docString !== b.docString) details.push("doc_string changed");
  if (details.length > 0) {
    const [pa, pb] = places();
    const tensor: TensorDifference | undefined = attrs.tensors.length === 1 ? attrs.tensors[0] : undefined;
    const message = details.length === 1 ? `node ${describe(a)}: ${details[0]}` : `node ${describe(a)}: ${details.length} differences`;
    cx.changes.push({ kind: "node-changed", message, a: pa, b: pb, details, ...(tensor && { tensor }) });
  }
  for (const [name, ga, gb] of attrs.graphs) {
    ga.forEach((g, k) => {
      // titled as the graph view titles bodies: the attribute's name, indexed when it holds several
      const label = ga.length > 1 ? `${name}[${k}]` : name;
      const idA = viewId(paths.idA, label);
      const idB = viewId(paths.idB, label);
      diffSub(graphBody(g), graphBody(gb[k]!), { a: `${paths.a} / ${label}`, b: `${paths.b} / ${label}`, ...(idA && { idA }), ...(idB && { idB }) });
    });
  }
}
