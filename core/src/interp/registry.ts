// The kernel registry: (domain, op type, since-version) -> kernel. A kernel is a plain
// function from input values to output values; heavy ops can be swapped for faster
// implementations by registering another kernel under the same key.
import type { GraphProto, NodeProto } from "../../../proto/src/index.js";
import type { Attrs } from "./attrs.js";
import type { Rng } from "./rng.js";
import type { Value } from "./value.js";

export interface KernelContext {
  readonly node: NodeProto;
  readonly attrs: Attrs;
  /** The opset version of the node's domain. */
  readonly opset: number;
  /** Number of outputs the node declares (including empty names for skipped optionals). */
  readonly outputCount: number;
  /** Runs a subgraph (If/Loop/Scan bodies) with this node's scope visible to it. */
  runGraph(graph: GraphProto, inputs: readonly (Value | undefined)[]): Value[];
  /** Random numbers for the random ops (seeded per run). */
  readonly rng: Rng;
  /**
   * Throws when the run was cancelled or went over its limits; loops call it each iteration,
   * with the bytes they hold outside the graph's values (accumulated scan outputs).
   */
  checkGuards(iterations?: number, heldBytes?: number): void;
  /** The nodes of the enclosing graph and their current values (Gradient differentiates them). */
  readonly graph?: { readonly nodes: readonly NodeProto[]; lookup(name: string): Value | undefined };
}

/** Inputs are undefined where the node leaves an optional input empty. */
export type Kernel = (inputs: readonly (Value | undefined)[], ctx: KernelContext) => (Value | undefined)[];

interface Versioned {
  since: number;
  kernel: Kernel;
}

export class Registry {
  private readonly table = new Map<string, Versioned[]>();

  register(op: string, kernel: Kernel, options: { domain?: string; since?: number } = {}): this {
    const key = keyOf(options.domain ?? "", op);
    const list = this.table.get(key) ?? [];
    const since = options.since ?? 1;
    const at = list.findIndex((v) => v.since === since);
    if (at >= 0) list[at] = { since, kernel };
    else list.push({ since, kernel });
    list.sort((a, b) => b.since - a.since);
    this.table.set(key, list);
    return this;
  }

  /** The kernel for `op` at opset `version`: the newest registration not newer than it. */
  find(domain: string, op: string, version: number): Kernel | undefined {
    const list = this.table.get(keyOf(domain, op));
    if (!list) return undefined;
    for (const v of list) if (v.since <= version) return v.kernel;
    return list[list.length - 1]!.kernel;
  }

  has(domain: string, op: string): boolean {
    return this.table.has(keyOf(domain, op));
  }

  ops(): string[] {
    return [...this.table.keys()].sort();
  }
}

export function normalizeDomain(domain: string): string {
  return domain === "ai.onnx" ? "" : domain;
}

function keyOf(domain: string, op: string): string {
  return `${normalizeDomain(domain)}:${op}`;
}
