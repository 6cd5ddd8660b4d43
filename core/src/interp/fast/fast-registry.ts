// Plugs the fast kernels into the interpreter: a registry that answers with a fast kernel
// for float32 cases it covers and otherwise with the base registry's kernel, which stays the
// reference for every other type, rank and attribute combination.

import { closeBudget, openBudget } from "../budget.js";
import type { Kernel, KernelContext } from "../registry.js";
import { Registry } from "../registry.js";
import { defaultRegistry } from "../ops/index.js";
import { windowOf } from "../ops/nn.js";
import { DT, tensor, type Tensor, type Value, floats32 } from "../value.js";
import { affineChainKernel, convChainKernel, type FoldedSteps } from "./conv-chain.js";
import { conv2d } from "./conv2d.js";
import { AFFINE_CHAIN, CONV_CHAIN, FAST_DOMAIN } from "./fuse.js";
import { batchNormF32, binaryF32, reluF32, type BinaryOp } from "./elementwise.js";
import { matmulF32 } from "./matmul.js";
import { averagePool2dF32, globalPoolF32, maxPool2dF32 } from "./pool2d.js";

/** A fast kernel: returns undefined to hand the node to the base kernel. */
type FastKernel = (inputs: readonly (Value | undefined)[], ctx: KernelContext) => Value[] | undefined;

function f32(v: Value | undefined): (Tensor & { data: Float32Array }) | undefined {
  return v?.kind === "tensor" && v.dtype === DT.FLOAT && v.data instanceof Float32Array ? (v as Tensor & { data: Float32Array }) : undefined;
}

function out(dims: readonly number[], data: Float32Array): Tensor {
  return tensor(DT.FLOAT, dims, data);
}

function fastConv([xv, wv, bv]: readonly (Value | undefined)[], ctx: KernelContext, folded?: FoldedSteps): Value[] | undefined {
  const x = f32(xv),
    w = f32(wv),
    b = bv === undefined ? undefined : f32(bv);
  if (!x || !w || (bv !== undefined && !b)) return undefined;
  if (folded && folded.scale.length !== w.dims[0]) return undefined;
  const residual = folded?.residual ? f32(folded.residual) : undefined;
  if (folded?.residual && !residual) return undefined;
  // 1-D convolutions run as 2-D ones with a height of 1.
  const rank = x.dims.length;
  if ((rank !== 4 && rank !== 3) || w.dims.length !== rank) return undefined;
  const kernel = ctx.attrs.ints("kernel_shape") ?? w.dims.slice(2);
  const win = windowOf(ctx, x.dims.slice(2), kernel);
  if (residual) {
    // The residual must have exactly the output's shape (no broadcasting).
    const outDims = [x.dims[0]!, w.dims[0]!, ...win.out];
    if (residual.dims.length !== outDims.length || residual.dims.some((d, i) => d !== outDims[i])) return undefined;
  }
  const two = <T>(v: readonly T[], pad: T): [T, T] => (rank === 4 ? [v[0]!, v[1]!] : [pad, v[0]!]);
  const xDims = rank === 4 ? x.dims : [x.dims[0]!, x.dims[1]!, 1, x.dims[2]!];
  const wDims = rank === 4 ? w.dims : [w.dims[0]!, w.dims[1]!, 1, w.dims[2]!];
  const [pt, pl] = two(win.padsBegin, 0);
  const [pb, pr] = two(win.padsEnd, 0);
  const r = conv2d(x.data, xDims, w.data, wDims, folded ? undefined : b?.data, {
    strides: two(win.strides, 1),
    dilations: two(win.dilations, 1),
    pads: [pt, pl, pb, pr],
    group: ctx.attrs.int("group", 1),
    ...(folded ? { scale: Float32Array.from(folded.scale), shift: Float32Array.from(folded.shift), relu: folded.relu } : {}),
    ...(residual ? { residual: residual.data } : {}),
  });
  return [out(rank === 4 ? r.dims : [r.dims[0], r.dims[1], r.dims[3]], r.data)];
}

const conv: FastKernel = (inputs, ctx) => fastConv(inputs, ctx);

/** Window reads of one pooled plane past which the fast kernel hands over (ResNet's stem: 1e5). */
const MAX_PLANE_READS = 1 << 26;

function pool(kind: "max" | "average"): FastKernel {
  return ([xv], ctx) => {
    const x = f32(xv);
    if (!x || x.dims.length !== 4 || (kind === "max" && ctx.outputCount > 1)) return undefined;
    const kernel = ctx.attrs.ints("kernel_shape");
    if (!kernel || kernel.length !== 2) return undefined;
    const ceilMode = ctx.attrs.int("ceil_mode", 0) === 1;
    const win = windowOf(ctx, x.dims.slice(2), kernel, ceilMode);
    if (kind === "average" && win.dilations.some((d) => d !== 1)) return undefined;
    // One plane is one chunk of work, which cannot stop at the deadline: huge windows go to
    // the reference kernel, which can.
    if (win.out[0]! * win.out[1]! * kernel[0]! * kernel[1]! > MAX_PLANE_READS) return undefined;
    const options = {
      kernel: [kernel[0]!, kernel[1]!] as const,
      strides: [win.strides[0]!, win.strides[1]!] as const,
      dilations: [win.dilations[0]!, win.dilations[1]!] as const,
      pads: [win.padsBegin[0]!, win.padsBegin[1]!, win.padsEnd[0]!, win.padsEnd[1]!] as const,
      ceilMode,
      countIncludePad: ctx.attrs.int("count_include_pad", 0) === 1,
    };
    const r = kind === "max" ? maxPool2dF32(x.data, x.dims, options) : averagePool2dF32(x.data, x.dims, options);
    return [out(r.dims, r.data)];
  };
}

function globalPool(kind: "max" | "average"): FastKernel {
  return ([xv]) => {
    const x = f32(xv);
    if (!x || x.dims.length < 2) return undefined;
    const r = globalPoolF32(x.data, x.dims, kind);
    return [out(r.dims, r.data)];
  };
}

const batchNorm: FastKernel = ([xv, sv, bv, mv, vv], ctx) => {
  const [x, s, b, m, v] = [f32(xv), f32(sv), f32(bv), f32(mv), f32(vv)];
  if (!x || !s || !b || !m || !v || x.dims.length < 2) return undefined;
  if (ctx.attrs.int("training_mode", 0) === 1 || ctx.attrs.int("spatial", 1) === 0 || ctx.outputCount > 1) return undefined;
  const channels = x.dims[1]!;
  if (s.data.length !== channels || b.data.length !== channels || m.data.length !== channels || v.data.length !== channels) return undefined;
  return [out(x.dims, batchNormF32(x.data, x.dims, s.data, b.data, m.data, v.data, ctx.attrs.float("epsilon", 1e-5)))];
};

function binary(op: BinaryOp): FastKernel {
  return ([av, bv]) => {
    const a = f32(av),
      b = f32(bv);
    if (!a || !b) return undefined;
    const r = binaryF32(op, a.data, a.dims, b.data, b.dims);
    return r ? [out(r.dims, r.data)] : undefined;
  };
}

const sum: FastKernel = (inputs) => {
  const ts = inputs.map(f32);
  if (ts.length === 0 || ts.some((t) => !t)) return undefined;
  let acc = { data: ts[0]!.data, dims: [...ts[0]!.dims] };
  for (let i = 1; i < ts.length; i++) {
    const r = binaryF32("add", acc.data, acc.dims, ts[i]!.data, ts[i]!.dims);
    if (!r) return undefined;
    acc = r;
  }
  // A lone input is returned as is: values are never mutated.
  return [out(acc.dims, acc.data)];
};

const relu: FastKernel = ([xv]) => {
  const x = f32(xv);
  return x ? [out(x.dims, reluF32(x.data))] : undefined;
};

const matmul: FastKernel = ([av, bv]) => {
  const a = f32(av),
    b = f32(bv);
  // A [..., M, K] times a 2-D B [K, N]: A's leading axes fold into M.
  if (!a || !b || a.dims.length < 2 || b.dims.length !== 2) return undefined;
  const k = a.dims[a.dims.length - 1]!;
  if (b.dims[0] !== k) return undefined;
  const n = b.dims[1]!;
  const m = a.data.length / Math.max(1, k);
  if (k === 0) return undefined;
  return [out([...a.dims.slice(0, -1), n], matmulF32(a.data, b.data, m, k, n))];
};

const gemm: FastKernel = ([av, bv, cv], ctx) => {
  const a = f32(av),
    b = f32(bv),
    c = cv === undefined ? undefined : f32(cv);
  if (!a || !b || (cv !== undefined && !c) || a.dims.length !== 2 || b.dims.length !== 2) return undefined;
  const transA = ctx.attrs.int("transA", 0) === 1,
    transB = ctx.attrs.int("transB", 0) === 1;
  const alpha = ctx.attrs.float("alpha", 1),
    beta = ctx.attrs.float("beta", 1);
  const [m, k] = transA ? [a.dims[1]!, a.dims[0]!] : [a.dims[0]!, a.dims[1]!];
  const [k2, n] = transB ? [b.dims[1]!, b.dims[0]!] : [b.dims[0]!, b.dims[1]!];
  if (k !== k2) return undefined;
  const y = matmulF32(a.data, b.data, m, k, n, { transA, transB });
  if (alpha !== 1) for (let i = 0; i < y.length; i++) y[i]! *= alpha;
  if (!c || beta === 0) return [out([m, n], y)];
  const scaled = beta === 1 ? c.data : c.data.map((v) => v * beta);
  const r = binaryF32("add", y, [m, n], scaled, c.dims);
  if (!r || r.dims.length !== 2 || r.dims[0] !== m || r.dims[1] !== n) return undefined;
  return [out(r.dims, r.data)];
};

/** Float ConstantOfShape with one bulk fill (weights of the light test networks come from it). */
const constantOfShape: FastKernel = ([shape], ctx) => {
  const value = ctx.attrs.tensor("value");
  if (value && (value.dtype !== DT.FLOAT || !(value.data instanceof Float32Array))) return undefined;
  if (shape?.kind !== "tensor" || !(shape.data instanceof BigInt64Array)) return undefined;
  const dims = Array.from(shape.data, Number);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) return undefined;
  const data = floats32(dims.reduce((p, d) => p * d, 1));
  const fill = value ? ((value.data as Float32Array)[0] ?? 0) : 0;
  if (fill !== 0 || Object.is(fill, -0)) data.fill(fill);
  return [out(dims, data)];
};

/** Float32 Concat as block copies (inputs of equal rank that agree off the axis). */
const concat: FastKernel = (inputs, ctx) => {
  const ts = inputs.map(f32);
  if (ts.length === 0 || ts.some((t) => !t)) return undefined;
  const first = ts[0]!;
  const rank = first.dims.length;
  const attr = ctx.attrs.int("axis");
  if (attr === undefined || rank === 0 || attr < -rank || attr >= rank) return undefined;
  const axis = attr < 0 ? attr + rank : attr;
  for (const t of ts) {
    if (t!.dims.length !== rank || t!.dims.some((d, i) => i !== axis && d !== first.dims[i])) return undefined;
  }
  const dims = first.dims.slice();
  dims[axis] = ts.reduce((sum, t) => sum + t!.dims[axis]!, 0);
  let outer = 1,
    inner = 1;
  for (let i = 0; i < axis; i++) outer *= dims[i]!;
  for (let i = axis + 1; i < rank; i++) inner *= dims[i]!;
  const data = floats32(outer * dims[axis]! * inner);
  const row = dims[axis]! * inner;
  let offset = 0;
  for (const t of ts) {
    const chunk = t!.dims[axis]! * inner;
    for (let o = 0; o < outer; o++) data.set(t!.data.subarray(o * chunk, (o + 1) * chunk), o * row + offset);
    offset += chunk;
  }
  return [out(dims, data)];
};

const FAST: Readonly<Record<string, FastKernel>> = {
  Concat: concat,
  ConstantOfShape: constantOfShape,
  Conv: conv,
  MaxPool: pool("max"),
  AveragePool: pool("average"),
  GlobalMaxPool: globalPool("max"),
  GlobalAveragePool: globalPool("average"),
  BatchNormalization: batchNorm,
  Add: binary("add"),
  Sub: binary("sub"),
  Mul: binary("mul"),
  Div: binary("div"),
  Sum: sum,
  Relu: relu,
  MatMul: matmul,
  Gemm: gemm,
};

/** Operators with a fast path. */
export const FAST_OPS: readonly string[] = Object.keys(FAST).sort();

/** A fast kernel's result; undefined (use the base kernel) when its memory cannot grow. */
function runFast(fast: FastKernel, inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] | undefined {
  // Its own budget within the node's: what a fast kernel claimed before handing over is
  // not held against the base kernel.
  const budget = openBudget(Infinity);
  try {
    return fast(inputs, ctx);
  } catch (e) {
    // WebAssembly.Memory.grow throws RangeError past the 2 GiB the kernels can address.
    if (e instanceof RangeError) return undefined;
    throw e;
  } finally {
    closeBudget(budget);
  }
}

class FastRegistry extends Registry {
  /** Wrapped kernels by op and base kernel, so each is built once. */
  private readonly cache = new Map<string, Map<Kernel, Kernel>>();
  private readonly convChain: Kernel;
  private readonly affineChain: Kernel;

  constructor(private readonly base: Registry) {
    super();
    this.convChain = convChainKernel(this, fastConv);
    this.affineChain = affineChainKernel(this);
  }

  override register(op: string, kernel: Kernel, options: { domain?: string; since?: number } = {}): this {
    this.base.register(op, kernel, options);
    return this;
  }

  override find(domain: string, op: string, version: number): Kernel | undefined {
    if (domain === FAST_DOMAIN) {
      if (op === CONV_CHAIN) return this.convChain;
      if (op === AFFINE_CHAIN) return this.affineChain;
      return this.base.find(domain, op, version);
    }
    const fallback = this.base.find(domain, op, version);
    const fast = domain === "" || domain === "ai.onnx" ? FAST[op] : undefined;
    if (!fallback || !fast) return fallback;
    let byBase = this.cache.get(op);
    if (!byBase) this.cache.set(op, (byBase = new Map()));
    let kernel = byBase.get(fallback);
    if (!kernel) {
      kernel = (inputs, ctx) => runFast(fast, inputs, ctx) ?? fallback(inputs, ctx);
      byBase.set(fallback, kernel);
    }
    return kernel;
  }

  override has(domain: string, op: string): boolean {
    return (domain === FAST_DOMAIN && (op === CONV_CHAIN || op === AFFINE_CHAIN)) || this.base.has(domain, op);
  }

  override ops(): string[] {
    return this.base.ops();
  }
}

/** `base` (the default registry unless given) with the fast kernels in front. */
export function fastRegistry(base: Registry = defaultRegistry): Registry {
  return new FastRegistry(base);
}
