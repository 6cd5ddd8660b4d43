// A sub-model between given values (what onnx.utils.extract_model makes): the nodes that the
// outputs need back to the inputs, in their original order, with the initializers, value types
// and local functions they use. Types of intermediate values come from shape inference.
import { clone, create } from "@bufbuild/protobuf";
import {
  type FunctionProto,
  FunctionProtoSchema,
  GraphProtoSchema,
  type ModelProto,
  ModelProtoSchema,
  type NodeProto,
  NodeProtoSchema,
  TensorProtoSchema,
  type ValueInfoProto,
  ValueInfoProtoSchema,
} from "../../proto/src/index.js";
import { inferModel, withInferredTypes } from "./infer/index.js";
import { OnnxtxtError } from "./io/errors.js";
import { adoptModel } from "./clone.js";

/**
 * The part of `model` that computes `outputNames` from `inputNames`, as a new model (the original
 * is not changed). Every input and output must have a type in the model or from shape inference.
 * Throws {@link OnnxtxtError} when a name is not a value of the main graph.
 */
export function extractModel(model: ModelProto, inputNames: readonly string[], outputNames: readonly string[]): ModelProto {
  model = adoptModel(model);
  const graph = model.graph;
  if (!graph) throw new OnnxtxtError("the model has no graph");
  const typed = withInferredTypes(model, inferModel(model)).graph!;
  const infos = new Map<string, ValueInfoProto>();
  for (const vi of [...typed.valueInfo, ...typed.output, ...typed.input]) infos.set(vi.name, vi);
  const producer = new Map<string, NodeProto>();
  for (const n of graph.node) for (const o of n.output) if (o) producer.set(o, n);
  const inits = new Map(graph.initializer.map((t) => [t.name, t]));

  const stop = new Set(inputNames);
  const reached = new Set<NodeProto>();
  const pending = [...outputNames];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (stop.has(name)) continue;
    const n = producer.get(name);
    if (!n || reached.has(n)) continue;
    reached.add(n);
    pending.push(...n.input.filter((i) => i !== ""), ...outerNames(n));
  }
  const nodes = graph.node.filter((n) => reached.has(n));
  const used = new Set<string>();
  for (const n of nodes) for (const name of [...n.input, ...n.output, ...outerNames(n)]) used.add(name);

  const io = (names: readonly string[], what: string) =>
    names.map((name) => {
      const vi = infos.get(name);
      if (!vi) {
        const known = inits.has(name) || producer.has(name);
        throw new OnnxtxtError(`${what} '${name}' ${known ? "has no type (shape inference gave none)" : "is not a value of the main graph"}`);
      }
      return clone(ValueInfoProtoSchema, vi);
    });
  const inputs = io(inputNames, "input");
  const outputs = io(outputNames, "output");
  const boundary = new Set([...inputNames, ...outputNames]);

  const out = create(ModelProtoSchema, {
    irVersion: model.irVersion,
    opsetImport: model.opsetImport.map((o) => ({ ...o })),
    producerName: model.producerName,
    producerVersion: model.producerVersion,
    domain: model.domain,
    modelVersion: model.modelVersion,
    functions: referredFunctions(model.functions, nodes).map((f) => clone(FunctionProtoSchema, f)),
    graph: create(GraphProtoSchema, {
      name: `Extracted from {${graph.name}}`,
      node: nodes.map((n) => clone(NodeProtoSchema, n)),
      input: inputs,
      output: outputs,
      initializer: graph.initializer.filter((t) => used.has(t.name)).map((t) => clone(TensorProtoSchema, t)),
      valueInfo: [...infos.values()].filter((vi) => used.has(vi.name) && !boundary.has(vi.name)).map((vi) => clone(ValueInfoProtoSchema, vi)),
    }),
  });
  return out;
}

/** Names a node's subgraphs read from the enclosing scopes (they are inputs of the node too). */
function outerNames(n: NodeProto): string[] {
  const names: string[] = [];
  for (const a of n.attribute) {
    for (const g of [a.g, ...a.graphs]) {
      if (!g) continue;
      const local = new Set([...g.input.map((i) => i.name), ...g.initializer.map((t) => t.name)]);
      for (const m of g.node) {
        for (const i of [...m.input, ...outerNames(m)]) if (i && !local.has(i)) names.push(i);
        for (const o of m.output) local.add(o);
      }
    }
  }
  return names;
}

/** The model-local functions the nodes call, and those those functions call, transitively. */
function referredFunctions(functions: readonly FunctionProto[], nodes: readonly NodeProto[]): FunctionProto[] {
  const found: FunctionProto[] = [];
  let frontier: readonly NodeProto[] = nodes;
  while (frontier.length > 0) {
    const next: NodeProto[] = [];
    for (const n of frontier) {
      const f = functions.find((g) => g.name === n.opType && g.domain === n.domain && (g.overload ?? "") === (n.overload ?? ""));
      if (f && !found.includes(f)) {
        found.push(f);
        next.push(...f.node);
      }
    }
    frontier = next;
  }
  return functions.filter((f) => found.includes(f));
}
