// The kernel of a fused ConvChain node (see fuse.ts): folds the per-channel steps into the
// convolution's weights and bias when every parameter is a per-channel float32 tensor, and
// otherwise runs the original nodes one after the other with the registry's kernels.

import { Attrs } from "../attrs.js";
import { InterpError } from "../errors.js";
import type { Kernel, KernelContext, Registry } from "../registry.js";
import type { NodeProto } from "../../../../proto/src/index.js";
import { DT, tensor, type Tensor, type Value, floats32 } from "../value.js";
import { convChainPlan, stepParams, type ConvChainPlan } from "./fuse.js";

export interface FoldedSteps {
  scale: Float64Array;
  shift: Float64Array;
  /** A tensor of the output's shape added after the affine steps (before the Relu). */
  residual?: Tensor;
  relu: boolean;
}

function floats(v: Value | undefined): Float32Array | undefined {
  return v?.kind === "tensor" && v.dtype === DT.FLOAT && v.data instanceof Float32Array ? v.data : undefined;
}

/** Per-channel values of a Mul/Add operand broadcast against [N, M, ...spatial], if it is one. */
function perChannel(v: Value | undefined, channels: number, outRank: number): Float32Array | undefined {
  const data = floats(v);
  if (!data || v?.kind !== "tensor") return undefined;
  const t = v as Tensor;
  if (t.dims.length > outRank) return undefined;
  if (data.length === 1) return new Float32Array(channels).fill(data[0]!);
  // Every axis but the channel axis (outRank - 1 - i from the right) must be 1.
  const channelAxis = t.dims.length - (outRank - 1);
  for (let i = 0; i < t.dims.length; i++) if (i !== channelAxis && t.dims[i] !== 1) return undefined;
  return channelAxis >= 0 && t.dims[channelAxis] === channels ? data : undefined;
}

/** The steps as y = relu?(conv * scale + shift) per output channel, or undefined. */
function foldSteps(
  plan: ConvChainPlan,
  params: readonly (Value | undefined)[],
  bias: Float32Array | undefined,
  channels: number,
  outRank: number,
): FoldedSteps | undefined {
  const scale = new Float64Array(channels).fill(1);
  const shift = new Float64Array(channels);
  if (bias) for (let c = 0; c < channels; c++) shift[c] = bias[c]!;
  let relu = false;
  let residual: Tensor | undefined;
  let at = 0;
  for (const step of plan.steps) {
    // Only a Relu may follow the residual: later affine steps would have to scale it too.
    if (residual && step.opType !== "Relu") return undefined;
    switch (step.opType) {
      case "BatchNormalization": {
        const [s, b, mean, variance] = params.slice(at, at + 4).map(floats);
        at += 4;
        if (!s || !b || !mean || !variance || [s, b, mean, variance].some((p) => p.length !== channels)) return undefined;
        const eps = new Attrs(step).float("epsilon", 1e-5);
        for (let c = 0; c < channels; c++) {
          const a = s[c]! / Math.sqrt(variance[c]! + eps);
          scale[c] = scale[c]! * a;
          shift[c] = shift[c]! * a + b[c]! - mean[c]! * a;
        }
        break;
      }
      case "Mul": {
        const p = perChannel(params[at++], channels, outRank);
        if (!p) return undefined;
        for (let c = 0; c < channels; c++) {
          scale[c] = scale[c]! * p[c]!;
          shift[c] = shift[c]! * p[c]!;
        }
        break;
      }
      case "Add":
      case "Sum": {
        const operand = params[at++];
        const p = perChannel(operand, channels, outRank);
        if (p) {
          for (let c = 0; c < channels; c++) shift[c] = shift[c]! + p[c]!;
        } else if (floats(operand) && operand?.kind === "tensor" && operand.dims.length === outRank) {
          // Checked against the convolution's output shape by the caller.
          residual = operand;
        } else {
          return undefined;
        }
        break;
      }
      case "Relu":
        relu = true;
        break;
      default:
        return undefined;
    }
  }
  return { scale, shift, relu, ...(residual ? { residual } : {}) };
}

/** Runs the original Conv (if any) and steps with `registry`'s kernels. */
function runUnfused(plan: ConvChainPlan, inputs: readonly (Value | undefined)[], ctx: KernelContext, registry: Registry): Value | undefined {
  const sub = (node: NodeProto): KernelContext => ({ ...ctx, node, attrs: new Attrs(node), opset: plan.opset, outputCount: 1 });
  const kernelOf = (op: string): Kernel => {
    const k = registry.find("", op, plan.opset);
    if (!k) throw new InterpError(`no implementation of operator ${op} (opset ${plan.opset})`);
    return k;
  };
  let value: Value | undefined;
  let chained: string;
  let at: number;
  if (plan.conv) {
    value = kernelOf("Conv")(inputs.slice(0, plan.conv.input.length), sub(plan.conv))[0];
    chained = plan.conv.output[0]!;
    at = 3;
  } else {
    value = inputs[0];
    chained = plan.steps[0]!.input[0]!;
    at = 1;
  }
  for (const step of plan.steps) {
    const names = stepParams(step, chained);
    const params = inputs.slice(at, at + names.length);
    at += names.length;
    const ins =
      step.opType === "BatchNormalization" || step.opType === "Relu" ? [value, ...params] : step.input.map((name) => (name === chained ? value : params[0]));
    value = kernelOf(step.opType)(ins, sub(step))[0];
    chained = step.output[0]!;
  }
  return value;
}

/** The AffineChain kernel: one pass of y = relu?(x * scale + shift (+ residual)) per channel. */
export function affineChainKernel(registry: Registry): Kernel {
  return (inputs, ctx) => {
    const plan = convChainPlan(ctx.node);
    if (!plan) throw new InterpError(`${ctx.node.opType} node '${ctx.node.name}' was not made by the fusion`);
    const x = inputs[0];
    const data = floats(x);
    if (data && x?.kind === "tensor" && x.dims.length >= 2) {
      const channels = x.dims[1]!;
      const folded = foldSteps(plan, inputs.slice(1), undefined, channels, x.dims.length);
      const residual = folded?.residual ? floats(folded.residual) : undefined;
      const sameShape = !folded?.residual || (folded.residual.dims.length === x.dims.length && folded.residual.dims.every((d, i) => d === x.dims[i]));
      if (folded && sameShape && (!folded.residual || residual)) {
        const inner = x.dims.slice(2).reduce((p, d) => p * d, 1);
        return [tensor(DT.FLOAT, x.dims, affinePass(data, channels, inner, folded, residual))];
      }
    }
    return [runUnfused(plan, inputs, ctx, registry)];
  };
}

/** y = relu?(x * scale[c] + shift[c] (+ residual)) over NC... planes of `inner` elements. */
function affinePass(x: Float32Array, channels: number, inner: number, folded: FoldedSteps, residual: Float32Array | undefined): Float32Array {
  const out = floats32(x.length);
  const planes = inner === 0 ? 0 : x.length / inner;
  for (let p = 0, i = 0; p < planes; p++) {
    const c = p % channels;
    const s = folded.scale[c]!,
      t = folded.shift[c]!;
    const end = i + inner;
    if (residual) {
      if (folded.relu)
        for (; i < end; i++) {
          const v = x[i]! * s + t + residual[i]!;
          out[i] = v < 0 ? 0 : v;
        }
      else for (; i < end; i++) out[i] = x[i]! * s + t + residual[i]!;
    } else if (folded.relu) {
      for (; i < end; i++) {
        const v = x[i]! * s + t;
        out[i] = v < 0 ? 0 : v;
      }
    } else {
      for (; i < end; i++) out[i] = x[i]! * s + t;
    }
  }
  return out;
}

/**
 * The ConvChain kernel. `fastConv` runs a float32 convolution with folded steps and returns
 * undefined when it does not cover the case; `registry` supplies the unfused kernels.
 */
export function convChainKernel(
  registry: Registry,
  fastConv: (inputs: readonly (Value | undefined)[], ctx: KernelContext, folded: FoldedSteps) => Value[] | undefined,
): Kernel {
  return (inputs, ctx) => {
    const plan = convChainPlan(ctx.node);
    if (!plan) throw new InterpError(`${ctx.node.opType} node '${ctx.node.name}' was not made by the Conv fusion`);
    const [x, w, b] = inputs;
    const weights = w?.kind === "tensor" ? w : undefined;
    const bias = b === undefined ? undefined : floats(b);
    if (x?.kind === "tensor" && weights && (b === undefined || bias)) {
      const folded = foldSteps(plan, inputs.slice(3), bias, weights.dims[0] ?? 0, x.dims.length);
      let result: Value[] | undefined;
      try {
        result = folded ? fastConv(inputs.slice(0, 2), ctx, folded) : undefined;
      } catch (e) {
        // The kernels' memory could not grow: run the original nodes instead.
        if (!(e instanceof RangeError)) throw e;
      }
      if (result) return result;
    }
    return [runUnfused(plan, inputs, ctx, registry)];
  };
}
