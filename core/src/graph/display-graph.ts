// The model as a picture sees it: operator nodes, graph inputs and outputs, and one edge per
// value flowing from its producer to each consumer. Subgraphs (If/Loop/Scan bodies) and calls
// of model-local functions become nested groups that a view can collapse or expand. Built from
// a ModelProto, so it works the same for a text and for a binary model; a SourceMap, when
// given, ties each element back to its statement.
import {
  AttributeProto_AttributeType as AttrType,
  type AttributeProto,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
} from "../../../proto/src/index.js";
import { dataTypeInfo } from "../../../proto/src/index.js";
import type { Span } from "../../../grammar/src/span.js";
import type { Diagnostic } from "../diagnostics.js";
import type { ValueType } from "../infer/index.js";
import { valueTypeText } from "../ide/type-text.js";
import { formatFloat32 } from "../numbers/float-text.js";
import type { SourceMap } from "../source-map.js";
import type { DiffMark, RemovedBox } from "./diff-marks.js";
import { removedBefore, removedEdges, removedNode } from "./removed-boxes.js";

type DisplayNodeKind = "op" | "input" | "output" | "collapsed";

export interface DisplayNode {
  /** Unique in the whole display graph (nested groups included). */
  readonly id: string;
  readonly kind: DisplayNodeKind;
  /** What the box shows first: the op type, or the value name of an input/output. */
  readonly label: string;
  /** The node's name, when it has one (ops only). */
  readonly name?: string;
  readonly domain?: string;
  /** Short `name=value` lines for the attributes, then `W: float[64, 3, 7, 7]` per initializer input. */
  readonly details: readonly string[];
  /** The statement in the text, when the model came from text. */
  readonly span?: Span;
  /** Error messages the checker or inference reported on this element. */
  readonly errors: readonly string[];
  /** Bodies of If/Loop/Scan attributes and of a called model-local function. */
  readonly groups: readonly DisplayGraph[];
  /** For `collapsed`: how many ops the box stands for. */
  readonly count?: number;
  /** In diff mode: how this box changed (see diff-marks.ts). */
  readonly diff?: DiffMark;
}

export interface DisplayEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  /** The value's name. */
  readonly value: string;
  /** Its type and shape in the text syntax (`float[1, 64, 112, 112]`), when known. */
  readonly type?: string;
  /** In diff mode: an edge of a removed node's box (removed-boxes.ts). */
  readonly diff?: "removed";
}

export interface DisplayGraph {
  readonly id: string;
  /** `main`, `then_branch`, `body`, or the called function's name. */
  readonly title: string;
  readonly nodes: DisplayNode[];
  readonly edges: DisplayEdge[];
}

export interface DisplayOptions {
  readonly sourceMap?: SourceMap;
  /** Value types of each graph (inference's `graphTypes`). */
  readonly graphTypes?: ReadonlyMap<GraphProto, ReadonlyMap<string, ValueType>>;
  readonly diagnostics?: readonly Diagnostic[];
  /** How many levels of subgraphs and function bodies to include (default: all). */
  readonly depth?: number;
  /** Diff mode: marks by display id (diffMarks). */
  readonly marks?: ReadonlyMap<string, DiffMark>;
  /** Diff mode: removed nodes of the other model, drawn as boxes of their own (diffMarks). */
  readonly removed?: readonly RemovedBox[];
}

interface Builder {
  readonly options: DisplayOptions;
  readonly functions: ReadonlyMap<string, FunctionProto>;
  /** The messages of the errors that fall inside a statement. */
  readonly errorsAt: (span: Span | undefined) => string[];
}

export function displayGraph(model: ModelProto, options: DisplayOptions = {}): DisplayGraph {
  const functions = new Map(model.functions.map((f) => [`${f.domain}:${f.name}:${f.overload}`, f]));
  const builder: Builder = { options, functions, errorsAt: errorLookup(options.diagnostics ?? []) };
  const graph = model.graph;
  if (!graph) return { id: "main", title: "main", nodes: [], edges: [] };
  return buildGraph(
    graph.node,
    graph.input.map((v) => v.name),
    graph.output.map((v) => v.name),
    initializerTypes(graph),
    typesOf(graph, options),
    "main",
    "main",
    builder,
    0,
    declarationSpans(graph, options.sourceMap),
  );
}

/** Where each graph input and output is declared in the text (none for binary input). */
function declarationSpans(graph: GraphProto, sourceMap: SourceMap | undefined): Map<string, Span> {
  const spans = new Map<string, Span>();
  if (!sourceMap) return spans;
  for (const v of [...graph.input, ...graph.output]) {
    const s = sourceMap.get(v)?.whole;
    if (s && !spans.has(v.name)) spans.set(v.name, s);
  }
  return spans;
}

/** Messages of the errors inside a span, found by binary search over errors sorted by start. */
function errorLookup(diagnostics: readonly Diagnostic[]): (span: Span | undefined) => string[] {
  const errors = diagnostics.filter((d) => d.severity === "error" && d.span).sort((a, b) => a.span!.start - b.span!.start);
  return (span) => {
    if (!span) return [];
    let lo = 0,
      hi = errors.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (errors[mid]!.span!.start < span.start) lo = mid + 1;
      else hi = mid;
    }
    const found: string[] = [];
    for (let i = lo; i < errors.length && errors[i]!.span!.start < span.end; i++) if (errors[i]!.span!.end <= span.end) found.push(errors[i]!.message);
    return found;
  };
}

function typesOf(graph: GraphProto, options: DisplayOptions): ReadonlyMap<string, ValueType> {
  return options.graphTypes?.get(graph) ?? new Map();
}

/** A tensor's type as the text syntax writes it: `float[64, 3]`, or `float` for a scalar. */
function tensorTypeText(dataType: number, dims: readonly bigint[]): string {
  const elem = dataTypeInfo(dataType)?.name ?? "?";
  return dims.length === 0 ? elem : `${elem}[${dims.join(", ")}]`;
}

function initializerTypes(graph: GraphProto): Map<string, string> {
  const types = new Map<string, string>();
  for (const t of graph.initializer) types.set(t.name, tensorTypeText(t.dataType, t.dims));
  for (const t of graph.sparseInitializer) if (t.values) types.set(t.values.name, `sparse ${tensorTypeText(t.values.dataType, t.dims)}`);
  return types;
}

function buildGraph(
  nodes: readonly NodeProto[],
  inputs: readonly string[],
  outputs: readonly string[],
  initializers: ReadonlyMap<string, string>,
  types: ReadonlyMap<string, ValueType>,
  id: string,
  title: string,
  b: Builder,
  depth: number,
  declared: ReadonlyMap<string, Span> = new Map(),
): DisplayGraph {
  const display: DisplayNode[] = [];
  const edges: DisplayEdge[] = [];
  const producer = new Map<string, string>();
  const typeText = (value: string): string | undefined => valueTypeText(types.get(value)) ?? initializers.get(value);
  const connect = (value: string, to: string): void => {
    const from = producer.get(value);
    if (from === undefined) return; // an initializer or a value captured from an enclosing graph
    const type = typeText(value);
    edges.push({ id: `${id}/e${edges.length}`, from, to, value, ...(type !== undefined && { type }) });
  };
  for (const name of inputs) {
    if (initializers.has(name)) continue; // an input with a default: shown on the nodes that read it
    const nodeId = `${id}/in:${name}`;
    producer.set(name, nodeId);
    const type = typeText(name);
    const span = declared.get(name);
    const diff = b.options.marks?.get(nodeId);
    display.push({ id: nodeId, kind: "input", label: name, details: type ? [type] : [], ...(span && { span }), errors: [], groups: [], ...(diff && { diff }) });
  }
  const inlined = inlineConstants(nodes, outputs, initializers);
  const removed = removedBefore(b.options.removed, id);
  const drawRemoved = (before: number): void => {
    for (const r of removed.get(before) ?? []) display.push(removedNode(r, r.node.attribute.map(attributeSummary), (v) => initializers.get(v)));
  };
  nodes.forEach((node, index) => {
    drawRemoved(index);
    if (inlined.get(node.output[0] ?? "") === node) return;
    const nodeId = `${id}/n${index}`;
    const span = b.options.sourceMap?.get(node)?.whole;
    const details = node.attribute.map(attributeSummary);
    for (const input of node.input) {
      const init = initializers.get(input);
      if (init !== undefined) details.push(`${input}: ${init}`);
      const constant = inlined.get(input);
      if (constant) details.push(`${input}${prefixed(": ", typeText(input))} (${constant.opType})`);
    }
    const diff = markOf(b.options.marks, nodeId, node, inlined, nodes, id);
    display.push({
      ...(diff && { diff }),
      id: nodeId,
      kind: "op",
      label: node.opType,
      ...(node.name !== "" && { name: node.name }),
      ...(node.domain !== "" && { domain: node.domain }),
      details,
      ...(span && { span }),
      errors: b.errorsAt(span),
      groups: depth < (b.options.depth ?? Infinity) ? nodeGroups(node, nodeId, b, depth + 1) : [],
    });
    for (const input of node.input) if (input !== "") connect(input, nodeId);
    // Values a body reads from this graph reach it through the node that owns the body.
    for (const name of capturedNames(node)) if (!node.input.includes(name)) connect(name, nodeId);
    for (const output of node.output) if (output !== "") producer.set(output, nodeId);
  });
  drawRemoved(nodes.length);
  for (const name of outputs) {
    const nodeId = `${id}/out:${name}`;
    const type = typeText(name);
    const span = declared.get(name);
    // an output made by an inlined constant shows that constant's change
    const made = inlined.get(name);
    const diff = b.options.marks?.get(nodeId) ?? (made && b.options.marks?.get(`${id}/n${nodes.indexOf(made)}`));
    display.push({
      id: nodeId,
      kind: "output",
      label: name,
      details: type ? [type] : [],
      ...(span && { span }),
      errors: [],
      groups: [],
      ...(diff && { diff }),
    });
    connect(name, nodeId);
  }
  if (removed.size > 0) {
    const boxes = [...removed.values()].flat();
    edges.push(...removedEdges(boxes, { graphId: id, producer, drawn: new Set(display.map((n) => n.id)), typeText }, edges.length));
  }
  return { id, title, nodes: display, edges };
}

/**
 * A node's diff mark, merged with those of the constants drawn inside it (an inlined
 * Constant has no box of its own, so its change shows on the node that reads it).
 */
function markOf(
  marks: ReadonlyMap<string, DiffMark> | undefined,
  nodeId: string,
  node: NodeProto,
  inlined: ReadonlyMap<string, NodeProto>,
  nodes: readonly NodeProto[],
  graphId: string,
): DiffMark | undefined {
  if (!marks || marks.size === 0) return undefined;
  let mark = marks.get(nodeId);
  for (const input of node.input) {
    const constant = inlined.get(input);
    const inner = constant && marks.get(`${graphId}/n${nodes.indexOf(constant)}`);
    if (inner) mark = { kind: mark?.kind === "added" ? "added" : "changed", messages: [...(mark?.messages ?? []), ...inner.messages] };
  }
  return mark;
}

function prefixed(prefix: string, text: string | undefined): string {
  return text === undefined ? "" : prefix + text;
}

const CONSTANT_OPS = new Set(["Constant", "ConstantOfShape"]);

/**
 * Constant-making nodes read by exactly one node, with no input but initializers: drawn as a
 * line of their consumer (as weights are) rather than as boxes of their own. Exported models
 * often make every weight this way; boxes for them would double a network's size.
 */
function inlineConstants(nodes: readonly NodeProto[], outputs: readonly string[], initializers: ReadonlyMap<string, string>): Map<string, NodeProto> {
  const reads = new Map<string, number>();
  const read = (name: string): void => void reads.set(name, (reads.get(name) ?? 0) + 1);
  for (const n of nodes) {
    n.input.forEach(read);
    capturedNames(n).forEach(read);
  }
  outputs.forEach(read);
  const inlined = new Map<string, NodeProto>();
  for (const n of nodes) {
    const out = n.output[0];
    if (n.domain === "" && CONSTANT_OPS.has(n.opType) && n.output.length === 1 && reads.get(out!) === 1 && n.input.every((i) => initializers.has(i)))
      inlined.set(out!, n);
  }
  return inlined;
}

function bodiesOf(node: NodeProto): GraphProto[] {
  return node.attribute.flatMap((a) => (a.g ? [a.g] : a.graphs));
}

/** Names the bodies of `node` read but do not define: values captured from enclosing graphs. */
function capturedNames(node: NodeProto): Set<string> {
  const free = new Set<string>();
  for (const body of bodiesOf(node)) {
    const defined = new Set([...body.input.map((v) => v.name), ...body.initializer.map((t) => t.name)]);
    const use = (name: string): void => {
      if (name !== "" && !defined.has(name)) free.add(name);
    };
    for (const n of body.node) {
      n.input.forEach(use);
      capturedNames(n).forEach(use);
      for (const o of n.output) defined.add(o);
    }
    body.output.forEach((v) => use(v.name));
  }
  return free;
}

function nodeGroups(node: NodeProto, nodeId: string, b: Builder, depth: number): DisplayGraph[] {
  const groups: DisplayGraph[] = [];
  for (const attr of node.attribute) {
    const bodies = attr.g ? [attr.g] : attr.graphs;
    bodies.forEach((g, i) => {
      const title = bodies.length > 1 ? `${attr.name}[${i}]` : attr.name;
      groups.push(
        buildGraph(
          g.node,
          g.input.map((v) => v.name),
          g.output.map((v) => v.name),
          initializerTypes(g),
          typesOf(g, b.options),
          `${nodeId}/${title}`,
          title,
          b,
          depth,
          declarationSpans(g, b.options.sourceMap),
        ),
      );
    });
  }
  const fn = b.functions.get(`${node.domain}:${node.opType}:${node.overload}`);
  if (fn) groups.push(buildGraph(fn.node, fn.input, fn.output, new Map(), new Map(), `${nodeId}/fn`, `${node.opType} (function)`, b, depth));
  return groups;
}

const MAX_LIST = 4;

function listText(items: readonly (string | number | bigint)[]): string {
  const shown = items.slice(0, MAX_LIST).map(String).join(", ");
  return `[${shown}${items.length > MAX_LIST ? `, … ${items.length - MAX_LIST} more` : ""}]`;
}

function quoted(bytes: Uint8Array): string {
  const s = new TextDecoder().decode(bytes);
  return JSON.stringify(s.length > 24 ? `${s.slice(0, 23)}…` : s);
}

/** One short line per attribute: enough to tell nodes apart, never the whole tensor. */
function attributeSummary(attr: AttributeProto): string {
  const value = ((): string => {
    if (attr.refAttrName !== "") return `@${attr.refAttrName}`;
    switch (attr.type) {
      case AttrType.FLOAT:
        return formatFloat32(attr.f);
      case AttrType.INT:
        return String(attr.i);
      case AttrType.STRING:
        return quoted(attr.s);
      case AttrType.TENSOR:
        return attr.t ? tensorTypeText(attr.t.dataType, attr.t.dims) : "tensor";
      case AttrType.GRAPH:
        return "graph";
      case AttrType.FLOATS:
        return listText(attr.floats.map(formatFloat32));
      case AttrType.INTS:
        return listText(attr.ints);
      case AttrType.STRINGS:
        return listText(attr.strings.map(quoted));
      case AttrType.GRAPHS:
        return `${attr.graphs.length} graphs`;
      case AttrType.TENSORS:
        return `${attr.tensors.length} tensors`;
      default:
        return "…";
    }
  })();
  return `${attr.name}=${value}`;
}
