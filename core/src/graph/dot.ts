// The display graph in Graphviz's DOT language, for people who lay graphs out with their own
// tools. Expanded groups become clusters; labels are the same lines the SVG boxes show.
import type { DisplayGraph } from "./display-graph.js";
import type { DiffMarkKind } from "./diff-marks.js";
import { boxLines } from "./layout.js";

function quote(text: string): string {
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`).replace(/\n/g, "\\n")}"`;
}

const SHAPES = { op: "box", input: "ellipse", output: "ellipse", collapsed: "box3d" } as const;

/** Diff mode: the SVG's colours; a removed node's box and edges dashed. */
const DIFF_STYLES: Readonly<Record<DiffMarkKind, string>> = {
  added: ", color=green, penwidth=2",
  changed: ", color=orange, penwidth=2",
  moved: ", color=blue, style=dashed",
  removed: ", color=red, style=dashed, fontcolor=red",
};

function body(graph: DisplayGraph, indent: string, out: string[]): void {
  for (const n of graph.nodes) {
    const style = n.errors.length > 0 ? ", color=red" : n.diff ? DIFF_STYLES[n.diff.kind] : "";
    out.push(`${indent}${quote(n.id)} [shape=${SHAPES[n.kind]}, label=${quote(boxLines(n).join("\n"))}${style}];`);
    n.groups.forEach((g) => {
      out.push(`${indent}subgraph ${quote(`cluster_${g.id}`)} {`, `${indent}  label=${quote(`${n.label}: ${g.title}`)};`);
      body(g, `${indent}  `, out);
      out.push(`${indent}}`);
    });
  }
  for (const e of graph.edges) {
    const label = e.type === undefined ? e.value : `${e.value}\n${e.type}`;
    out.push(`${indent}${quote(e.from)} -> ${quote(e.to)} [label=${quote(label)}${e.diff ? DIFF_STYLES[e.diff] : ""}];`);
  }
}

export function renderDot(graph: DisplayGraph): string {
  const out = [`digraph ${quote(graph.title)} {`, '  node [fontname="monospace", fontsize=10];', '  edge [fontname="monospace", fontsize=9];'];
  body(graph, "  ", out);
  out.push("}");
  return out.join("\n") + "\n";
}
