// Two models joined into one (what onnx.compose.merge_models makes): the second graph's inputs
// named in `ioMap` read the first graph's outputs; every other input and output stays. Prefixes
// keep the two models' names apart.
import { clone, create } from "@bufbuild/protobuf";
import { FunctionProtoSchema, type GraphProto, GraphProtoSchema, type ModelProto, ModelProtoSchema, type NodeProto } from "../../proto/src/index.js";
import { OnnxtxtError } from "./io/errors.js";
import { adoptModel } from "./clone.js";

/** Options of {@link composeModels}. */
export interface ComposeOptions {
  /** Put in front of every name of the first model (values, nodes, the graph), as onnx's prefix1. */
  readonly prefix1?: string;
  /** The same for the second model (prefix2). */
  readonly prefix2?: string;
}

/**
 * The model that runs `a`, then `b` with each `[aOutput, bInput]` pair of `ioMap` connected
 * (names as they are before prefixing). Both models must have the same IR version and agree on
 * the version of every operator domain they import. Neither input model is changed.
 */
export function composeModels(a: ModelProto, b: ModelProto, ioMap: readonly (readonly [string, string])[], options: ComposeOptions = {}): ModelProto {
  a = adoptModel(a);
  b = adoptModel(b);
  if (!a.graph || !b.graph) throw new OnnxtxtError("both models need a graph");
  if (a.irVersion !== b.irVersion) throw new OnnxtxtError(`the models have different IR versions (${a.irVersion} and ${b.irVersion})`);
  const opsets = new Map<string, bigint>();
  for (const o of [...a.opsetImport, ...b.opsetImport]) {
    const seen = opsets.get(o.domain);
    if (seen !== undefined && seen !== o.version)
      throw new OnnxtxtError(`the models import domain '${o.domain || "ai.onnx"}' at different versions (${seen} and ${o.version})`);
    opsets.set(o.domain, o.version);
  }
  const p1 = options.prefix1 ?? "";
  const p2 = options.prefix2 ?? "";
  const g1 = prefixed(a.graph, p1);
  const g2 = prefixed(b.graph, p2);
  const links = new Map(ioMap.map(([out, inp]) => [p2 + inp, p1 + out]));
  for (const [inp, out] of links) {
    if (!g1.output.some((o) => o.name === out)) throw new OnnxtxtError(`'${out}' is not an output of the first model`);
    if (!g2.input.some((i) => i.name === inp)) throw new OnnxtxtError(`'${inp}' is not an input of the second model`);
  }
  for (const n of g2.node) n.input = n.input.map((i) => links.get(i) ?? i);
  const linkedOuts = new Set(links.values());
  const graph = create(GraphProtoSchema, {
    name: `${g1.name}_${g2.name}`,
    node: [...g1.node, ...g2.node],
    input: [...g1.input, ...g2.input.filter((i) => !links.has(i.name))],
    output: [...g1.output.filter((o) => !linkedOuts.has(o.name)), ...g2.output],
    initializer: [...g1.initializer, ...g2.initializer.filter((t) => !links.has(t.name))],
    sparseInitializer: [...g1.sparseInitializer, ...g2.sparseInitializer],
    valueInfo: [...g1.valueInfo, ...g2.valueInfo.filter((v) => !links.has(v.name))],
  });
  const names = new Set<string>();
  for (const v of [...graph.input, ...graph.initializer]) names.add(v.name);
  for (const n of graph.node) {
    for (const o of n.output) {
      if (o && names.has(o)) throw new OnnxtxtError(`both models define '${o}'; give prefixes to keep them apart`);
      names.add(o);
    }
  }
  return create(ModelProtoSchema, {
    irVersion: a.irVersion,
    producerName: a.producerName,
    producerVersion: a.producerVersion,
    domain: a.domain,
    modelVersion: a.modelVersion,
    opsetImport: [...opsets].map(([domain, version]) => ({ domain, version })),
    functions: [...a.functions, ...b.functions].map((f) => clone(FunctionProtoSchema, f)),
    graph,
  });
}

/** A copy of `g` with `prefix` in front of every value and node name, in subgraphs too (empty names stay empty). */
function prefixed(g: GraphProto, prefix: string): GraphProto {
  const out = clone(GraphProtoSchema, g);
  if (prefix) renameGraph(out, (name) => (name ? prefix + name : name));
  return out;
}

function renameGraph(g: GraphProto, rename: (name: string) => string): void {
  g.name = rename(g.name);
  for (const v of [...g.input, ...g.output, ...g.valueInfo]) v.name = rename(v.name);
  for (const t of g.initializer) t.name = rename(t.name);
  for (const s of g.sparseInitializer) {
    if (s.values) s.values.name = rename(s.values.name);
    if (s.indices) s.indices.name = rename(s.indices.name);
  }
  for (const n of g.node) renameNode(n, rename);
}

function renameNode(n: NodeProto, rename: (name: string) => string): void {
  n.name = rename(n.name);
  n.input = n.input.map(rename);
  n.output = n.output.map(rename);
  for (const a of n.attribute) for (const sub of [a.g, ...a.graphs]) if (sub) renameGraph(sub, rename);
}
