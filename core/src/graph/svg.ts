// Draws a laid-out display graph as SVG text: the same drawing for `onnxtxt graph` and the
// editor's view. Colours come from VS Code's theme variables when the SVG sits in a webview,
// with light-theme fallbacks for a standalone file. Each box carries its display id and, when
// known, its statement's offsets (`data-start`/`data-end`) so a view can map clicks to text.
import type { ElkEdgeSection, ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import type { DisplayEdge, DisplayGraph, DisplayNode } from "./display-graph.js";

type EdgeInfo = Pick<DisplayEdge, "value" | "type" | "diff">;
import { boxLines, CHAR_WIDTH, HEADER, LINE_HEIGHT } from "./layout.js";

const STYLE = `
.onnx-graph { font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.onnx-graph .box rect { fill: var(--vscode-editorWidget-background, #f7f7f9); stroke: var(--vscode-editorWidget-border, #8a8a99); rx: 4; }
.onnx-graph .op rect { fill: var(--vscode-editor-background, #eef3fb); stroke: var(--vscode-focusBorder, #4a6fa5); }
.onnx-graph .input rect, .onnx-graph .output rect { fill: var(--vscode-badge-background, #e9f5ea); stroke: var(--vscode-charts-green, #3f8f4a); rx: 10; }
.onnx-graph .collapsed rect { stroke-dasharray: 4 3; }
.onnx-graph .error rect { stroke: var(--vscode-editorError-foreground, #d13438); stroke-width: 2; }
.onnx-graph .selected rect { stroke: var(--vscode-editorCursor-foreground, #c27c0e); stroke-width: 3; }
.onnx-graph text { fill: var(--vscode-editor-foreground, #1e1e1e); }
.onnx-graph .label { font-weight: bold; }
.onnx-graph .detail, .onnx-graph .edge-label { fill: var(--vscode-descriptionForeground, #606070); font-size: 10px; }
.onnx-graph .group > rect { fill: none; stroke: var(--vscode-editorWidget-border, #9a9aaa); stroke-dasharray: 2 2; }
.onnx-graph .edge { fill: none; stroke: var(--vscode-editorLineNumber-foreground, #7a7a8a); stroke-width: 1.2; }
.onnx-graph .edge.selected { stroke: var(--vscode-editorCursor-foreground, #c27c0e); stroke-width: 2.5; }
.onnx-graph .arrow { fill: var(--vscode-editorLineNumber-foreground, #7a7a8a); }
`;

/** Diff mode (only in drawings with marks, so other drawings stay as they were): colours and dimming. */
const DIFF_STYLE = `
.onnx-graph.diff .box:not(.diff-added):not(.diff-changed):not(.diff-moved):not(.diff-removed) { opacity: 0.45; }
.onnx-graph .diff-added > rect { stroke: var(--vscode-gitDecoration-addedResourceForeground, #2ea043); stroke-width: 3; }
.onnx-graph .diff-changed > rect { stroke: var(--vscode-gitDecoration-modifiedResourceForeground, #d29922); stroke-width: 3; }
.onnx-graph .diff-moved > rect { stroke: var(--vscode-gitDecoration-renamedResourceForeground, #1f6feb); stroke-width: 2; stroke-dasharray: 6 3; }
.onnx-graph .diff-removed > rect { fill-opacity: 0.5; stroke: var(--vscode-gitDecoration-deletedResourceForeground, #d1242f); stroke-width: 2; stroke-dasharray: 5 3; }
.onnx-graph .diff-removed > .label { text-decoration: line-through; }
.onnx-graph .edge.diff-removed { stroke: var(--vscode-gitDecoration-deletedResourceForeground, #d1242f); stroke-dasharray: 5 3; }
`;

function diffClass(node: DisplayNode | undefined): string[] {
  return node?.diff ? [`diff-${node.diff.kind}`] : [];
}

function hasMarks(graph: DisplayGraph): boolean {
  return graph.nodes.some((n) => n.diff !== undefined || n.groups.some(hasMarks));
}

function xmlText(text: string): string {
  return (
    text
      .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!)
      // Control characters are not allowed in XML 1.0 text.
      .replace(/[^\t\n\r -\uFFFF]/g, "\uFFFD")
  );
}

interface Index {
  readonly nodes: Map<string, DisplayNode>;
  readonly groupTitles: Map<string, string>;
  readonly edges: Map<string, EdgeInfo>;
}

function indexGraph(graph: DisplayGraph, into: Index): Index {
  for (const e of graph.edges) into.edges.set(e.id, e);
  for (const n of graph.nodes) {
    into.nodes.set(n.id, n);
    for (const g of n.groups) {
      into.groupTitles.set(g.id, g.title);
      indexGraph(g, into);
    }
  }
  return into;
}

function sectionPath(s: ElkEdgeSection): string {
  const points = [s.startPoint, ...(s.bendPoints ?? []), s.endPoint];
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${round(p.x)},${round(p.y)}`).join(" ");
}

function round(v: number | undefined): number {
  return Math.round((v ?? 0) * 10) / 10;
}

function drawEdge(edge: ElkExtendedEdge, info: EdgeInfo | undefined, labelled: Set<string>, out: string[]): void {
  const value = xmlText(info?.value ?? "");
  const type = info?.type === undefined ? undefined : xmlText(info.type);
  const title = `<title>${value}${type ? `: ${type}` : ""}</title>`;
  for (const s of edge.sections ?? []) {
    out.push(
      `<path class="edge${info?.diff ? ` diff-${info.diff}` : ""}" data-edge="${xmlText(edge.id)}" data-value="${value}" marker-end="url(#arrow)" d="${sectionPath(s)}">${title}</path>`,
    );
  }
  // The type goes just below where the edge leaves its producer, in the gap between layers.
  const start = edge.sections?.[0]?.startPoint;
  const at = start && `${round(start.x)},${round(start.y)}`;
  if (!type || !at || labelled.has(at)) return; // one label where a value fans out to several consumers
  labelled.add(at);
  out.push(`<text class="edge-label" x="${round(start.x + 4)}" y="${round(start.y + LINE_HEIGHT)}">${type}</text>`);
}

function drawBox(node: DisplayNode, elk: ElkNode, out: string[]): void {
  const lines = boxLines(node);
  const classes = ["box", node.kind, ...(node.errors.length > 0 ? ["error"] : []), ...diffClass(node)].join(" ");
  const span = node.span ? ` data-start="${node.span.start}" data-end="${node.span.end}"` : "";
  const tip = [
    node.label,
    ...(node.name ? [node.name] : []),
    ...node.details,
    ...node.errors.map((e) => `error: ${e}`),
    ...(node.diff?.messages.map((m) => `${node.diff!.kind}: ${m}`) ?? []),
  ];
  out.push(`<g class="${classes}" data-id="${xmlText(node.id)}"${span} transform="translate(${round(elk.x)},${round(elk.y)})">`);
  out.push(`<title>${xmlText(tip.join("\n"))}</title>`);
  out.push(`<rect width="${round(elk.width)}" height="${round(elk.height)}"/>`);
  lines.forEach((line, i) => {
    const cls = i === 0 ? "label" : "detail";
    out.push(`<text class="${cls}" x="${CHAR_WIDTH}" y="${LINE_HEIGHT * (i + 1)}">${xmlText(line)}</text>`);
  });
  out.push("</g>");
}

function drawGraph(elk: ElkNode, index: Index, out: string[]): void {
  const labelled = new Set<string>();
  for (const e of elk.edges ?? []) drawEdge(e, index.edges.get(e.id), labelled, out);
  for (const child of elk.children ?? []) {
    const node = index.nodes.get(child.id);
    if (node && !child.children) {
      drawBox(node, child, out);
      continue;
    }
    // An expanded node (its groups inside) or one of its groups.
    const title = node ? `${node.label}${node.name ? ` ${node.name}` : ""}` : (index.groupTitles.get(child.id) ?? "");
    const cls = node ? [`group expanded ${node.kind}`, ...(node.errors.length > 0 ? ["error"] : []), ...diffClass(node)].join(" ") : "group";
    const span = node?.span ? ` data-start="${node.span.start}" data-end="${node.span.end}"` : "";
    out.push(`<g class="${cls}" data-id="${xmlText(child.id)}"${span} transform="translate(${round(child.x)},${round(child.y)})">`);
    out.push(`<rect width="${round(child.width)}" height="${round(child.height)}"/>`);
    out.push(`<text class="${node ? "label" : "detail"}" x="${CHAR_WIDTH}" y="${HEADER - 6}">${xmlText(title)}</text>`);
    drawGraph(child, index, out);
    out.push("</g>");
  }
}

/** The SVG document of a laid-out graph (`laidOut` is ELK's answer for `toElk(graph, …)`). */
export function renderSvg(graph: DisplayGraph, laidOut: ElkNode): string {
  const out: string[] = [];
  // Edge labels are written beside edges, outside ELK's boxes: leave room for them on the right.
  const width = Math.ceil(laidOut.width ?? 0) + 12 * CHAR_WIDTH;
  const height = Math.ceil(laidOut.height ?? 0);
  const diff = hasMarks(graph);
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="onnx-graph${diff ? " diff" : ""}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
  );
  out.push(`<style>${STYLE}${diff ? DIFF_STYLE : ""}</style>`);
  out.push(
    '<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrow" d="M0,0 L8,4 L0,8 z"/></marker></defs>',
  );
  drawGraph(laidOut, indexGraph(graph, { nodes: new Map(), groupTitles: new Map(), edges: new Map() }), out);
  out.push("</svg>");
  return out.join("\n") + "\n";
}
