// Code lenses: "Run" above the main graph and each function.
import type { Span } from "../../../grammar/src/span.js";
import type { Analysis } from "./analysis.js";

interface RunLens {
  readonly span: Span;
  readonly title: string;
  /** The graph or function to run. */
  readonly graph: string;
}

export function codeLenses(a: Analysis): RunLens[] {
  const out: RunLens[] = [];
  const g = a.ast?.graph;
  if (g?.name) out.push({ span: g.name.span, title: "▶ Run", graph: g.name.value });
  for (const f of a.ast?.functions ?? []) if (f.name) out.push({ span: f.name.span, title: "▶ Run", graph: f.name.value });
  return out;
}
