// Finds the node a run failed at from the interpreter's message, `node If > b2 (Relu): ...`,
// where each step is `name (Op)` for a named node or `Op` for an unnamed one, outermost first.
// Used when the server reports no range itself.
import type { AttrValue, Graph, NodeBlock, OpNode } from "../../grammar/src/ast.js";
import { LineIndex, parseModel } from "../../grammar/src/index.js";
import type { LspRange } from "./run-protocol.js";

interface Step {
  readonly name?: string;
  readonly op: string;
}

const NODE_PATH = /^node (.+?): /;
const STEP = /^(.*) \(([^()]*)\)$/;

export function failedNodePath(message: string): Step[] | undefined {
  const m = NODE_PATH.exec(message);
  if (!m) return undefined;
  return m[1]!.split(" > ").map((s) => {
    const named = STEP.exec(s.trim());
    return named ? { name: named[1]!, op: named[2]! } : { op: s.trim() };
  });
}

function subgraphs(value: AttrValue | undefined): Graph[] {
  if (!value) return [];
  if (value.kind === "Graph") return [value];
  if (value.kind === "List") return value.items.flatMap(subgraphs);
  return [];
}

function matches(node: OpNode, step: Step): boolean {
  if (node.op?.opType?.value !== step.op) return false;
  return step.name === undefined ? node.label?.name === undefined : node.label?.name?.value === step.name;
}

/** The span of the innermost node on the path that can be told apart from its siblings. */
function locate(blocks: readonly NodeBlock[], path: readonly Step[]): OpNode | undefined {
  const [step, ...rest] = path;
  if (!step) return undefined;
  const found = blocks.flatMap((b) => b.nodes.filter((n) => matches(n, step)));
  if (found.length !== 1) return undefined;
  const node = found[0]!;
  const inner = node.attributes?.items.flatMap((a) => subgraphs(a.value)).flatMap((g) => (g.body ? [g.body] : [])) ?? [];
  return locate(inner, rest) ?? node;
}

interface FailedNode {
  readonly range: LspRange;
  /** The step that was found: `b2 (Relu)` or `Relu`. */
  readonly node: string;
}

export function locateFailedNode(text: string, message: string, graph: string | undefined): FailedNode | undefined {
  const path = failedNodePath(message);
  if (!path) return undefined;
  const { ast } = parseModel(text);
  if (!ast) return undefined;
  const graphs = [
    ...(ast.graph ? [{ name: ast.graph.name?.value, body: ast.graph.body }] : []),
    ...ast.functions.map((f) => ({ name: f.name?.value, body: f.body })),
  ];
  const chosen = graph === undefined ? graphs.slice(0, 1) : graphs.filter((g) => g.name === graph);
  // A function runs as the one node of a wrapper graph that calls it: skip that step.
  const isFunction = graph !== undefined && ast.functions.some((f) => f.name?.value === graph);
  const steps = isFunction && path[0]?.op === graph && path[0].name === undefined ? path.slice(1) : path;
  const node = locate(
    chosen.flatMap((g) => (g.body ? [g.body] : [])),
    steps,
  );
  if (!node) return undefined;
  const lines = new LineIndex(text);
  const label = node.label?.name ? `${node.label.name.value} (${node.op?.opType?.value ?? "?"})` : (node.op?.opType?.value ?? "?");
  return { range: { start: lines.position(node.span.start), end: lines.position(node.span.end) }, node: label };
}
