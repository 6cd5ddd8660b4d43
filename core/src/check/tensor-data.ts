// Tensor constants have a known element type and hold as many values as their shape says (onnx's runtime and onnxruntime
// refuse them otherwise): initializers, Constant values and every tensor attribute, in the
// main graph, subgraphs and function bodies. Data stored elsewhere (external) is not read here.
import {
  dataTypeInfo,
  TensorProto_DataLocation,
  TensorProto_DataType as DT,
  type AttributeProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { elementCountProblem } from "../element-count.js";
import { ChildWhere, NodeWhere, type Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";

/** onnx's checker refuses UNDEFINED always, and an unknown id unless the data is external. */
function badDataType(t: TensorProto): boolean {
  if (t.dataType === DT.UNDEFINED) return true;
  return !dataTypeInfo(t.dataType) && t.dataLocation !== TensorProto_DataLocation.EXTERNAL;
}

/** `at`: the element the source map knows (an attribute tensor is reported at its attribute). */
function checkTensor(t: TensorProto, where: Where, out: Emitter, at: object = t): void {
  if (badDataType(t)) {
    const what = t.dataType === DT.UNDEFINED ? "UNDEFINED" : `${t.dataType}, which is no known element type`;
    out.emit("tensor-data-type", `tensor${t.name ? ` '${t.name}'` : ""} has data_type ${what}`, at, where, "whole");
    return;
  }
  const problem = elementCountProblem(t);
  if (problem) out.emit("element-count", problem, at, where, "whole");
}

function checkAttribute(a: AttributeProto, where: Where, out: Emitter): void {
  const at = new ChildWhere(where, "attribute", a.name);
  if (a.t) checkTensor(a.t, at, out, a);
  a.tensors.forEach((t, i) => checkTensor(t, `${at}[${i}]`, out, a));
  if (a.g) checkGraphTensors(a.g, at, out);
  a.graphs.forEach((g, i) => checkGraphTensors(g, `${at}[${i}]`, out));
}

function checkNodes(nodes: readonly NodeProto[], where: Where, out: Emitter): void {
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    for (let k = 0; k < n.attribute.length; k++) checkAttribute(n.attribute[k]!, new NodeWhere(where, n, i), out);
  }
}

function checkGraphTensors(g: GraphProto, where: Where, out: Emitter): void {
  for (const t of g.initializer) checkTensor(t, new ChildWhere(where, "initializer", t.name), out);
  checkNodes(g.node, where, out);
}

export function checkModelTensors(model: ModelProto, out: Emitter): void {
  if (model.graph) checkGraphTensors(model.graph, `graph '${model.graph.name}'`, out);
  for (const f of model.functions) checkNodes(f.node, `function '${f.name}'`, out);
}
