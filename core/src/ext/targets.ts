// Pairs each extensible AST node with the message lowering built from it, by walking the
// tree and the model side by side in the order lowering fills them (see lower/structure.ts).
import type * as A from "../../../grammar/src/ast.js";
import type { AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto } from "../../../proto/src/index.js";

export type Target =
  | { kind: "graph"; ast: A.Graph; msg: GraphProto }
  | { kind: "function"; ast: A.FunctionDef; msg: FunctionProto }
  | { kind: "node"; ast: A.OpNode; msg: NodeProto }
  | { kind: "attr"; ast: A.Attribute; msg: AttributeProto }
  | { kind: "value"; ast: A.ValueDecl; msg: ValueInfoProto }
  | { kind: "tensor"; ast: A.ValueDecl | A.TensorValue; msg: TensorProto; inAttribute: boolean; at?: string };

/** How the file-level residual names a single attribute tensor: first output and attribute name. */
function attrTensorKey(output: string, attr: string): string {
  return JSON.stringify([output, attr]);
}

/** The node's first output name (how the file-level residual names a node), if written. */
export function firstOutput(n: A.OpNode): string | undefined {
  const f = n.outputs.items[0];
  return f?.kind === "Name" && f.value !== "" ? f.value : undefined;
}

class Collector {
  readonly out: Target[] = [];

  graph(g: A.Graph, gp: GraphProto): void {
    this.out.push({ kind: "graph", ast: g, msg: gp });
    const inits: A.ValueDecl[] = [];
    (g.inputs?.items ?? []).forEach((d, i) => {
      const vi = gp.input[i];
      if (vi) this.out.push({ kind: "value", ast: d, msg: vi });
      if (d.init) inits.push(d);
    });
    (g.outputs?.items ?? []).forEach((d, i) => {
      const vi = gp.output[i];
      if (vi) this.out.push({ kind: "value", ast: d, msg: vi });
    });
    let v = 0;
    for (const d of g.valueInfos?.items ?? []) {
      if (d.init) inits.push(d);
      else {
        const vi = gp.valueInfo[v++];
        if (vi) this.out.push({ kind: "value", ast: d, msg: vi });
      }
    }
    inits.forEach((d, i) => {
      const t = gp.initializer[i];
      if (t) this.out.push({ kind: "tensor", ast: d, msg: t, inAttribute: false });
    });
    this.nodes(g.body?.nodes ?? [], gp.node);
  }

  nodes(nodes: readonly A.OpNode[], protos: readonly NodeProto[]): void {
    nodes.forEach((n, i) => {
      const np = protos[i];
      if (!np) return;
      this.out.push({ kind: "node", ast: n, msg: np });
      const first = firstOutput(n);
      (n.attributes?.items ?? []).forEach((a, j) => {
        const ap = np.attribute[j];
        if (ap) this.attribute(a, ap, first && a.name ? attrTensorKey(first, a.name.value) : undefined);
      });
    });
  }

  attribute(a: A.Attribute, ap: AttributeProto, at?: string): void {
    this.out.push({ kind: "attr", ast: a, msg: ap });
    const v = a.value;
    if (v?.kind === "Graph" && ap.g) this.graph(v, ap.g);
    else if (v?.kind === "TensorValue" && ap.t) this.out.push({ kind: "tensor", ast: v, msg: ap.t, inAttribute: true, ...(at !== undefined && { at }) });
    else if (v?.kind === "List") {
      let g = 0;
      let t = 0;
      for (const item of v.items) {
        if (item.kind === "Graph" && ap.graphs[g]) this.graph(item, ap.graphs[g++]!);
        else if (item.kind === "TensorValue" && ap.tensors[t]) this.out.push({ kind: "tensor", ast: item, msg: ap.tensors[t++]!, inAttribute: true });
      }
    }
  }

  func(f: A.FunctionDef, fp: FunctionProto): void {
    this.out.push({ kind: "function", ast: f, msg: fp });
    const typed = [...(f.inputs?.items ?? []), ...(f.outputs?.items ?? [])].filter((d) => d.type);
    [...typed, ...(f.valueInfos?.items ?? [])].forEach((d, i) => {
      const vi = fp.valueInfo[i];
      if (vi) this.out.push({ kind: "value", ast: d, msg: vi });
    });
    let k = 0;
    for (const p of f.params?.items ?? []) {
      if (p.kind === "Attribute" && fp.attributeProto[k]) this.attribute(p, fp.attributeProto[k++]!);
    }
    this.nodes(f.body?.nodes ?? [], fp.node);
  }
}

/** Every extensible element of the model with the message built from it. */
export function collectTargets(ast: A.Model, model: ModelProto): Target[] {
  const c = new Collector();
  if (ast.graph && model.graph) c.graph(ast.graph, model.graph);
  ast.functions.forEach((f, i) => {
    const fp = model.functions[i];
    if (fp) c.func(f, fp);
  });
  return c.out;
}

/** The targets of one node statement and what it holds (an edited statement lowered alone). */
export function collectNodeTargets(node: A.OpNode, proto: NodeProto): Target[] {
  const c = new Collector();
  c.nodes([node], [proto]);
  return c.out;
}
