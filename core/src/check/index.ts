// The model checker: structure (names, scopes, order), opsets and schemas, then the type and
// shape contradictions that inference finds. Works on binary models (locations as paths in
// `where`) and on models lowered from text (ranges through the source map).
import { create } from "@bufbuild/protobuf";
import { dataTypeInfo } from "../../../proto/src/data-types.js";
import {
  GraphProtoSchema,
  ValueInfoProtoSchema,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import type { Diagnostic } from "../diagnostics.js";
import { inferModelSteps, modelFunctions, modelOpsets, type InferResult } from "../infer/index.js";
import { ChildWhere, type Where } from "../infer/location.js";
import { canonicalDomain } from "../schema/index.js";
import type { SourceMap } from "../source-map.js";
import { Emitter } from "./emit.js";
import { checkNode, type NodeEnv } from "./nodes.js";
import { StructureChecker } from "./structure.js";
import { checkModelTensors } from "./tensor-data.js";
import { IdentityChains } from "./identity-chain.js";
import { checkFloat64Constants } from "./float64-constant.js";
import { checkUnusedFunctionValueInfos, checkUnusedValueInfos } from "./unused-value-info.js";
import { pushAll } from "../arrays.js";
import { adoptModel } from "../clone.js";
import { finish } from "../../../grammar/src/steps.js";

export { CHECK_CODES, CODE_GROUPS, type CheckCode, type CodeGroup } from "./codes.js";

export interface CheckOptions {
  readonly sourceMap?: SourceMap;
  /** Leave out warnings (unused values and the like). */
  readonly errorsOnly?: boolean;
  /** An inference result the caller already has for this model (saves running it again). */
  readonly inference?: Pick<InferResult, "diagnostics">;
  /** Add "did you mean" to undefined names (the CLI; the editor has quick fixes for them). */
  readonly suggestNames?: boolean;
}

export function checkModel(model: ModelProto, options: CheckOptions = {}): Diagnostic[] {
  return finish(checkModelSteps(model, options));
}

/** checkModel in steps (the main graph's nodes a slice at a time): a language server answers requests between them. */
export function* checkModelSteps(model: ModelProto, options: CheckOptions = {}): Generator<undefined, Diagnostic[], void> {
  model = adoptModel(model);
  const diagnostics: Diagnostic[] = [];
  const out = new Emitter(options.sourceMap, diagnostics);
  const opsets = modelOpsets(model);
  const functions = modelFunctions(model);
  const seen = new Set<string>();
  for (const o of model.opsetImport) {
    const d = canonicalDomain(o.domain);
    if (seen.has(d)) out.emit("duplicate-opset-import", `domain '${d || "ai.onnx"}' is imported more than once`, o, `opset_import '${d || "ai.onnx"}'`);
    seen.add(d);
  }
  const env: NodeEnv = { opsets, functions };
  const broken = new Set<NodeProto>();
  if (!model.graph) out.emit("missing-graph", "the model has no graph", model, "model");
  else {
    // Identity chains, float64 constants and unused value infos are warnings only: not looked for with errorsOnly.
    const chains = options.errorsOnly ? undefined : new IdentityChains();
    const onNode = (node: NodeProto, where: Where): void => {
      const before = diagnostics.length;
      checkNode(node, where, env, out);
      chains?.visit(node, where, out);
      for (let i = before; i < diagnostics.length; i++) if (diagnostics[i]!.severity === "error") broken.add(node);
    };
    yield* new StructureChecker(out, onNode, model.irVersion >= 4n, options.suggestNames ?? false).checkGraphSteps(model.graph, `graph '${model.graph.name}'`);
  }
  if (model.graph) checkSignatureShapes(model.graph, out);
  if (model.graph && !options.errorsOnly) checkFloat64Constants(model.graph, `graph '${model.graph.name}'`, out);
  if (model.graph && !options.errorsOnly) checkUnusedValueInfos(model.graph, `graph '${model.graph.name}'`, out);
  checkModelTensors(model, out);
  for (const fn of model.functions) {
    checkFunction(fn, opsets, functions, out, options.sourceMap);
    if (!options.errorsOnly) checkUnusedFunctionValueInfos(fn, `function '${fn.domain ? `${fn.domain}.` : ""}${fn.name}'`, out);
  }
  if (model.graph)
    pushAll(
      diagnostics,
      (options.inference ?? (yield* inferModelSteps(model, { ...(options.sourceMap && { sourceMap: options.sourceMap }), brokenNodes: broken }))).diagnostics,
    );
  const kept = options.errorsOnly ? diagnostics.filter((d) => d.severity === "error") : diagnostics;
  return kept.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
}

/**
 * The IR spec requires the main graph's inputs and outputs to have a shape, at least a rank, and
 * onnx's checker rejects a tensor type without one (docs/checking.md says why we follow it).
 */
function checkSignatureShapes(g: GraphProto, out: Emitter): void {
  const where = `graph '${g.name}'`;
  const visit = (vi: ValueInfoProto, kind: "input" | "output"): void => {
    const t = vi.type?.value;
    if ((t?.case !== "tensorType" && t?.case !== "sparseTensorType") || t.value.shape) return;
    const elem = dataTypeInfo(t.value.elemType)?.name ?? "float";
    out.emit(
      "missing-shape",
      `graph ${kind} '${vi.name}' has no shape, not even a rank; onnx's checker requires one for the main graph's inputs and outputs (write a rank with unknown dims, e.g. [N] or [?]; for a scalar write \`${elem} ${vi.name}\`: \`${elem}[]\` means "no shape", not "scalar")`,
      vi,
      new ChildWhere(where, kind, vi.name),
      "type",
    );
  };
  for (const vi of g.input) visit(vi, "input");
  for (const vi of g.output) visit(vi, "output");
}

function checkFunction(
  fn: FunctionProto,
  modelOpsetMap: ReadonlyMap<string, number>,
  functions: NodeEnv["functions"],
  out: Emitter,
  sourceMap: SourceMap | undefined,
): void {
  const opsets = new Map(modelOpsetMap);
  for (const o of fn.opsetImport) opsets.set(canonicalDomain(o.domain), Number(o.version));
  const env: NodeEnv = { opsets, functions, functionAttributes: new Set([...fn.attribute, ...fn.attributeProto.map((a) => a.name)]) };
  // The body is checked as a graph whose inputs and outputs are the function's.
  const fnSpans = sourceMap?.get(fn);
  const valueInfo = (name: string) => {
    const vi = create(ValueInfoProtoSchema, { name });
    if (fnSpans) sourceMap!.set(vi, { whole: fnSpans.whole, ...(fnSpans.name ? { name: fnSpans.name } : {}) });
    return vi;
  };
  const body = create(GraphProtoSchema, { name: fn.name, input: fn.input.map(valueInfo), output: fn.output.map(valueInfo), node: fn.node });
  const where = `function '${fn.domain ? `${fn.domain}.` : ""}${fn.name}'`;
  new StructureChecker(out, (node, at) => checkNode(node, at, env, out)).checkGraph(body, where);
}
