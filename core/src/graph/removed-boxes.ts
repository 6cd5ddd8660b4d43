// The graph view's diff mode draws the nodes removed from A into B's drawing, so the layout
// places them among their old neighbours: a box where the node stood (before the B node it
// preceded), edges from the B values its inputs pair with and to the B boxes that read its
// outputs in A, and between removed nodes that fed each other. Such boxes and edges carry
// the diff kind `removed`.
import type { DisplayEdge, DisplayNode } from "./display-graph.js";
import type { RemovedBox } from "./diff-marks.js";

/** The removed boxes of one body of the drawing, by the index of the B node each goes before. */
export function removedBefore(removed: readonly RemovedBox[] | undefined, graphId: string): Map<number, RemovedBox[]> {
  const at = new Map<number, RemovedBox[]>();
  for (const r of removed ?? []) {
    if (r.graph !== graphId) continue;
    const list = at.get(r.before);
    if (list) list.push(r);
    else at.set(r.before, [r]);
  }
  return at;
}

/** A removed node's box: its op and name, attribute lines and the initializers it read. */
export function removedNode(r: RemovedBox, attributes: readonly string[], initializerType: (value: string) => string | undefined): DisplayNode {
  const n = r.node;
  const details = [...attributes];
  r.inputs.forEach((b) => {
    const init = b === undefined ? undefined : initializerType(b);
    if (init !== undefined) details.push(`${b}: ${init}`);
  });
  return {
    id: r.id,
    kind: "op",
    label: n.opType,
    ...(n.name !== "" && { name: n.name }),
    ...(n.domain !== "" && { domain: n.domain }),
    details,
    errors: [],
    groups: [],
    diff: r.mark,
  };
}

export interface Wiring {
  readonly graphId: string;
  /** B value -> the box that makes it. */
  readonly producer: ReadonlyMap<string, string>;
  /** Ids of the boxes drawn in this body. */
  readonly drawn: ReadonlySet<string>;
  readonly typeText: (value: string) => string | undefined;
}

/** The edges of a body's removed boxes, marked `removed`, with ids after the body's `first` edges. */
export function removedEdges(boxes: readonly RemovedBox[], w: Wiring, first: number): DisplayEdge[] {
  const edges: DisplayEdge[] = [];
  const push = (from: string, to: string, value: string, type?: string): void =>
    void edges.push({ id: `${w.graphId}/e${first + edges.length}`, from, to, value, ...(type !== undefined && { type }), diff: "removed" });
  // a value of A no B value pairs with, made by a removed node: that node's box
  const madeByRemoved = new Map<string, string>();
  for (const r of boxes) for (const o of r.node.output) if (o !== "") madeByRemoved.set(o, r.id);
  for (const r of boxes) {
    r.node.input.forEach((x, k) => {
      const b = r.inputs[k];
      const from = b !== undefined ? w.producer.get(b) : madeByRemoved.get(x);
      if (from !== undefined) push(from, r.id, b ?? x, b === undefined ? undefined : w.typeText(b));
    });
    r.node.output.forEach((o, k) => {
      for (const j of r.readers[k] ?? []) {
        const to = `${w.graphId}/n${j}`;
        if (w.drawn.has(to)) push(r.id, to, o);
      }
    });
  }
  return edges;
}
