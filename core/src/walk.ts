// Visits every graph and tensor that a model holds, including subgraphs in attributes,
// function bodies and training info. Used wherever a pass must reach all of them.
import type { AttributeProto, GraphProto, ModelProto, NodeProto, SparseTensorProto, TensorProto } from "../../proto/src/index.js";

interface ModelVisitor {
  graph?(g: GraphProto): void;
  tensor?(t: TensorProto): void;
}

export function walkModel(model: ModelProto, v: ModelVisitor): void {
  if (model.graph) walkGraph(model.graph, v);
  for (const f of model.functions) walkNodes(f.node, v);
  for (const ti of model.trainingInfo) {
    if (ti.initialization) walkGraph(ti.initialization, v);
    if (ti.algorithm) walkGraph(ti.algorithm, v);
  }
}

function walkGraph(g: GraphProto, v: ModelVisitor): void {
  v.graph?.(g);
  for (const t of g.initializer) v.tensor?.(t);
  for (const s of g.sparseInitializer) {
    if (s.values) v.tensor?.(s.values);
    if (s.indices) v.tensor?.(s.indices);
  }
  walkNodes(g.node, v);
}

// Indexed loops and no array per attribute: a 50k-node graph is walked in a process's cold code.
function walkNodes(nodes: readonly NodeProto[], v: ModelVisitor): void {
  for (let i = 0; i < nodes.length; i++) {
    const attrs = nodes[i]!.attribute;
    for (let k = 0; k < attrs.length; k++) walkAttribute(attrs[k]!, v);
  }
}

function walkSparse(s: SparseTensorProto | undefined, v: ModelVisitor): void {
  if (s?.values) v.tensor?.(s.values);
  if (s?.indices) v.tensor?.(s.indices);
}

function walkAttribute(a: AttributeProto, v: ModelVisitor): void {
  if (a.t) v.tensor?.(a.t);
  for (const t of a.tensors) v.tensor?.(t);
  walkSparse(a.sparseTensor, v);
  for (const s of a.sparseTensors) walkSparse(s, v);
  if (a.g) walkGraph(a.g, v);
  for (const g of a.graphs) walkGraph(g, v);
}
