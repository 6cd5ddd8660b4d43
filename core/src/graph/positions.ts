// The display graph as `onnxtxt graph --format json` writes it: for a text input, each box that
// has a span (ops, graph inputs and outputs) also gets its 1-based line and column range, so
// tools need not index the text themselves. Folded boxes keep no span (they stand for many).
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { Span } from "../../../grammar/src/span.js";
import type { DisplayGraph, DisplayNode } from "./display-graph.js";

export interface Position {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export type PositionedNode = Omit<DisplayNode, "groups"> & { readonly position?: Position; readonly groups: readonly PositionedGraph[] };

export interface PositionedGraph extends Omit<DisplayGraph, "nodes"> {
  readonly nodes: readonly PositionedNode[];
}

/** `graph` with `position` beside every `span`, read against `text`. */
export function withPositions(graph: DisplayGraph, text: string): PositionedGraph {
  const lines = new LineIndex(text);
  const position = (s: Span): Position => {
    const a = lines.position(s.start);
    const b = lines.position(s.end);
    return { line: a.line + 1, column: a.character + 1, endLine: b.line + 1, endColumn: b.character + 1 };
  };
  // bodies are copied the same way (--depth bounds how deep they go)
  const copy = (g: DisplayGraph): PositionedGraph => {
    const nodes: PositionedNode[] = g.nodes.map((n) => ({ ...n, ...(n.span && { position: position(n.span) }), groups: n.groups.map(copy) }));
    return { ...g, nodes };
  };
  return copy(graph);
}
