// One graph's nodes as the matcher walks them: values and ops get small integer ids, inputs,
// outputs and consumers are flat typed arrays, so a million-node graph makes a few arrays and
// one map rather than a million little lists (and names are looked up once, not at every use).
import type { NodeProto } from "../../../proto/src/index.js";

export const UNDECIDED = 0;
export const PAIRED = 1;
/** Removed (a node of A) or added (a node of B). */
export const ALONE = 2;

/** `mate` of a value not paired (yet). */
export const UNBOUND = -1;
/** `mate` of a value paired with one the other side's nodes never use. */
export const ELSEWHERE = -2;

export class Side {
  /** Value name -> id, and back. */
  readonly ids = new Map<string, number>();
  readonly names: string[] = [];
  /** Inputs of node i: inIds[inStart[i] .. inStart[i + 1]), -1 for an empty name. Outputs alike. */
  readonly inStart: Int32Array;
  readonly inIds: Int32Array;
  readonly outStart: Int32Array;
  readonly outIds: Int32Array;
  /** Producing node of each value, -1 for none (graph inputs, initializers, outer values). */
  readonly producer: Int32Array;
  /** Consumers of value v: consumerList[consumerStart[v] .. consumerStart[v + 1]), once per use. */
  readonly consumerStart: Int32Array;
  readonly consumerList: Int32Array;
  /** The value of the other side each value is paired with, or UNBOUND / ELSEWHERE. */
  readonly mate: Int32Array;
  /** 1 for values paired before the matching (graph inputs, enclosing graphs' values). */
  readonly inherited: Uint8Array;
  /** Op id of each node; `opKeys[id]` is its key, `byOp[id]` its nodes in order. */
  readonly op: Int32Array;
  readonly opKeys: string[] = [];
  readonly opIds = new Map<string, number>();
  readonly byOp: number[][] = [];
  readonly undecidedOps: Int32Array;
  readonly state: Uint8Array;
  /** Inputs whose producer (in this graph) is still undecided. */
  readonly pending: Int32Array;

  constructor(
    readonly nodes: readonly NodeProto[],
    opKey: (n: NodeProto) => string,
  ) {
    const n = nodes.length;
    this.state = new Uint8Array(n);
    this.pending = new Int32Array(n);
    this.op = new Int32Array(n);
    this.inStart = new Int32Array(n + 1);
    this.outStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      this.inStart[i + 1] = this.inStart[i]! + nodes[i]!.input.length;
      this.outStart[i + 1] = this.outStart[i]! + nodes[i]!.output.length;
    }
    this.inIds = new Int32Array(this.inStart[n]!);
    this.outIds = new Int32Array(this.outStart[n]!);
    for (let i = 0; i < n; i++) {
      const node = nodes[i]!;
      node.input.forEach((x, k) => (this.inIds[this.inStart[i]! + k] = this.id(x)));
      node.output.forEach((o, k) => (this.outIds[this.outStart[i]! + k] = this.id(o)));
      const key = opKey(node);
      let op = this.opIds.get(key);
      if (op === undefined) {
        this.opIds.set(key, (op = this.opKeys.length));
        this.opKeys.push(key);
        this.byOp.push([]);
      }
      this.op[i] = op;
      this.byOp[op]!.push(i);
    }
    const values = this.names.length;
    this.undecidedOps = Int32Array.from(this.byOp, (l) => l.length);
    this.mate = new Int32Array(values).fill(UNBOUND);
    this.inherited = new Uint8Array(values);
    this.producer = new Int32Array(values).fill(-1);
    for (let i = 0; i < n; i++)
      for (let k = this.outStart[i]!; k < this.outStart[i + 1]!; k++) {
        const v = this.outIds[k]!;
        if (v >= 0 && this.producer[v] === -1) this.producer[v] = i;
      }
    // consumers: count, then fill
    this.consumerStart = new Int32Array(values + 1);
    for (const v of this.inIds) if (v >= 0) this.consumerStart[v + 1]!++;
    for (let v = 0; v < values; v++) this.consumerStart[v + 1]! += this.consumerStart[v]!;
    this.consumerList = new Int32Array(this.consumerStart[values]!);
    const fill = this.consumerStart.slice(0, values);
    for (let i = 0; i < n; i++)
      for (let k = this.inStart[i]!; k < this.inStart[i + 1]!; k++) {
        const v = this.inIds[k]!;
        if (v < 0) continue;
        this.consumerList[fill[v]!++] = i;
        if (this.producer[v] !== -1) this.pending[i]!++;
      }
  }

  private id(name: string): number {
    if (name === "") return -1;
    let v = this.ids.get(name);
    if (v === undefined) {
      v = this.names.length;
      this.ids.set(name, v);
      this.names.push(name);
    }
    return v;
  }

  /** A value is known once its producer (if any here) is decided. */
  known(v: number): boolean {
    const p = this.producer[v]!;
    return p < 0 || this.state[p] !== UNDECIDED;
  }

  /** Marks node i decided and hands each consumer that became ready to `ready`. */
  decide(i: number, how: number, ready: (j: number) => void): void {
    this.state[i] = how;
    this.undecidedOps[this.op[i]!]!--;
    for (let k = this.outStart[i]!; k < this.outStart[i + 1]!; k++) {
      const v = this.outIds[k]!;
      // a value is released once, by its (first) producer, even when listed twice
      if (v < 0 || this.producer[v] !== i || this.listedBefore(i, k, v)) continue;
      for (let c = this.consumerStart[v]!; c < this.consumerStart[v + 1]!; c++) {
        const j = this.consumerList[c]!;
        if (--this.pending[j]! === 0 && this.state[j] === UNDECIDED) ready(j);
      }
    }
  }

  private listedBefore(i: number, k: number, v: number): boolean {
    for (let e = this.outStart[i]!; e < k; e++) if (this.outIds[e] === v) return true;
    return false;
  }

  /** Undecided nodes with this op key. */
  count(key: string): number {
    const op = this.opIds.get(key);
    return op === undefined ? 0 : this.undecidedOps[op]!;
  }
}
