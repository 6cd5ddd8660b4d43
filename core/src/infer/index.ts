// Type and shape inference over a whole model: `inferModel` computes the type of every value
// (and reports contradictions); `withInferredTypes` writes them into a copy of the model.
import { clone, create } from "@bufbuild/protobuf";
import { ModelProtoSchema, ValueInfoProtoSchema, type FunctionProto, type GraphProto, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import type { Diagnostic } from "../diagnostics.js";
import { copyNanBits } from "../io/nan-bits.js";
import { walkModel } from "../walk.js";
import type { SourceMap } from "../source-map.js";
import { canonicalDomain } from "../schema/index.js";
import { functionKey, inferGraphSteps, operatorTypes, type Env, type Scope } from "./engine.js";
import { finish } from "../../../grammar/src/steps.js";
import { Reporter } from "./location.js";
import { toTypeProto, type ValueType } from "./types.js";
import { adoptModel } from "../clone.js";

export * from "./types.js";
export { mergeTypes } from "./merge.js";
export { functionKey } from "./engine.js";

export interface InferOptions {
  readonly sourceMap?: SourceMap;
  /**
   * Nodes with errors of their own (an attribute of the wrong type, one that became an input):
   * nothing is inferred from them, so a contradiction further on is not reported before its cause.
   */
  readonly brokenNodes?: ReadonlySet<NodeProto>;
}

export interface InferResult {
  /** Every value of the main graph: inputs, initializers and node outputs (declared merged with inferred). */
  readonly types: ReadonlyMap<string, ValueType>;
  /** What the operators alone gave each node output of the main graph (declarations ignored). */
  readonly inferred: ReadonlyMap<string, ValueType>;
  /** The value types of every graph, subgraphs included. */
  readonly graphTypes: ReadonlyMap<GraphProto, ReadonlyMap<string, ValueType>>;
  readonly diagnostics: Diagnostic[];
  /** The main graph's final scope (types and folded constants), for incremental re-inference. */
  readonly scope?: Scope;
}

export function modelOpsets(model: ModelProto): Map<string, number> {
  return new Map(model.opsetImport.map((o) => [canonicalDomain(o.domain), Number(o.version)]));
}

export function modelFunctions(model: ModelProto): Map<string, FunctionProto> {
  return new Map(model.functions.map((f) => [functionKey(f.domain, f.name, f.overload), f]));
}

export function inferModel(model: ModelProto, options: InferOptions = {}): InferResult {
  return finish(inferModelSteps(model, options));
}

/** inferModel in steps (engine.ts's inferGraphSteps): a language server answers requests between them. */
export function* inferModelSteps(model: ModelProto, options: InferOptions = {}): Generator<undefined, InferResult, void> {
  model = adoptModel(model);
  const diagnostics: Diagnostic[] = [];
  const env: Env = {
    opsets: modelOpsets(model),
    functions: modelFunctions(model),
    reporter: new Reporter(options.sourceMap, diagnostics),
    graphTypes: new Map(),
    depth: 0,
    ...(options.brokenNodes && { broken: options.brokenNodes }),
  };
  if (!model.graph) return { types: new Map(), inferred: new Map(), graphTypes: env.graphTypes, diagnostics };
  const graph = model.graph;
  const { scope } = yield* inferGraphSteps(graph, env, undefined, `graph '${graph.name}'`);
  return inferResult(graph, scope, env.graphTypes, diagnostics);
}

/** The result for the main graph `g`; `inferred` is worked out on first use (few callers want it). */
export function inferResult(g: GraphProto, scope: Scope, graphTypes: InferResult["graphTypes"], diagnostics: Diagnostic[]): InferResult {
  let inferred: Map<string, ValueType> | undefined;
  return {
    types: scope.types,
    get inferred() {
      return (inferred ??= operatorTypes(g, scope));
    },
    graphTypes,
    diagnostics,
    scope,
  };
}

/** A copy of the model whose graphs carry a value_info for every intermediate value and typed outputs. */
export function withInferredTypes(model: ModelProto, result: InferResult): ModelProto {
  const out = clone(ModelProtoSchema, model);
  copyNanBits(ModelProtoSchema, model, out); // NaN payloads survive the copy
  // The clone has new graph objects: pair them with the originals by walking both in step.
  const originals: GraphProto[] = [];
  const copies: GraphProto[] = [];
  walkModel(model, { graph: (g) => void originals.push(g) });
  walkModel(out, { graph: (g) => void copies.push(g) });
  copies.forEach((g, i) => {
    const types = result.graphTypes.get(originals[i]!);
    if (types) annotateGraph(g, types);
  });
  return out;
}

function annotateGraph(g: GraphProto, types: ReadonlyMap<string, ValueType>): void {
  const inputs = new Set(g.input.map((vi) => vi.name));
  const outputs = new Set(g.output.map((vi) => vi.name));
  const initializers = new Set(g.initializer.map((t) => t.name));
  for (const vi of g.output) {
    const t = types.get(vi.name);
    if (t) vi.type = toTypeProto(t);
  }
  const described = new Set(g.valueInfo.map((vi) => vi.name));
  for (const vi of g.valueInfo) {
    const t = types.get(vi.name);
    if (t) vi.type = toTypeProto(t);
  }
  for (const node of g.node) {
    for (const name of node.output) {
      if (name === "" || inputs.has(name) || outputs.has(name) || initializers.has(name) || described.has(name)) continue;
      const t = types.get(name);
      if (!t) continue;
      g.valueInfo.push(create(ValueInfoProtoSchema, { name, type: toTypeProto(t) }));
      described.add(name);
    }
  }
}
