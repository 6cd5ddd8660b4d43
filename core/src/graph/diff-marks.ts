// The graph view in diff mode: which boxes of B's drawing a diff touches (added, changed or
// moved, with the change's lines for the tooltip), read from the display ids the diff's places
// carry. What B's drawing has no box for (removed nodes, the header, value infos) is listed
// apart; a changed initializer marks the nodes that read it, as the view shows it on them.
import type { ModelDiff } from "../diff/index.js";
import type { ModelProto } from "../../../proto/src/index.js";

export type DiffMarkKind = "added" | "changed" | "moved";

export interface DiffMark {
  readonly kind: DiffMarkKind;
  readonly messages: readonly string[];
}

export interface DiffMarks {
  /** Display id (`main/n3`, `main/in:x`) -> its mark. */
  readonly marks: ReadonlyMap<string, DiffMark>;
  /** Changes without a box in B's drawing, as lines. */
  readonly elsewhere: readonly string[];
}

const RANK: Readonly<Record<DiffMarkKind, number>> = { moved: 0, changed: 1, added: 2 };

/** The marks of `diff` on the drawing of its B side, `model`. */
export function diffMarks(diff: ModelDiff, model: ModelProto): DiffMarks {
  const marks = new Map<string, DiffMark>();
  const elsewhere: string[] = [];
  const mark = (id: string, kind: DiffMarkKind, message: string): void => {
    const old = marks.get(id);
    const strongest = old && RANK[old.kind] > RANK[kind] ? old.kind : kind;
    marks.set(id, { kind: strongest, messages: [...(old?.messages ?? []), message] });
  };
  const readers = (name: string): number[] => (model.graph?.node ?? []).flatMap((n, i) => (n.input.includes(name) ? [i] : []));
  for (const c of diff.changes) {
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
  return { marks, elsewhere };
}
