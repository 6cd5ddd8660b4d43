// Turns a display graph into ELK's input (layered, top to bottom, inputs on a box's top side
// and outputs on its bottom side) and back. The ELK instance is passed in: the CLI uses the
// bundled engine in-process, the editor's view runs it in a Web Worker.
import type { ElkExtendedEdge, ElkNode, ElkPort, LayoutOptions } from "elkjs/lib/elk-api.js";
import type { DisplayGraph, DisplayNode } from "./display-graph.js";

export interface LayoutEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

export const CHAR_WIDTH = 7;
export const LINE_HEIGHT = 14;
/** The title strip of an expanded group. */
export const HEADER = 22;
const PAD = 8;
const MAX_DETAILS = 3;
const MAX_CHARS = 40;

const GRAPH_OPTIONS: LayoutOptions = {
  "elk.algorithm": "layered",
  "elk.direction": "DOWN",
  "elk.spacing.nodeNode": "18",
  "elk.layered.spacing.nodeNodeBetweenLayers": "34",
  "elk.padding": `[top=${HEADER + PAD},left=${PAD},bottom=${PAD},right=${PAD}]`,
};
const NODE_OPTIONS: LayoutOptions = { "elk.portConstraints": "FIXED_SIDE" };

/** The text lines a box shows, the same for sizing and drawing. */
export function boxLines(node: DisplayNode): string[] {
  const lines = [node.label];
  if (node.name !== undefined && node.name !== node.label) lines.push(node.name);
  const details = node.details.slice(0, MAX_DETAILS);
  if (node.details.length > MAX_DETAILS) details.push(`… ${node.details.length - MAX_DETAILS} more`);
  return [...lines, ...details].map((l) => (l.length > MAX_CHARS ? `${l.slice(0, MAX_CHARS - 1)}…` : l));
}

function textWidth(lines: readonly string[]): number {
  return Math.max(...lines.map((l) => l.length)) * CHAR_WIDTH + 2 * PAD;
}

/**
 * ELK's graph for `graph`: every node, and for each node in `expanded` its groups laid out
 * inside it. Ids are the display ids; ports are `<node>:in<k>` and `<node>:out:<value>`.
 */
export function toElk(graph: DisplayGraph, expanded: ReadonlySet<string>): ElkNode {
  const portsIn = new Map<string, ElkPort[]>();
  const portsOut = new Map<string, Map<string, ElkPort>>();
  const edges: ElkExtendedEdge[] = graph.edges.map((e) => {
    const inPorts = portsIn.get(e.to) ?? [];
    portsIn.set(e.to, inPorts);
    const inPort: ElkPort = { id: `${e.to}:in${inPorts.length}`, width: 1, height: 1, layoutOptions: { "elk.port.side": "NORTH" } };
    inPorts.push(inPort);
    const outs = portsOut.get(e.from) ?? new Map<string, ElkPort>();
    portsOut.set(e.from, outs);
    let outPort = outs.get(e.value);
    if (!outPort) {
      outPort = { id: `${e.from}:out:${e.value}`, width: 1, height: 1, layoutOptions: { "elk.port.side": "SOUTH" } };
      outs.set(e.value, outPort);
    }
    // No ELK labels: placing them costs ELK several times the layout itself. The renderer
    // writes the type beside the edge's first segment, in the gap between layers.
    return { id: e.id, sources: [outPort.id], targets: [inPort.id] };
  });
  const children = graph.nodes.map((n): ElkNode => {
    const lines = boxLines(n);
    const ports = [...(portsIn.get(n.id) ?? []), ...(portsOut.get(n.id)?.values() ?? [])];
    const base = { id: n.id, ports, layoutOptions: NODE_OPTIONS };
    if (n.groups.length > 0 && expanded.has(n.id)) {
      return {
        ...base,
        layoutOptions: { ...NODE_OPTIONS, ...GRAPH_OPTIONS, "elk.direction": "RIGHT" },
        children: n.groups.map((g) => ({ ...toElk(g, expanded), layoutOptions: GRAPH_OPTIONS })),
      };
    }
    return { ...base, width: textWidth(lines), height: lines.length * LINE_HEIGHT + PAD };
  });
  return { id: graph.id, layoutOptions: GRAPH_OPTIONS, children, edges };
}
