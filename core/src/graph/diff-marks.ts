// The graph view in diff mode: which boxes of B's drawing a diff touches (added, changed or
// moved, with the change's lines for the tooltip), read from the display ids the diff's places
// carry, and the removed nodes of A drawn into it as boxes of their own (removed-boxes.ts).
// What B's drawing has no box for (the header, value infos, nodes removed from a function) is
// listed apart; a changed initializer marks the nodes that read it, as the view shows it on them.
import type { ModelDiff, RemovedNode } from "../diff/index.js";
import type { ModelProto } from "../../../proto/src/index.js";

export type DiffMarkKind = "added" | "changed" | "moved" | "removed";

export interface DiffMark {
  readonly kind: DiffMarkKind;
  readonly messages: readonly string[];
}

export interface DiffMarks {
  /** Display id (`main/n3`, `main/in:x`) -> its mark. */
  readonly marks: ReadonlyMap<string, DiffMark>;
  /** Removed nodes of A, drawn in B's drawing as boxes of their own. */
  readonly removed: readonly RemovedBox[];
  /** Changes without a box in B's drawing, as lines. */
  readonly elsewhere: readonly string[];
}

/** A removed node of A in B's drawing: where and how it is wired (RemovedNode), its box's id and mark. */
export interface RemovedBox extends Omit<RemovedNode, "change"> {
  /** `main/removed:n7` (7: its index in A's body). */
  readonly id: string;
  readonly mark: DiffMark;
}

const RANK: Readonly<Record<DiffMarkKind, number>> = { moved: 0, changed: 1, added: 2, removed: 3 };

/**
 * The marks of `diff` on the drawing of its B side, `model`; `removed` (compareModels') are
 * the removed nodes to draw as boxes, their changes no longer listed apart.
 */
export function diffMarks(diff: ModelDiff, model: ModelProto, removed: readonly RemovedNode[] = []): DiffMarks {
  const marks = new Map<string, DiffMark>();
  const elsewhere: string[] = [];
  const drawn = new Set(removed.map((r) => r.change));
  const mark = (id: string, kind: DiffMarkKind, message: string): void => {
    const old = marks.get(id);
    const strongest = old && RANK[old.kind] > RANK[kind] ? old.kind : kind;
    marks.set(id, { kind: strongest, messages: [...(old?.messages ?? []), message] });
  };
  const readers = (name: string): number[] => (model.graph?.node ?? []).flatMap((n, i) => (n.input.includes(name) ? [i] : []));
  for (const c of diff.changes) {
    if (drawn.has(c)) continue;
    const id = c.b?.id;
    const message = c.details && c.details.length > 1 ? [c.message, ...c.details.map((d) => `  ${d}`)].join("\n") : c.message;
    const kind: DiffMarkKind = c.kind.endsWith("-added") ? "added" : c.kind === "node-moved" ? "moved" : "changed";
    if (id !== undefined) mark(id, kind, message);
    else if (c.kind === "initializer-changed" && c.b?.path.startsWith("main / initializer ")) {
      const name = c.b.path.slice("main / initializer ".length);
      const at = readers(name);
      for (const i of at) mark(`main/n${i}`, "changed", message);
      if (at.length === 0) elsewhere.push(c.message);
    } else elsewhere.push(c.message);
  }
  const boxes = removed.map(
    ({ change, ...r }): RemovedBox => ({ ...r, id: `${r.graph}/removed:n${r.index}`, mark: { kind: "removed", messages: [change.message] } }),
  );
  return { marks, removed: boxes, elsewhere };
}
