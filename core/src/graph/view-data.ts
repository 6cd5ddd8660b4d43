// What the editor's graph view shows for one analysis: the folded display graph with spans,
// inferred types and the errors found, plus the values of the last run for edge hovers.
import type { Analysis } from "../ide/analysis.js";
import { semanticState } from "../ide/analyze.js";
import type { DisplayGraph } from "./display-graph.js";
import type { DiffMarks } from "./diff-marks.js";
import { modelGraph } from "./index.js";

export interface GraphViewData {
  readonly graph: DisplayGraph;
  /** What was folded to keep the picture usable. */
  readonly notes: readonly string[];
  /** Value name -> its value in the last run (main graph), as a tensor constant. */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Undefined while the text does not lower to a model (the view keeps its last picture).
 * `diff` turns on the diff mode: the boxes its marks name are coloured, its removed nodes
 * drawn (see diff-marks.ts).
 */
export function graphView(a: Analysis, diff?: Pick<DiffMarks, "marks" | "removed">): GraphViewData | undefined {
  if (!a.model) return undefined;
  const graphTypes = semanticState(a)?.inference.graphTypes;
  const { graph, notes } = modelGraph(a.model, {
    diagnostics: a.diagnostics,
    ...(a.sourceMap && { sourceMap: a.sourceMap }),
    ...(graphTypes && { graphTypes }),
    ...(diff && { marks: diff.marks, removed: diff.removed }),
  });
  return { graph, notes, values: a.run ? Object.fromEntries(a.run.values) : {} };
}
