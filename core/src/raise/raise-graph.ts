// GraphProto / NodeProto / ValueInfoProto -> AST. Every initializer goes into the `<...>`
// block (which reproduces initializer order exactly); inputs list only their value infos.
import { toJson } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  NodeProtoSchema,
  TensorProtoSchema,
  ValueInfoProtoSchema,
  type GraphProto,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import { isSet } from "../ext/fields.js";
import { isBareGraphName, isPlainWord } from "../../../grammar/src/names.js";
import { bareName, name, NO_SPAN, valueDeclList } from "./ast-build.js";
import type { RaiseContext } from "./context.js";
// biome-ignore lint/suspicious/noImportCycles: a graph attribute holds a graph, which holds attributes (mutual recursion)
import { raiseAttribute } from "./raise-attribute.js";
import { liftAttributes } from "./lift.js";
import { raiseTensor } from "./raise-tensor.js";
import { has } from "./presence.js";
import { differsInDomain, DOMAIN, NAME, NODE_EXTRA, NODE_FIELDS, OP_TYPE, OVERLOAD } from "./field-tables.js";
import { raiseType, withoutDenotations } from "./raise-type.js";
import { Residual } from "./residual.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function raiseValueInfo(v: ValueInfoProto, ctx: RaiseContext): A.ValueDecl {
  const residual = new Residual().keep(ValueInfoProtoSchema, v, ["doc_string", "metadata_props"]);
  if (!isSet(ValueInfoProtoSchema, v, "name")) residual.clear("name");
  let type = v.type && raiseType(v.type);
  if (v.type && !type) {
    // Denotations have no spelling: the type prints without them and only they go to the residual.
    const bare = withoutDenotations(v.type);
    type = bare && raiseType(bare.type);
    if (bare && type) residual.put("@denotation", bare.denotations);
    else residual.keep(ValueInfoProtoSchema, v, ["type"]);
  }
  const node: A.ValueDecl = { kind: "ValueDecl", span: NO_SPAN, ...(type ? { type } : {}), name: name(v.name) };
  ctx.attach(node, "value", residual);
  return node;
}

function raiseInitializer(t: TensorProto, ctx: RaiseContext): A.ValueDecl {
  const { type, data, residual } = raiseTensor(t, ctx);
  if (!isSet(TensorProtoSchema, t, "name")) residual.clear("name");
  const node: A.ValueDecl = { kind: "ValueDecl", span: NO_SPAN, type, name: name(t.name), init: data };
  ctx.attach(node, "tensor", residual);
  return node;
}

function idList(names: readonly string[]): A.IdList {
  const items = new Array<A.Name>(names.length);
  for (let i = 0; i < names.length; i++) items[i] = name(names[i]!);
  return { kind: "IdList", span: NO_SPAN, items };
}

const NO_DOMAIN: readonly A.Name[] = [];
const NO_PARTS: readonly string[] = [];

function opName(n: NodeProto, residual: Residual, ctx: RaiseContext): A.OpName {
  const parts = n.domain === "" ? NO_PARTS : n.domain.split(".");
  let domain: readonly A.Name[] = NO_DOMAIN;
  if (parts.length && parts.every(isPlainWord)) domain = parts.map(bareName);
  else if (parts.length) residual.keep(NodeProtoSchema, n, ["domain"]);
  if (differsInDomain(n, ctx.defaults)) {
    // Written without a domain: the model default says whether that means unset or "". A node
    // that differs is named in the file-level residual when its first output identifies it.
    const key = ctx.nodeKey(n.output);
    if (key !== undefined) ctx.domainExcept.push(key);
    else if (has(n, NODE_FIELDS, DOMAIN)) residual.put("domain", "");
    else residual.clear("domain");
  }
  let opType = n.opType;
  const opTypeSet = has(n, NODE_FIELDS, OP_TYPE);
  if (!opTypeSet || !isPlainWord(opType)) {
    opType = "_";
    if (opTypeSet) residual.keep(NodeProtoSchema, n, ["op_type"]);
    else residual.clear("op_type");
  }
  const op: Mutable<A.OpName> = { kind: "OpName", span: NO_SPAN, domain, opType: bareName(opType) };
  if (has(n, NODE_FIELDS, OVERLOAD)) {
    if (isPlainWord(n.overload)) op.overload = bareName(n.overload);
    else residual.keep(NodeProtoSchema, n, ["overload"]);
  }
  return op;
}

function isGraphValue(a: A.Attribute): boolean {
  return a.value?.kind === "Graph" || (a.value?.kind === "List" && a.value.items.some((i) => i.kind === "Graph"));
}

export function raiseNode(n: NodeProto, ctx: RaiseContext): A.OpNode {
  const residual = new Residual().keepSet(n, NODE_EXTRA);
  const op = opName(n, residual, ctx);
  const node: Mutable<A.OpNode> = { kind: "Node", span: NO_SPAN, outputs: idList(n.output), op, attributesAfterInputs: false, inputs: idList(n.input) };
  if (has(n, NODE_FIELDS, NAME)) node.label = { kind: "Label", span: NO_SPAN, name: name(n.name) };
  if (n.attribute.length) {
    const attrs: A.Attribute[] = [];
    const unwritable: { index: number; attribute: ReturnType<typeof toJson> }[] = [];
    const key = (): string | undefined => ctx.nodeKey(n.output);
    n.attribute.forEach((a, index) => {
      const raised = raiseAttribute(a, ctx, key);
      if (raised) attrs.push(raised);
      else unwritable.push({ index, attribute: toJson(AttributeProtoSchema, a, { useProtoFieldName: true }) });
    });
    if (unwritable.length) residual.put("@attributes", unwritable);
    if (attrs.length) node.attributes = { kind: "AttributeList", span: NO_SPAN, items: attrs };
    const lifted = liftAttributes(attrs, ctx);
    if (lifted) residual.put("@attr", lifted);
    node.attributesAfterInputs = attrs.some(isGraphValue);
  }
  ctx.attach(node, "node", residual);
  return node;
}

/** Raises a graph; `asAttribute` graphs need a bare name (they cannot be quoted there). */
export function raiseGraph(g: GraphProto, ctx: RaiseContext, asAttribute: boolean): A.Graph {
  const residual = new Residual().keep(GraphProtoSchema, g, ["doc_string", "sparse_initializer", "quantization_annotation", "metadata_props"]);
  const nameSet = isSet(GraphProtoSchema, g, "name");
  let graphName = g.name;
  if (!nameSet || (asAttribute && !isBareGraphName(g.name))) {
    graphName = "g";
    if (nameSet) residual.keep(GraphProtoSchema, g, ["name"]);
    else residual.clear("name");
  }
  const block = [...g.initializer.map((t) => raiseInitializer(t, ctx)), ...g.valueInfo.map((v) => raiseValueInfo(v, ctx))];
  const node: A.Graph = {
    kind: "Graph",
    span: NO_SPAN,
    name: asAttribute ? bareName(graphName) : name(graphName),
    inputs: valueDeclList(g.input.map((v) => raiseValueInfo(v, ctx))),
    outputs: valueDeclList(g.output.map((v) => raiseValueInfo(v, ctx))),
    ...(block.length ? { valueInfos: valueDeclList(block) } : {}),
    body: asAttribute ? { kind: "NodeBlock", span: NO_SPAN, nodes: g.node.map((n) => raiseNode(n, ctx)) } : ctx.lazyBlock(g.node, (n) => raiseNode(n, ctx)),
  };
  // A subgraph's residual goes with the statement whose attribute holds it.
  if (asAttribute) ctx.hold(node, residual);
  else ctx.attach(node, "graph", residual);
  return node;
}
