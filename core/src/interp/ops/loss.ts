// Loss kernels: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, intList, numbers, sizeOf, type Tensor, type Value, floats64 } from "../value.js";
import { t } from "./util.js";

function nll(logProb: ArrayLike<number>, dims: readonly number[], target: Tensor, weight: Tensor | undefined, ctx: KernelContext, dtype: number): Tensor {
  const N = dims[0]!;
  const C = dims[1]!;
  const inner = sizeOf(dims.slice(2));
  const tv = intList(target);
  const wv = weight ? numbers(weight) : undefined;
  const ignore = ctx.attrs.int("ignore_index");
  const reduction = ctx.attrs.string("reduction", "mean");
  const loss = floats64(N * inner);
  let wsum = 0;
  for (let n = 0; n < N; n++) {
    for (let i = 0; i < inner; i++) {
      const c = tv[n * inner + i]!;
      if (c === ignore) continue;
      const w = wv ? wv[c]! : 1;
      loss[n * inner + i] = -logProb[(n * C + c) * inner + i]! * w;
      wsum += w;
    }
  }
  if (reduction === "none") return fromNumbers(dtype, [N, ...dims.slice(2)], loss);
  let sum = 0;
  for (let i = 0; i < loss.length; i++) sum += loss[i]!;
  return fromNumbers(dtype, [], [reduction === "sum" ? sum : sum / wsum]);
}

function logSoftmaxAxis1(x: ArrayLike<number>, dims: readonly number[]): Float64Array {
  const N = dims[0]!;
  const C = dims[1]!;
  const inner = sizeOf(dims.slice(2));
  const out = floats64(x.length);
  for (let n = 0; n < N; n++) {
    for (let i = 0; i < inner; i++) {
      let max = -Infinity;
      for (let c = 0; c < C; c++) max = Math.max(max, x[(n * C + c) * inner + i]!);
      let sum = 0;
      for (let c = 0; c < C; c++) sum += Math.exp(x[(n * C + c) * inner + i]! - max);
      const ls = Math.log(sum) + max;
      for (let c = 0; c < C; c++) out[(n * C + c) * inner + i] = x[(n * C + c) * inner + i]! - ls;
    }
  }
  return out;
}

export function registerLosses(r: Registry): void {
  r.register("NegativeLogLikelihoodLoss", ([x, target, w], ctx) => {
    const a = t(x);
    return [nll(numbers(a), a.dims, t(target), w === undefined ? undefined : t(w), ctx, a.dtype)];
  });
  r.register("SoftmaxCrossEntropyLoss", ([x, labels, w], ctx) => {
    const a = t(x);
    const lp = logSoftmaxAxis1(numbers(a), a.dims);
    const out: Value[] = [nll(lp, a.dims, t(labels), w === undefined ? undefined : t(w), ctx, a.dtype)];
    if (ctx.outputCount > 1) out.push(fromNumbers(a.dtype, a.dims, lp));
    return out;
  });
}
