// Pairs the nodes of two graphs by structure, not by name. Walking from the values already
// paired (graph inputs, then each paired node's outputs), a node of A whose inputs are all
// known is paired with the node of B that has the same op and the paired inputs (an input
// from an unpaired initializer pairs with one in B, binding the two). What the walk cannot
// pair is settled at its frontier: nodes of the same op by position, a node whose op changed
// (same inputs, an op that is surplus on each side), additions and removals by the ops' counts.
// Cycles and nodes the walk never reaches are paired by op and position at the end. Every step
// is iterative and near linear: a chain of a million nodes is walked once.
import type { NodeProto } from "../../../proto/src/index.js";
import { attributeFingerprint } from "./fingerprint.js";
import type { ValueMap } from "./value-map.js";

export const UNDECIDED = 0;
export const PAIRED = 1;
/** Removed (a node of A) or added (a node of B). */
export const ALONE = 2;

export interface NodeMatching {
  /** Index of the paired node of B for each node of A, -1 when removed. */
  readonly aToB: Int32Array;
  /** Index of the paired node of A for each node of B, -1 when added. */
  readonly bToA: Int32Array;
}

export function opKey(n: NodeProto): string {
  return `${n.domain}\u0000${n.opType}`;
}

/** One graph's nodes with who produces and who consumes each value. */
class Side {
  readonly producer = new Map<string, number>();
  readonly consumers = new Map<string, number[]>();
  readonly byOp = new Map<string, number[]>();
  readonly state: Uint8Array;
  /** Inputs whose producer (in this graph) is still undecided. */
  readonly pending: Int32Array;
  readonly undecidedOps = new Map<string, number>();

  constructor(readonly nodes: readonly NodeProto[]) {
    this.state = new Uint8Array(nodes.length);
    this.pending = new Int32Array(nodes.length);
    nodes.forEach((n, i) => {
      for (const o of n.output) if (o !== "" && !this.producer.has(o)) this.producer.set(o, i);
    });
    nodes.forEach((n, i) => {
      const key = opKey(n);
      push(this.byOp, key, i);
      this.undecidedOps.set(key, (this.undecidedOps.get(key) ?? 0) + 1);
      for (const x of n.input) {
        if (x === "") continue;
        push(this.consumers, x, i);
        if (this.producer.has(x)) this.pending[i]!++;
      }
    });
  }

  /** An input is known once it is paired, or its producer (if any here) is decided. */
  known(x: string): boolean {
    const p = this.producer.get(x);
    return p === undefined || this.state[p] !== UNDECIDED;
  }

  /** Marks node i decided; returns the consumers that became ready. */
  decide(i: number, how: number, ready: (j: number) => void): void {
    this.state[i] = how;
    const key = opKey(this.nodes[i]!);
    this.undecidedOps.set(key, this.undecidedOps.get(key)! - 1);
    const seen = new Set<string>();
    for (const o of this.nodes[i]!.output) {
      if (o === "" || seen.has(o) || this.producer.get(o) !== i) continue;
      seen.add(o);
      for (const c of this.consumers.get(o) ?? []) if (--this.pending[c]! === 0 && this.state[c] === UNDECIDED) ready(c);
    }
  }

  count(key: string): number {
    return this.undecidedOps.get(key) ?? 0;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

export function matchNodes(
  aNodes: readonly NodeProto[],
  bNodes: readonly NodeProto[],
  values: ValueMap,
  bindable: (a: string, b: string) => boolean,
): NodeMatching {
  return new Matcher(aNodes, bNodes, values, bindable).run();
}

class Matcher {
  private readonly a: Side;
  private readonly b: Side;
  private readonly aToB: Int32Array;
  private readonly bToA: Int32Array;
  private readonly queue: number[] = [];
  private head = 0;
  private failed: number[] = [];
  private readonly bReady = new Set<number>();
  private readonly opCursor = new Map<string, number>();

  constructor(
    aNodes: readonly NodeProto[],
    bNodes: readonly NodeProto[],
    private readonly values: ValueMap,
    /** Whether two unpaired values may be bound when the nodes consuming them pair (initializers). */
    private readonly bindable: (a: string, b: string) => boolean,
  ) {
    this.a = new Side(aNodes);
    this.b = new Side(bNodes);
    this.aToB = new Int32Array(aNodes.length).fill(-1);
    this.bToA = new Int32Array(bNodes.length).fill(-1);
  }

  run(): NodeMatching {
    for (let i = 0; i < this.a.nodes.length; i++) if (this.a.pending[i] === 0) this.queue.push(i);
    for (let j = 0; j < this.b.nodes.length; j++) if (this.b.pending[j] === 0) this.bReady.add(j);
    for (;;) {
      while (this.head < this.queue.length) {
        const i = this.queue[this.head++]!;
        if (this.a.state[i] !== UNDECIDED) continue;
        const j = this.structural(i);
        if (j >= 0) this.pair(i, j);
        else this.failed.push(i);
      }
      if (this.queue.length > 1 << 16) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      if (!this.frontier()) break;
    }
    this.leftovers();
    return { aToB: this.aToB, bToA: this.bToA };
  }

  /** A's input as B should have it: the paired name, "" for none, undefined when unpaired. */
  private expected(x: string): string | undefined {
    return x === "" ? "" : this.values.b(x);
  }

  /** Whether B's node j has node i's inputs: paired ones equal, unpaired ones unpaired too. */
  private compatible(i: number, j: number): boolean {
    const xs = this.a.nodes[i]!.input;
    const ys = this.b.nodes[j]!.input;
    if (xs.length !== ys.length) return false;
    for (let k = 0; k < xs.length; k++) {
      const want = this.expected(xs[k]!);
      const y = ys[k]!;
      if (want !== undefined) {
        if (want !== y) return false;
      } else if (y === "" || this.values.a(y) !== undefined || !this.b.known(y)) return false;
    }
    return true;
  }

  /** The node of B with node i's op and inputs; among several, one with the same attributes first. */
  private structural(i: number): number {
    const node = this.a.nodes[i]!;
    const key = opKey(node);
    let anchor: string | undefined;
    for (const x of node.input) {
      const y = this.expected(x);
      if (y) {
        anchor = y;
        break;
      }
    }
    let best = -1;
    const consider = (j: number): boolean => {
      if (this.b.state[j] !== UNDECIDED || this.b.pending[j] !== 0 || opKey(this.b.nodes[j]!) !== key || !this.compatible(i, j)) return false;
      if (best < 0) best = j;
      if (attributeFingerprint(node) === attributeFingerprint(this.b.nodes[j]!)) {
        best = j;
        return true;
      }
      return false;
    };
    if (anchor !== undefined) {
      for (const j of this.b.consumers.get(anchor) ?? []) if (consider(j)) break;
      return best;
    }
    // no paired input: nodes of the same op in order (a cursor skips those already decided)
    const list = this.b.byOp.get(key) ?? [];
    let at = this.opCursor.get(key) ?? 0;
    while (at < list.length && this.b.state[list[at]!] !== UNDECIDED) at++;
    this.opCursor.set(key, at);
    for (let k = at; k < list.length; k++) if (consider(list[k]!)) break;
    return best;
  }

  private pair(i: number, j: number): void {
    this.aToB[i] = j;
    this.bToA[j] = i;
    const na = this.a.nodes[i]!;
    const nb = this.b.nodes[j]!;
    const n = Math.min(na.input.length, nb.input.length);
    for (let k = 0; k < n; k++) {
      const x = na.input[k]!;
      const y = nb.input[k]!;
      if (this.values.b(x) === undefined && this.values.a(y) === undefined && this.bindable(x, y)) this.values.bind(x, y);
    }
    const m = Math.min(na.output.length, nb.output.length);
    for (let k = 0; k < m; k++) {
      const x = na.output[k]!;
      const y = nb.output[k]!;
      if (this.a.producer.get(x) === i && this.b.producer.get(y) === j) this.values.bind(x, y);
    }
    this.decideB(j, PAIRED);
    this.a.decide(i, PAIRED, (c) => this.queue.push(c));
  }

  private decideB(j: number, how: number): void {
    this.bReady.delete(j);
    this.b.decide(j, how, (c) => this.bReady.add(c));
  }

  private remove(i: number): void {
    this.a.decide(i, ALONE, (c) => this.queue.push(c));
  }

  /** Settles the frontier; false when there is nothing left to settle. */
  private frontier(): boolean {
    const aFront = this.failed.filter((i) => this.a.state[i] === UNDECIDED).sort((x, y) => x - y);
    this.failed = aFront;
    const bFront = [...this.bReady].filter((j) => this.b.state[j] === UNDECIDED).sort((x, y) => x - y);
    if (aFront.length === 0 && bFront.length === 0) return false;
    let progress = false;
    // the same op on both sides, in order of position
    const bByOp = new Map<string, number[]>();
    for (const j of bFront) push(bByOp, opKey(this.b.nodes[j]!), j);
    for (const i of aFront) {
      const q = bByOp.get(opKey(this.a.nodes[i]!));
      const j = q?.shift();
      if (j === undefined) continue;
      this.pair(i, j);
      progress = true;
    }
    const surplusA = (i: number) => this.a.count(opKey(this.a.nodes[i]!)) > this.b.count(opKey(this.a.nodes[i]!));
    const surplusB = (j: number) => this.b.count(opKey(this.b.nodes[j]!)) > this.a.count(opKey(this.b.nodes[j]!));
    // an op replaced by another on the same inputs
    for (const i of aFront) {
      if (this.a.state[i] !== UNDECIDED || !surplusA(i)) continue;
      const j = bFront.find((j) => this.b.state[j] === UNDECIDED && surplusB(j) && this.compatible(i, j));
      if (j === undefined) continue;
      this.pair(i, j);
      progress = true;
    }
    // more of an op on one side than the other: removed or added
    for (const i of aFront)
      if (this.a.state[i] === UNDECIDED && surplusA(i)) {
        this.remove(i);
        progress = true;
      }
    for (const j of bFront)
      if (this.b.state[j] === UNDECIDED && surplusB(j)) {
        this.decideB(j, ALONE);
        progress = true;
      }
    if (progress) return true;
    const i = aFront.find((i) => this.a.state[i] === UNDECIDED);
    if (i !== undefined) this.remove(i);
    else this.decideB(bFront[0]!, ALONE);
    return true;
  }

  /** Nodes the walk never reached (cycles, inputs from nowhere): paired by op in order of position. */
  private leftovers(): void {
    const rest = new Map<string, number[]>();
    const taken = new Map<string, number>();
    this.b.nodes.forEach((n, j) => {
      if (this.b.state[j] === UNDECIDED) push(rest, opKey(n), j);
    });
    this.a.nodes.forEach((n, i) => {
      if (this.a.state[i] !== UNDECIDED) return;
      const key = opKey(n);
      const at = taken.get(key) ?? 0;
      const j = rest.get(key)?.[at];
      taken.set(key, at + 1);
      if (j !== undefined) this.pair(i, j);
      else this.a.state[i] = ALONE;
    });
    this.b.nodes.forEach((_, j) => {
      if (this.b.state[j] === UNDECIDED) this.b.state[j] = ALONE;
    });
  }
}
