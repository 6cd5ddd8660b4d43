// Tensor constants hold as many values as their shape says (onnx's runtime and onnxruntime
// refuse them otherwise): initializers, Constant values and every tensor attribute, in the
// main graph, subgraphs and function bodies. Data stored elsewhere (external) is not read here.
import {
  dataTypeInfo,
  rawByteLength,
  TensorProto_DataLocation,
  TensorProto_DataType as DT,
  type AttributeProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
} from "../../../proto/src/index.js";
import { ChildWhere, NodeWhere, type Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";

/** What the tensor stores and how many it must store (in `unit`); undefined when not checkable here. */
function storedAndExpected(t: TensorProto): { stored: number; expected: number; unit: string } | undefined {
  if (t.dataLocation === TensorProto_DataLocation.EXTERNAL || t.externalData.length > 0 || t.segment) return undefined;
  const info = dataTypeInfo(t.dataType);
  if (!info) return undefined;
  let count = 1;
  for (const d of t.dims) count *= Number(d);
  if (!Number.isSafeInteger(count) || count < 0) return undefined;
  if (t.rawData.length > 0) {
    const bytes = rawByteLength(t.dataType, count);
    return bytes === undefined ? undefined : { stored: t.rawData.length, expected: bytes, unit: "bytes" };
  }
  const stored = t[info.storage].length;
  // Types narrower than a byte are stored packed, one byte per stored int32.
  if (info.bits > 0 && info.bits < 8) return { stored, expected: rawByteLength(t.dataType, count)!, unit: "packed bytes" };
  const complex = t.dataType === DT.COMPLEX64 || t.dataType === DT.COMPLEX128 ? 2 : 1;
  return { stored, expected: count * complex, unit: "values" };
}

function checkTensor(t: TensorProto, where: Where, out: Emitter): void {
  const r = storedAndExpected(t);
  if (!r || r.stored === r.expected) return;
  const shape = `[${t.dims.join(",")}]`;
  out.emit("element-count", `tensor${t.name ? ` '${t.name}'` : ""} of shape ${shape} needs ${r.expected} ${r.unit} but holds ${r.stored}`, t, where, "whole");
}

function checkAttribute(a: AttributeProto, where: Where, out: Emitter): void {
  const at = new ChildWhere(where, "attribute", a.name);
  if (a.t) checkTensor(a.t, at, out);
  a.tensors.forEach((t, i) => checkTensor(t, `${at}[${i}]`, out));
  if (a.g) checkGraphTensors(a.g, at, out);
  a.graphs.forEach((g, i) => checkGraphTensors(g, `${at}[${i}]`, out));
}

function checkNodes(nodes: readonly NodeProto[], where: Where, out: Emitter): void {
  nodes.forEach((n, i) => {
    for (const a of n.attribute) checkAttribute(a, new NodeWhere(where, n, i), out);
  });
}

function checkGraphTensors(g: GraphProto, where: Where, out: Emitter): void {
  for (const t of g.initializer) checkTensor(t, new ChildWhere(where, "initializer", t.name), out);
  checkNodes(g.node, where, out);
}

export function checkModelTensors(model: ModelProto, out: Emitter): void {
  if (model.graph) checkGraphTensors(model.graph, `graph '${model.graph.name}'`, out);
  for (const f of model.functions) checkNodes(f.node, `function '${f.name}'`, out);
}
