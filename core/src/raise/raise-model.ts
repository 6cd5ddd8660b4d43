// ModelProto -> the AST the parser would build for the same model, plus the extension
// comments for what the official syntax cannot say. Entry point of raise/.
import type * as A from "../../../grammar/src/ast.js";
import {
  FunctionProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  TensorProtoSchema,
  type FunctionProto,
  type ModelProto,
  type NodeProto,
  type OperatorSetIdProto,
  type StringStringEntryProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { isSet } from "../ext/fields.js";
import { walkModel } from "../walk.js";
import { int, keyword, name, NO_SPAN, propList, str, valueDeclList } from "./ast-build.js";
import { RaiseContext, type ModelDefaults } from "./context.js";
import { fieldsOf, has } from "./presence.js";
import { raiseAttribute } from "./raise-attribute.js";
import { raiseGraph, raiseNode, raiseValueInfo } from "./raise-graph.js";
import { liftAttributes } from "./lift.js";
import { Residual } from "./residual.js";
import { canBeRaw } from "./tensor-data.js";
import { fileExceptions } from "./file-exceptions.js";
import type { LazyNodes } from "../print/printer.js";

interface RaisedModel {
  /** The model without the statements of its main graph and functions: see `lazyBodies`. */
  readonly ast: A.Model;
  /** The statements of those blocks, raised one at a time as the printer reaches them. */
  readonly lazyBodies: ReadonlyMap<A.NodeBlock, LazyNodes>;
  /**
   * Extension comment lines (text after `#`) to print before each AST node; those of lazily
   * raised statements are added as they are raised.
   */
  readonly leading: ReadonlyMap<A.AstNode, readonly string[]>;
  /** With `plain`: the residual data left out (`#@KIND key` -> how many elements); complete after printing. */
  readonly dropped: ReadonlyMap<string, number>;
  /** After printing: throws if the statements raised did not match the file-level residual printed before them. */
  readonly verify: () => void;
}

const NODE_DOMAIN = fieldsOf(NodeProtoSchema, ["domain"]);
const TENSOR_FIELDS = fieldsOf(TensorProtoSchema, ["name", "data_location", "raw_data"]);

/**
 * Picks the presence defaults that most elements of this model follow; `exceptions` is false
 * when every node and attribute tensor follows them (then there is no file-level list to find).
 */
function chooseDefaults(model: ModelProto): { defaults: ModelDefaults; exceptions: boolean } {
  let domainUnset = 0;
  let domainEmpty = 0;
  const storage = { raw: 0, typed: 0, attrRaw: 0, attrTyped: 0 };
  const nameCount = { unset: 0, empty: 0 };
  const inAttributes = new Set<TensorProto>();
  const countNodes = (nodes: readonly NodeProto[]): void => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      if (!has(n, NODE_DOMAIN)) domainUnset++;
      else if (n.domain === "") domainEmpty++;
      if (n.attribute.length === 0) continue;
      for (const a of n.attribute) {
        if (a.t) inAttributes.add(a.t);
        for (const t of a.tensors) inAttributes.add(t);
        if (!a.t) continue;
        if (!has(a.t, TENSOR_FIELDS, 0)) nameCount.unset++;
        else if (a.t.name === "") nameCount.empty++;
      }
    }
  };
  for (const f of model.functions) countNodes(f.node);
  walkModel(model, {
    graph(g) {
      countNodes(g.node);
    },
    tensor(t) {
      if (!canBeRaw(t.dataType) || has(t, TENSOR_FIELDS, 1)) return;
      const raw = has(t, TENSOR_FIELDS, 2);
      if (inAttributes.has(t)) storage[raw ? "attrRaw" : "attrTyped"]++;
      else storage[raw ? "raw" : "typed"]++;
    },
  });
  const defaults: ModelDefaults = {
    nodeDomainUnset: domainUnset > domainEmpty,
    tensorNameUnset: nameCount.unset > nameCount.empty,
    rawStorage: storage.raw > storage.typed,
    attrRawStorage: storage.attrRaw > storage.attrTyped,
    uniqueFirstOutput: firstOutputCounter(model),
  };
  // (counted over every node and attribute tensor: more than the exceptions can come from)
  const exceptions = Math.min(domainUnset, domainEmpty) > 0 || Math.min(nameCount.unset, nameCount.empty) > 0;
  return { defaults, exceptions };
}

/** Counts the nodes by first output (every graph and function body) when first asked. */
function firstOutputCounter(model: ModelProto): (name: string) => boolean {
  let counts: Map<string, number> | undefined;
  const countAll = (): Map<string, number> => {
    const found = new Map<string, number>();
    const count = (nodes: readonly NodeProto[]): void => {
      for (const n of nodes) {
        const first = n.output[0];
        if (first) found.set(first, (found.get(first) ?? 0) + 1);
      }
    };
    for (const f of model.functions) count(f.node);
    walkModel(model, { graph: (g) => count(g.node) });
    return found;
  };
  return (name) => (counts ??= countAll()).get(name) === 1;
}

function entry(key: string, value: A.HeaderEntry["value"]): A.HeaderEntry {
  return { kind: "HeaderEntry", span: NO_SPAN, key: keyword(key), ...(value ? { value } : {}) };
}

/**
 * The text writes every entry of an opset or metadata list with both fields (an unset one as
 * `""` or `0`, what the official parser reads anyway); only which fields were absent goes to
 * the residual: `{"INDEX": ["domain"]}`.
 */
function unsetEntries(list: readonly (OperatorSetIdProto | StringStringEntryProto)[], opset: boolean): Record<string, string[]> | undefined {
  let out: Record<string, string[]> | undefined;
  const [schema, fields] = opset ? [OperatorSetIdProtoSchema, ["domain", "version"]] : [StringStringEntryProtoSchema, ["key", "value"]];
  list.forEach((e, i) => {
    const unset = fields.filter((f) => !isSet(schema, e, f));
    if (unset.length) (out ??= {})[i] = unset;
  });
  return out;
}

function putUnset(residual: Residual, key: "@opset_unset" | "@metadata_unset", unset: Record<string, string[]> | undefined): void {
  if (unset) residual.put(key, unset);
}

function opsetList(list: readonly OperatorSetIdProto[]): A.OpsetList {
  return { kind: "OpsetList", span: NO_SPAN, items: list.map((o) => ({ kind: "OpsetEntry", span: NO_SPAN, domain: str(o.domain), version: int(o.version) })) };
}

function header(entries: A.HeaderEntry[]): A.Header | undefined {
  return entries.length ? { kind: "Header", span: NO_SPAN, entries } : undefined;
}

export function raiseFunction(f: FunctionProto, ctx: RaiseContext): A.FunctionDef {
  const residual = new Residual().keep(FunctionProtoSchema, f, ["metadata_props"]);
  const entries: A.HeaderEntry[] = [];
  if (isSet(FunctionProtoSchema, f, "domain")) entries.push(entry("domain", str(f.domain)));
  if (isSet(FunctionProtoSchema, f, "overload")) entries.push(entry("overload", str(f.overload)));
  if (f.opsetImport.length) {
    entries.push(entry("opset_import", opsetList(f.opsetImport)));
    putUnset(residual, "@opset_unset", unsetEntries(f.opsetImport, true));
  }
  if (isSet(FunctionProtoSchema, f, "doc_string")) entries.push(entry("doc_string", str(f.docString)));
  if (!isSet(FunctionProtoSchema, f, "name")) residual.clear("name");
  const params: (A.Name | A.Attribute)[] = f.attribute.map(name);
  const defaults = f.attributeProto.map((a) => raiseAttribute(a, ctx));
  if (defaults.every((d) => d !== undefined)) {
    params.push(...(defaults as A.Attribute[]));
    const lifted = liftAttributes(defaults as A.Attribute[], ctx);
    if (lifted) residual.put("@attr", lifted);
  } else {
    for (const d of defaults) if (d) liftAttributes([d], ctx); // (dropped: the residual keeps them all)
    residual.keep(FunctionProtoSchema, f, ["attribute_proto"]);
  }
  const untyped = (names: readonly string[]): A.ValueDeclList => valueDeclList(names.map((n) => ({ kind: "ValueDecl", span: NO_SPAN, name: name(n) })));
  const h = header(entries);
  const node: A.FunctionDef = {
    kind: "Function",
    span: NO_SPAN,
    ...(h ? { header: h } : {}),
    name: name(f.name),
    ...(params.length ? { params: { kind: "ParamList", span: NO_SPAN, items: params } } : {}),
    inputs: untyped(f.input),
    outputs: untyped(f.output),
    ...(f.valueInfo.length ? { valueInfos: valueDeclList(f.valueInfo.map((v) => raiseValueInfo(v, ctx))) } : {}),
    body: ctx.lazyBlock(f.node, (n) => raiseNode(n, ctx)),
  };
  ctx.attach(node, "function", residual);
  return node;
}

function modelHeader(m: ModelProto, residual: Residual): A.Header | undefined {
  const entries: A.HeaderEntry[] = [];
  const has = (f: string): boolean => isSet(ModelProtoSchema, m, f);
  if (has("ir_version")) entries.push(entry("ir_version", int(m.irVersion)));
  if (m.opsetImport.length) {
    entries.push(entry("opset_import", opsetList(m.opsetImport)));
    putUnset(residual, "@opset_unset", unsetEntries(m.opsetImport, true));
  }
  if (has("producer_name")) entries.push(entry("producer_name", str(m.producerName)));
  if (has("producer_version")) entries.push(entry("producer_version", str(m.producerVersion)));
  if (has("domain")) entries.push(entry("domain", str(m.domain)));
  if (has("model_version")) entries.push(entry("model_version", int(m.modelVersion)));
  if (has("doc_string")) entries.push(entry("doc_string", str(m.docString)));
  if (m.metadataProps.length) {
    entries.push(entry("metadata_props", propList(m.metadataProps)));
    putUnset(residual, "@metadata_unset", unsetEntries(m.metadataProps, false));
  }
  return header(entries);
}

/**
 * `plain`: no residual comments at all (for reading and diffs); what they would hold is counted.
 * `fastStatements: false`: every statement goes through the AST (to test the fast path against).
 */
export function raiseModel(model: ModelProto, plain = false, options: { fastStatements?: boolean } = {}): RaisedModel {
  const { defaults, exceptions } = chooseDefaults(model);
  const ctx = new RaiseContext(defaults, { plain, ...options });
  const residual = new Residual();
  if (defaults.nodeDomainUnset) residual.put("@node_domain", "unset");
  if (defaults.tensorNameUnset) residual.put("@tensor_name", "unset");
  if (defaults.rawStorage) residual.put("@storage", "raw");
  if (defaults.attrRawStorage) residual.put("@attr_storage", "raw");
  residual.keep(ModelProtoSchema, model, ["training_info", "configuration"]);
  const h = modelHeader(model, residual);
  if (!model.graph) residual.clear("graph");
  const graph = model.graph
    ? raiseGraph(model.graph, ctx, false)
    : ({
        kind: "Graph",
        span: NO_SPAN,
        name: name("g"),
        inputs: valueDeclList([]),
        outputs: valueDeclList([]),
        body: { kind: "NodeBlock", span: NO_SPAN, nodes: [] },
      } satisfies A.Graph);
  const ast: A.Model = { kind: "Model", span: NO_SPAN, ...(h ? { header: h } : {}), graph, functions: model.functions.map((f) => raiseFunction(f, ctx)) };
  const expected = exceptions ? fileExceptions(model, defaults) : { domain: [], tensorName: [] };
  if (expected.domain.length) residual.put("@node_domain_except", expected.domain);
  if (expected.tensorName.length) residual.put("@tensor_name_except", expected.tensorName);
  ctx.attach(ast, "model", residual);
  const verify = (): void => {
    const met = JSON.stringify([ctx.domainExcept, ctx.tensorNameExcept]);
    if (met !== JSON.stringify([expected.domain, expected.tensorName]))
      throw new Error("internal error: the file-level residual printed does not match the statements raised after it");
  };
  return { ast, lazyBodies: ctx.lazyBodies, leading: ctx.leading, dropped: ctx.dropped, verify };
}
