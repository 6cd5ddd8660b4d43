// Pairs the nodes of two graphs by structure, not by name. Walking from the values already
// paired (graph inputs, then each paired node's outputs), a node of A whose inputs are all
// known is paired with the node of B that has the same op and the paired inputs (an input
// from an unpaired initializer pairs with one in B, binding the two). What the walk cannot
// pair is settled at its frontier: nodes of the same op by position, a node whose op changed
// (same inputs, an op that is surplus on each side), additions and removals by the ops' counts,
// and when the counts say nothing, an op change on the same inputs before a removal.
// Cycles and nodes the walk never reaches are paired by op and position at the end. Every step
// is iterative and near linear: a chain of a million nodes is walked once.
import type { NodeProto } from "../../../proto/src/index.js";
import { attributeFingerprint } from "./fingerprint.js";
import { Side, UNDECIDED, PAIRED, ALONE, UNBOUND, ELSEWHERE } from "./match-side.js";
import type { ValueMap } from "./value-map.js";

export interface NodeMatching {
  /** Index of the paired node of B for each node of A, -1 when removed. */
  readonly aToB: Int32Array;
  /** Index of the paired node of A for each node of B, -1 when added. */
  readonly bToA: Int32Array;
}

export function opKey(n: NodeProto): string {
  return `${n.domain}\u0000${n.opType}`;
}

/**
 * `values` holds the pairs known before (graph inputs, enclosing graphs) and gets every pair
 * the matching makes; `bindable` says whether two unpaired values may be bound when the nodes
 * reading them pair (initializers).
 */
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
    private readonly bindable: (a: string, b: string) => boolean,
  ) {
    this.a = new Side(aNodes, opKey);
    this.b = new Side(bNodes, opKey);
    this.aToB = new Int32Array(aNodes.length).fill(-1);
    this.bToA = new Int32Array(bNodes.length).fill(-1);
    // values from outside the nodes (graph inputs, enclosing graphs) paired already
    this.a.names.forEach((name, v) => {
      if (this.a.producer[v] !== -1) return;
      const other = values.b(name);
      if (other === undefined) return;
      const w = this.b.ids.get(other);
      if (w === undefined) this.a.mate[v] = ELSEWHERE;
      else {
        this.a.mate[v] = w;
        this.b.mate[w] = v;
        this.a.inherited[v] = 1;
      }
    });
    this.b.names.forEach((name, w) => {
      if (this.b.producer[w] === -1 && this.b.mate[w] === UNBOUND && values.a(name) !== undefined) this.b.mate[w] = ELSEWHERE;
    });
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
    this.publish();
    return { aToB: this.aToB, bToA: this.bToA };
  }

  /** The pairs of values made here count in `values` (the rest of the comparison reads them there). */
  private publish(): void {
    this.values.attach({ a: this.a, b: this.b });
  }

  /** Whether B's node j has node i's inputs: paired ones equal, unpaired ones unpaired and known too. */
  private compatible(i: number, j: number): boolean {
    const { a, b } = this;
    const ka = a.inStart[i]!;
    const kb = b.inStart[j]!;
    const n = a.inStart[i + 1]! - ka;
    if (b.inStart[j + 1]! - kb !== n) return false;
    for (let k = 0; k < n; k++) {
      const v = a.inIds[ka + k]!;
      const w = b.inIds[kb + k]!;
      if (v < 0 || w < 0) {
        if (v !== w) return false;
        continue;
      }
      const m = a.mate[v]!;
      if (m >= 0) {
        if (m !== w) return false;
      } else if (m === ELSEWHERE || b.mate[w] !== UNBOUND || !b.known(w)) return false;
    }
    return true;
  }

  /** The node of B with node i's op and inputs; among several, one with the same attributes first. */
  private structural(i: number): number {
    const { a, b } = this;
    const op = b.opIds.get(a.opKeys[a.op[i]!]!);
    if (op === undefined) return -1;
    let anchor = -1;
    for (let k = a.inStart[i]!; k < a.inStart[i + 1]!; k++) {
      const v = a.inIds[k]!;
      if (v >= 0 && a.mate[v]! >= 0) {
        anchor = a.mate[v]!;
        break;
      }
    }
    // the first fitting node, unless a later one also has the same attributes (a bounded look:
    // many nodes on nothing, such as Constants, stay linear)
    const node = a.nodes[i]!;
    let best = -1;
    let second = false;
    let looked = 0;
    let scanned = 0;
    const consider = (j: number): boolean => {
      if (++scanned > 256) return true;
      if (b.state[j] !== UNDECIDED || b.pending[j] !== 0 || b.op[j] !== op || !this.compatible(i, j)) return false;
      if (best < 0) {
        best = j;
        return false;
      }
      if (++looked > 64) return true;
      if (!second) {
        second = true;
        if (attributeFingerprint(node) === attributeFingerprint(b.nodes[best]!)) return true;
      }
      if (attributeFingerprint(node) !== attributeFingerprint(b.nodes[j]!)) return false;
      best = j;
      return true;
    };
    if (anchor >= 0) {
      for (let c = b.consumerStart[anchor]!; c < b.consumerStart[anchor + 1]!; c++) if (consider(b.consumerList[c]!)) break;
      return best;
    }
    // no paired input: nodes of the same op in order (a cursor skips those already decided)
    const list = b.byOp[op]!;
    const key = a.opKeys[a.op[i]!]!;
    let at = this.opCursor.get(key) ?? 0;
    while (at < list.length && b.state[list[at]!] !== UNDECIDED) at++;
    this.opCursor.set(key, at);
    for (let k = at; k < list.length; k++) if (consider(list[k]!)) break;
    return best;
  }

  private pair(i: number, j: number): void {
    const { a, b } = this;
    this.aToB[i] = j;
    this.bToA[j] = i;
    const ka = a.inStart[i]!;
    const kb = b.inStart[j]!;
    const n = Math.min(a.inStart[i + 1]! - ka, b.inStart[j + 1]! - kb);
    for (let k = 0; k < n; k++) {
      const v = a.inIds[ka + k]!;
      const w = b.inIds[kb + k]!;
      if (v >= 0 && w >= 0 && a.mate[v] === UNBOUND && b.mate[w] === UNBOUND && this.bindable(a.names[v]!, b.names[w]!)) {
        a.mate[v] = w;
        b.mate[w] = v;
      }
    }
    const oa = a.outStart[i]!;
    const ob = b.outStart[j]!;
    const m = Math.min(a.outStart[i + 1]! - oa, b.outStart[j + 1]! - ob);
    for (let k = 0; k < m; k++) {
      const v = a.outIds[oa + k]!;
      const w = b.outIds[ob + k]!;
      if (v >= 0 && w >= 0 && a.producer[v] === i && b.producer[w] === j && a.mate[v] === UNBOUND && b.mate[w] === UNBOUND) {
        a.mate[v] = w;
        b.mate[w] = v;
      }
    }
    this.decideB(j, PAIRED);
    a.decide(i, PAIRED, (c) => this.queue.push(c));
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
    const { a, b } = this;
    const aFront = this.failed.filter((i) => a.state[i] === UNDECIDED).sort((x, y) => x - y);
    this.failed = aFront;
    const bFront = [...this.bReady].filter((j) => b.state[j] === UNDECIDED).sort((x, y) => x - y);
    if (aFront.length === 0 && bFront.length === 0) return false;
    let progress = false;
    const keyA = (i: number) => a.opKeys[a.op[i]!]!;
    const keyB = (j: number) => b.opKeys[b.op[j]!]!;
    // the same op on both sides, in order of position
    const bByOp = new Map<string, number[]>();
    for (const j of bFront) {
      const list = bByOp.get(keyB(j));
      if (list) list.push(j);
      else bByOp.set(keyB(j), [j]);
    }
    for (const i of aFront) {
      const j = bByOp.get(keyA(i))?.shift();
      if (j === undefined) continue;
      this.pair(i, j);
      progress = true;
    }
    const surplusA = (i: number) => a.count(keyA(i)) > b.count(keyA(i));
    const surplusB = (j: number) => b.count(keyB(j)) > a.count(keyB(j));
    // an op replaced by another on the same inputs
    for (const i of aFront) {
      if (a.state[i] !== UNDECIDED || !surplusA(i)) continue;
      const j = bFront.find((j) => b.state[j] === UNDECIDED && surplusB(j) && this.compatible(i, j));
      if (j === undefined) continue;
      this.pair(i, j);
      progress = true;
    }
    // more of an op on one side than the other: removed or added
    for (const i of aFront)
      if (a.state[i] === UNDECIDED && surplusA(i)) {
        this.remove(i);
        progress = true;
      }
    for (const j of bFront)
      if (b.state[j] === UNDECIDED && surplusB(j)) {
        this.decideB(j, ALONE);
        progress = true;
      }
    if (progress) return true;
    // no count tells: a node whose op changed on the same inputs, the first such pair
    for (const i of aFront) {
      const j = bFront.find((j) => b.state[j] === UNDECIDED && this.compatible(i, j));
      if (j === undefined) continue;
      this.pair(i, j);
      return true;
    }
    const i = aFront.find((i) => a.state[i] === UNDECIDED);
    if (i !== undefined) this.remove(i);
    else this.decideB(bFront[0]!, ALONE);
    return true;
  }

  /** Nodes the walk never reached (cycles, inputs from nowhere): paired by op in order of position. */
  private leftovers(): void {
    const { a, b } = this;
    const rest = new Map<string, number[]>();
    const taken = new Map<string, number>();
    for (let j = 0; j < b.nodes.length; j++) {
      if (b.state[j] !== UNDECIDED) continue;
      const key = b.opKeys[b.op[j]!]!;
      const list = rest.get(key);
      if (list) list.push(j);
      else rest.set(key, [j]);
    }
    for (let i = 0; i < a.nodes.length; i++) {
      if (a.state[i] !== UNDECIDED) continue;
      const key = a.opKeys[a.op[i]!]!;
      const at = taken.get(key) ?? 0;
      const j = rest.get(key)?.[at];
      taken.set(key, at + 1);
      if (j !== undefined) this.pair(i, j);
      else a.state[i] = ALONE;
    }
    for (let j = 0; j < b.nodes.length; j++) if (b.state[j] === UNDECIDED) b.state[j] = ALONE;
  }
}
