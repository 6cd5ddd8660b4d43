// Visits every graph and tensor that a model holds, including subgraphs in attributes,
// function bodies and training info. Used wherever a pass must reach all of them.
import type { AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto } from "../../proto/src/index.js";

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

function walkNodes(nodes: readonly NodeProto[], v: ModelVisitor): void {
  for (const n of nodes) for (const a of n.attribute) walkAttribute(a, v);
}

function walkAttribute(a: AttributeProto, v: ModelVisitor): void {
  if (a.t) v.tensor?.(a.t);
  for (const t of a.tensors) v.tensor?.(t);
  for (const s of [a.sparseTensor, ...a.sparseTensors]) {
    if (s?.values) v.tensor?.(s.values);
    if (s?.indices) v.tensor?.(s.indices);
  }
  if (a.g) walkGraph(a.g, v);
  for (const g of a.graphs) walkGraph(g, v);
}
