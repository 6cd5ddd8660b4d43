// Run-time graph rewrite: a Conv followed by per-channel affine steps (BatchNormalization in
// inference, Mul or Add by a per-channel tensor), at most one residual Add/Sum of a tensor
// of the output's shape, and an optional Relu, each the only reader of
// the previous result, becomes one `ConvChain` node. Its kernel folds the steps into the
// convolution's weights and bias and applies the Relu inside the GEMM, so the intermediate
// tensors are never materialised. The original nodes are kept for the general case.

import { create } from "@bufbuild/protobuf";
import {
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  type GraphProto,
  type ModelProto,
  type NodeProto,
} from "../../../../proto/src/index.js";
import { Attrs } from "../attrs.js";

export const FAST_DOMAIN = "ai.onnxtxt.fast";
export const CONV_CHAIN = "ConvChain";
/** A chain headed by a BatchNormalization on any input: one pass of y = relu?(x * s + t). */
export const AFFINE_CHAIN = "AffineChain";

export interface ConvChainPlan {
  /** The Conv heading the chain; inputs are then x, W, B (or ''), then the step parameters. */
  readonly conv?: NodeProto;
  /** The fused steps in order; without a conv, inputs are x, then the step parameters. */
  readonly steps: readonly NodeProto[];
  /** ai.onnx opset of the model (for the unfused fallback). */
  readonly opset: number;
}

const plans = new WeakMap<NodeProto, ConvChainPlan>();

export function convChainPlan(node: NodeProto): ConvChainPlan | undefined {
  return plans.get(node);
}

/** The step's parameter inputs, i.e. every input but the chained value. */
export function stepParams(step: NodeProto, chained: string): string[] {
  if (step.opType === "Relu") return [];
  if (step.opType === "BatchNormalization") return step.input.slice(1, 5);
  return step.input.filter((_, i) => i !== step.input.indexOf(chained));
}

function readsOutside(node: NodeProto, out: Set<string>): void {
  for (const a of node.attribute) {
    const graphs = [...(a.g ? [a.g] : []), ...a.graphs];
    for (const g of graphs) {
      for (const n of g.node) {
        for (const i of n.input) out.add(i);
        readsOutside(n, out);
      }
    }
  }
}

function fusableStep(node: NodeProto, value: string): boolean {
  if (node.domain !== "" && node.domain !== "ai.onnx") return false;
  const outputs = node.output.filter((o) => o !== "");
  if (outputs.length !== 1 || node.output[0] === "") return false;
  switch (node.opType) {
    case "Relu":
      return node.input.length === 1 && node.input[0] === value;
    case "BatchNormalization": {
      const attrs = new Attrs(node);
      return (
        node.input.length === 5 &&
        node.input[0] === value &&
        node.input.slice(1).every((i) => i !== "" && i !== value) &&
        attrs.int("training_mode", 0) === 0 &&
        attrs.int("spatial", 1) === 1 &&
        node.output.length === 1
      );
    }
    case "Mul":
    case "Add":
    case "Sum":
      return node.input.length === 2 && node.input.filter((i) => i === value).length === 1 && node.input.every((i) => i !== "");
    default:
      return false;
  }
}

function fuseGraph(graph: GraphProto, opset: number): GraphProto | undefined {
  const readers = new Map<string, number>();
  const producers = new Map<string, NodeProto>();
  const pinned = new Set<string>(graph.output.map((o) => o.name));
  for (const n of graph.node) {
    for (const i of n.input) readers.set(i, (readers.get(i) ?? 0) + 1);
    readsOutside(n, pinned);
    for (const o of n.output) producers.set(o, n);
  }
  const consumerOf = new Map<string, NodeProto>();
  for (const n of graph.node) for (const i of new Set(n.input)) consumerOf.set(i, n);
  const fusedAway = new Set<NodeProto>();
  const used = new Set<NodeProto>();
  const replacement = new Map<NodeProto, NodeProto>();
  /** The steps that can follow `value` (each the only reader of the previous result). */
  const chainFrom = (start: string): NodeProto[] => {
    const steps: NodeProto[] = [];
    let value = start;
    for (;;) {
      if (pinned.has(value) || readers.get(value) !== 1) break;
      const next = consumerOf.get(value);
      if (!next || used.has(next) || !fusableStep(next, value)) break;
      steps.push(next);
      value = next.output[0]!;
      if (next.opType === "Relu") break;
    }
    return steps;
  };
  const fuse = (opType: string, head: NodeProto, conv: NodeProto | undefined, steps: NodeProto[]): void => {
    const inputs = conv ? [conv.input[0] ?? "", conv.input[1] ?? "", conv.input[2] ?? ""] : [head.input[0]!];
    let chained = conv ? conv.output[0]! : head.input[0]!;
    for (const step of steps) {
      inputs.push(...stepParams(step, chained));
      chained = step.output[0]!;
    }
    const fused = create(NodeProtoSchema, {
      name: head.name,
      opType,
      domain: FAST_DOMAIN,
      input: inputs,
      output: [chained],
      attribute: conv?.attribute ?? [],
    });
    plans.set(fused, { ...(conv ? { conv } : {}), steps, opset });
    // The fused node takes the last step's place: every step parameter is computed by then.
    if (conv) fusedAway.add(conv);
    for (const s of steps.slice(0, -1)) fusedAway.add(s);
    for (const s of steps) used.add(s);
    replacement.set(steps[steps.length - 1]!, fused);
  };
  for (const conv of graph.node) {
    if (conv.opType !== "Conv" || (conv.domain !== "" && conv.domain !== "ai.onnx") || conv.output.length !== 1) continue;
    const steps = chainFrom(conv.output[0]!);
    if (steps.length > 0) fuse(CONV_CHAIN, conv, conv, steps);
  }
  // BatchNormalization chains the convolutions did not take (pre-activation networks).
  for (const bn of graph.node) {
    if (bn.opType !== "BatchNormalization" || used.has(bn) || !fusableStep(bn, bn.input[0] ?? "")) continue;
    const steps = [bn, ...chainFrom(bn.output[0]!)];
    if (steps.length > 1) fuse(AFFINE_CHAIN, bn, undefined, steps);
  }
  if (replacement.size === 0) return undefined;
  const nodes = graph.node.filter((n) => !fusedAway.has(n) || replacement.has(n)).map((n) => replacement.get(n) ?? n);
  return create(GraphProtoSchema, { ...graph, node: nodes });
}

/** The model with Conv chains fused in its main graph (the same model when none). */
export function fuseConvChains(model: ModelProto): ModelProto {
  if (!model.graph) return model;
  const onnx = model.opsetImport.find((o) => o.domain === "" || o.domain === "ai.onnx");
  const graph = fuseGraph(model.graph, onnx ? Number(onnx.version) : 21);
  if (!graph) return model;
  return create(ModelProtoSchema, {
    ...model,
    graph,
    opsetImport: [...model.opsetImport, create(OperatorSetIdProtoSchema, { domain: FAST_DOMAIN, version: 1n })],
  });
}
