// The graph view of a model: the display graph (display-graph.ts), folded when big
// (collapse.ts), laid out by ELK (layout.ts) and drawn as SVG (svg.ts) or DOT (dot.ts).
import type { ModelProto } from "../../../proto/src/index.js";
import { inferModel } from "../infer/index.js";
import { collapseLargeGraph, type Collapsed } from "./collapse.js";
import { displayGraph, type DisplayGraph, type DisplayOptions } from "./display-graph.js";
import { toElk, type LayoutEngine } from "./layout.js";
import { renderSvg } from "./svg.js";

export * from "./display-graph.js";
export { collapseLargeGraph, type Collapsed } from "./collapse.js";
export { renderDot } from "./dot.js";
export { toElk, type LayoutEngine } from "./layout.js";
export { renderSvg } from "./svg.js";
export { withPositions, type PositionedGraph, type PositionedNode, type Position } from "./positions.js";
export { diffMarks, type DiffMark, type DiffMarkKind, type DiffMarks, type RemovedBox } from "./diff-marks.js";

/** The folded display graph of a model with inferred types on its edges. */
export function modelGraph(model: ModelProto, options: DisplayOptions = {}): Collapsed {
  const graphTypes = options.graphTypes ?? inferModel(model).graphTypes;
  return collapseLargeGraph(displayGraph(model, { ...options, graphTypes }));
}

/** Ids of the nodes whose groups are drawn inside them: those down to `depth` levels. */
export function expandedTo(graph: DisplayGraph, depth: number): Set<string> {
  const ids = new Set<string>();
  const visit = (g: DisplayGraph, level: number): void => {
    if (level >= depth) return;
    for (const n of g.nodes) {
      if (n.groups.length === 0) continue;
      ids.add(n.id);
      for (const sub of n.groups) visit(sub, level + 1);
    }
  };
  visit(graph, 0);
  return ids;
}

export async function layoutSvg(graph: DisplayGraph, engine: LayoutEngine, expanded: ReadonlySet<string>): Promise<string> {
  return renderSvg(graph, await engine.layout(toElk(graph, expanded)));
}
