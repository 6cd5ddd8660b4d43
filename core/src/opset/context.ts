// What an adapter may ask while it rewrites one node: the values' inferred types, constants,
// fresh names, and helpers to emit Constant nodes for new inputs.
import { create } from "@bufbuild/protobuf";
import { NodeProtoSchema, type NodeProto, type TensorProto } from "../../../proto/src/index.js";
import { isTensor, tensor, type Shape, type ValueType } from "../infer/types.js";
import type { Constants } from "./constants.js";
import { constantNode, int64Proto, numberProto } from "./constants.js";

/** What a step adapter gives: the nodes replacing the one it was given, or why it cannot. */
export type StepOutcome =
  | {
      readonly nodes: readonly NodeProto[];
      /** The opset the nodes are written for, when not the step's own (they then move from there, up or down). */
      readonly at?: number;
    }
  | { readonly refused: string };

export interface StepContext {
  /** The op's schema versions on both sides of the step (older < newer). */
  readonly older: number;
  readonly newer: number;
  readonly up: boolean;
  /** The opset the adapter's output nodes are expressed at (newer going up, older going down). */
  readonly at: number;
  readonly constants: Constants;
  type(name: string): ValueType | undefined;
  setType(name: string, t: ValueType): void;
  fresh(hint: string): string;
  /** Whether any node or graph output reads the value. */
  used(name: string): boolean;
}

export type Adapter = (node: NodeProto, ctx: StepContext) => StepOutcome;

export function refuse(reason: string): StepOutcome {
  return { refused: reason };
}

export function keep(...nodes: NodeProto[]): StepOutcome {
  return { nodes };
}

export function shapeOf(ctx: StepContext, name: string): Shape | undefined {
  const t = ctx.type(name);
  return isTensor(t) ? t.shape : undefined;
}

export function rankOf(ctx: StepContext, name: string): number | undefined {
  return shapeOf(ctx, name)?.length;
}

export function elemOf(ctx: StepContext, name: string): number | undefined {
  const t = ctx.type(name);
  return isTensor(t) && t.elem !== 0 ? t.elem : undefined;
}

/** A Constant node holding an int64 tensor, and its output name. */
export function int64Constant(ctx: StepContext, hint: string, dims: readonly number[], values: readonly number[]): { name: string; node: NodeProto } {
  return tensorConstant(ctx, hint, int64Proto(dims, values));
}

export function numberConstant(
  ctx: StepContext,
  hint: string,
  dtype: number,
  dims: readonly number[],
  values: readonly number[],
): { name: string; node: NodeProto } {
  return tensorConstant(ctx, hint, numberProto(dtype, dims, values));
}

export function tensorConstant(ctx: StepContext, hint: string, t: TensorProto): { name: string; node: NodeProto } {
  const name = ctx.fresh(hint);
  ctx.setType(
    name,
    tensor(
      t.dataType,
      t.dims.map((d) => Number(d)),
    ),
  );
  const node = constantNode(name, t);
  ctx.constants.add(node);
  return { name, node };
}

/** A new node of the default domain. */
export function makeNode(opType: string, input: readonly string[], output: readonly string[], attribute: NodeProto["attribute"] = [], name = ""): NodeProto {
  // onnx.proto is proto2: an explicit empty name would be printed as one, so it is set only when given.
  return create(NodeProtoSchema, { opType, input: [...input], output: [...output], attribute, ...(name !== "" && { name }) });
}

/** Human words for a list of values in a reason. */
export function quoted(names: readonly string[]): string {
  return names.map((n) => `'${n}'`).join(", ");
}

/** The constant int list behind input `i` of `node`, or a reason it is not one. */
export function constInts(node: NodeProto, i: number, ctx: StepContext, what: string): number[] | string {
  const name = node.input[i];
  if (!name) return `no ${what}`;
  const v = ctx.constants.numbers(name);
  return v ?? `input '${name}' (${what}) is not a constant, and opset ${ctx.at} needs it as an attribute`;
}
