// Models, graphs, functions, nodes and value infos (syntax doc §2.2-2.5, §2.8), with the
// presence rules of §2.9: names always set, node domain always set, header fields only if written.
import { create } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import {
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  ValueInfoProtoSchema,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type OperatorSetIdProto,
  type StringStringEntryProto,
  type TensorProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import { lowerAttribute, type AttrEnv } from "./attributes.js";
import type { LowerContext } from "./context.js";
import { messageFactory, nodeFactory } from "./messages.js";
import { lowerTensor } from "./tensors.js";
import { int64Of, lowerType } from "./types.js";
import { pushAll } from "../arrays.js";
import { finish, NODES_PER_STEP } from "../../../grammar/src/steps.js";

const newNode = nodeFactory();
const newValueInfo = messageFactory(ValueInfoProtoSchema);

export class Lowerer {
  private readonly env: AttrEnv;

  constructor(
    readonly cx: LowerContext,
    readonly text: string | undefined,
  ) {
    this.env = { cx, text, lowerGraph: (g) => this.graph(g) };
  }

  valueInfo(d: A.ValueDecl): ValueInfoProto {
    const vi = newValueInfo();
    vi.name = d.name?.value ?? "";
    if (d.type) vi.type = lowerType(d.type, this.cx);
    if (this.cx.mapping)
      this.cx.sourceMap.set(vi, { whole: d.span, ...(d.name && { name: d.name.span }), ...(d.type && { type: d.type.span, op: d.type.span }) });
    return vi;
  }

  initializer(d: A.ValueDecl): TensorProto | undefined {
    if (!d.type) {
      this.cx.error("bad-tensor", `initializer '${d.name?.value ?? ""}' needs a type, e.g. float[2] ${d.name?.value ?? "w"} = {1, 2}`, d.span);
      return undefined;
    }
    const t = lowerTensor({ type: d.type, name: d.name?.value ?? "", ...(d.init && { data: d.init }), span: d.span }, this.cx, this.text);
    if (t && this.cx.mapping)
      this.cx.sourceMap.set(t, { whole: d.span, ...(d.name && { name: d.name.span }), type: d.type.span, ...(d.init && { value: d.init.span }) });
    return t;
  }

  graph(g: A.Graph): GraphProto {
    return finish(this.graphSteps(g));
  }

  /** graph in steps: it pauses every NODES_PER_STEP nodes (a language server answers requests between). */
  *graphSteps(g: A.Graph): Generator<undefined, GraphProto, void> {
    const gp = create(GraphProtoSchema, { name: g.name?.value ?? "" });
    if (this.cx.mapping) this.cx.sourceMap.set(gp, { whole: g.span, ...(g.name && { name: g.name.span }) });
    const inits: TensorProto[] = [];
    for (const d of g.inputs?.items ?? []) {
      gp.input.push(this.valueInfo(d));
      if (d.init) {
        const t = this.initializer(d);
        if (t) inits.push(t);
      }
    }
    for (const d of g.outputs?.items ?? []) {
      if (d.init) this.cx.error("bad-tensor", "a graph output cannot have a value", d.init.span);
      gp.output.push(this.valueInfo(d));
    }
    for (const d of g.valueInfos?.items ?? []) {
      if (d.init) {
        const t = this.initializer(d);
        if (t) inits.push(t);
      } else gp.valueInfo.push(this.valueInfo(d));
    }
    gp.initializer = inits;
    const body = g.body?.nodes ?? [];
    const nodes: NodeProto[] = [];
    for (let i = 0; i < body.length; i++) {
      nodes.push(this.node(body[i]!));
      if (i % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
    }
    gp.node = nodes;
    return gp;
  }

  node(n: A.OpNode): NodeProto {
    const domain = n.op?.domain;
    const np = newNode({
      input: n.inputs ? names(n.inputs) : [],
      output: names(n.outputs),
      opType: n.op?.opType?.value ?? "",
      domain: !domain || domain.length === 0 ? "" : domain.length === 1 ? domain[0]!.value : domain.map((p) => p.value).join("."),
    });
    if (n.label) np.name = n.label.name?.value ?? "";
    if (n.op?.overload) np.overload = n.op.overload.value;
    if (n.attributes) for (const a of n.attributes.items) np.attribute.push(lowerAttribute(a, this.env));
    if (this.cx.mapping)
      this.cx.sourceMap.set(np, {
        whole: n.span,
        ...(n.label && { name: n.label.span }),
        ...(n.op && { op: n.op.span }),
        inputs: (n.inputs?.items ?? []).map((i) => i.span),
        outputs: n.outputs.items.map((o) => o.span),
      });
    return np;
  }

  /** A plain statement the parser handed over as its names (grammar's GraphStatementSink). */
  plainNode(output: string[], opType: string, input: string[]): NodeProto {
    return newNode({ input, output, opType, domain: "" });
  }

  function(f: A.FunctionDef): FunctionProto {
    const fp = create(FunctionProtoSchema, { name: f.name?.value ?? "" });
    if (this.cx.mapping) this.cx.sourceMap.set(fp, { whole: f.span, ...(f.name && { name: f.name.span }) });
    for (const e of f.header?.entries ?? []) {
      const v = e.value;
      switch (e.key.text) {
        case "domain":
          if (v?.kind === "Str") fp.domain = v.value;
          break;
        case "doc_string":
          if (v?.kind === "Str") fp.docString = v.value;
          break;
        case "overload":
          if (v?.kind === "Str") fp.overload = v.value;
          break;
        case "opset_import":
          if (v?.kind === "OpsetList") pushAll(fp.opsetImport, this.opsets(v));
          break;
      }
    }
    for (const p of f.params?.items ?? []) {
      if (p.kind === "Name") fp.attribute.push(p.value);
      else fp.attributeProto.push(lowerAttribute(p, this.env));
    }
    const typed: ValueInfoProto[] = [];
    for (const d of f.inputs?.items ?? []) {
      fp.input.push(d.name?.value ?? "");
      if (d.type) typed.push(this.valueInfo(d));
      if (d.init) this.cx.error("bad-tensor", "a function input cannot have a value", d.init.span);
    }
    for (const d of f.outputs?.items ?? []) {
      fp.output.push(d.name?.value ?? "");
      if (d.type) typed.push(this.valueInfo(d));
      if (d.init) this.cx.error("bad-tensor", "a function output cannot have a value", d.init.span);
    }
    for (const d of f.valueInfos?.items ?? []) {
      if (d.init) this.cx.error("bad-tensor", "a function value info cannot have a value", d.init.span);
      typed.push(this.valueInfo(d));
    }
    fp.valueInfo = typed;
    fp.node = (f.body?.nodes ?? []).map((n) => this.node(n));
    return fp;
  }

  opsets(list: A.OpsetList): OperatorSetIdProto[] {
    return list.items.map((o) => {
      const op = create(OperatorSetIdProtoSchema, {
        domain: o.domain?.value ?? "",
        version: o.version ? int64Of(o.version, this.cx, "the opset version") : 0n,
      });
      this.cx.sourceMap.set(op, { whole: o.span });
      return op;
    });
  }

  props(list: A.PropList): StringStringEntryProto[] {
    return list.items.map((p) => create(StringStringEntryProtoSchema, { key: p.key?.value ?? "", value: p.value?.value ?? "" }));
  }

  model(m: A.Model): ModelProto {
    return finish(this.modelSteps(m));
  }

  /** model in steps: the main graph's nodes a slice at a time (graphSteps). */
  *modelSteps(m: A.Model): Generator<undefined, ModelProto, void> {
    const mp = create(ModelProtoSchema, {});
    this.cx.sourceMap.set(mp, { whole: m.span });
    for (const e of m.header?.entries ?? []) {
      const v = e.value;
      switch (e.key.text) {
        case "ir_version":
          if (v?.kind === "Int") mp.irVersion = int64Of(v, this.cx, "ir_version");
          break;
        case "model_version":
          if (v?.kind === "Int") mp.modelVersion = int64Of(v, this.cx, "model_version");
          break;
        case "producer_name":
          if (v?.kind === "Str") mp.producerName = v.value;
          break;
        case "producer_version":
          if (v?.kind === "Str") mp.producerVersion = v.value;
          break;
        case "domain":
          if (v?.kind === "Str") mp.domain = v.value;
          break;
        case "doc_string":
          if (v?.kind === "Str") mp.docString = v.value;
          break;
        case "opset_import":
          if (v?.kind === "OpsetList") pushAll(mp.opsetImport, this.opsets(v));
          break;
        case "metadata_props":
          if (v?.kind === "PropList") pushAll(mp.metadataProps, this.props(v));
          break;
      }
    }
    if (m.graph) mp.graph = yield* this.graphSteps(m.graph);
    mp.functions = m.functions.map((f) => this.function(f));
    return mp;
  }
}

function nameOf(item: A.Name | A.Empty): string {
  return item.kind === "Name" ? item.value : "";
}

/** An id list's entries (an empty entry is ""), in an array of exactly their number. */
function names(list: A.IdList): string[] {
  const items = list.items;
  const out = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = nameOf(items[i]!);
  return out;
}
