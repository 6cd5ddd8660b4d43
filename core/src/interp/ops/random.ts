// Random kernels: RandomUniform(Like), RandomNormal(Like), Bernoulli, Multinomial. A node's
// `seed` attribute gives it its own generator; otherwise the run's seeded generator is used.
import type { KernelContext, Registry } from "../registry.js";
import { Rng } from "../rng.js";
import { DT, fromNumbers, int64Tensor, numbers, sizeOf, type Value, floats64 } from "../value.js";
import { fail, t } from "./util.js";

function rngOf(ctx: KernelContext): Rng {
  const seed = ctx.attrs.float("seed");
  return seed === undefined ? ctx.rng : new Rng(Math.trunc(seed * 1000003) | 0);
}

function uniform(dims: readonly number[], dtype: number, ctx: KernelContext): Value {
  const rng = rngOf(ctx);
  const low = ctx.attrs.float("low", 0);
  const high = ctx.attrs.float("high", 1);
  const out = floats64(sizeOf(dims));
  for (let i = 0; i < out.length; i++) out[i] = low + (high - low) * rng.next();
  return fromNumbers(dtype, dims, out);
}

function normal(dims: readonly number[], dtype: number, ctx: KernelContext): Value {
  const rng = rngOf(ctx);
  const mean = ctx.attrs.float("mean", 0);
  const scale = ctx.attrs.float("scale", 1);
  const out = floats64(sizeOf(dims));
  for (let i = 0; i < out.length; i++) out[i] = mean + scale * rng.normal();
  return fromNumbers(dtype, dims, out);
}

function shapeAttr(ctx: KernelContext): number[] {
  return ctx.attrs.ints("shape") ?? fail("no 'shape' attribute");
}

export function registerRandom(r: Registry): void {
  r.register("RandomUniform", (_in, ctx) => [uniform(shapeAttr(ctx), ctx.attrs.int("dtype", DT.FLOAT), ctx)]);
  r.register("RandomNormal", (_in, ctx) => [normal(shapeAttr(ctx), ctx.attrs.int("dtype", DT.FLOAT), ctx)]);
  r.register("RandomUniformLike", ([x], ctx) => [uniform(t(x).dims, ctx.attrs.int("dtype", t(x).dtype), ctx)]);
  r.register("RandomNormalLike", ([x], ctx) => [normal(t(x).dims, ctx.attrs.int("dtype", t(x).dtype), ctx)]);
  r.register("Bernoulli", ([x], ctx) => {
    const a = t(x);
    const p = numbers(a);
    const rng = rngOf(ctx);
    const out = floats64(p.length);
    for (let i = 0; i < p.length; i++) out[i] = rng.next() < p[i]! ? 1 : 0;
    return [fromNumbers(ctx.attrs.int("dtype", a.dtype), a.dims, out)];
  });
  r.register("Multinomial", ([x], ctx) => {
    const a = t(x);
    const [batch, classes] = a.dims as [number, number];
    const n = ctx.attrs.int("sample_size", 1);
    const logits = numbers(a);
    const rng = rngOf(ctx);
    const out = floats64(batch * n);
    for (let b = 0; b < batch; b++) {
      let max = -Infinity;
      for (let c = 0; c < classes; c++) max = Math.max(max, logits[b * classes + c]!);
      let total = 0;
      for (let c = 0; c < classes; c++) total += Math.exp(logits[b * classes + c]! - max);
      for (let s = 0; s < n; s++) {
        let u = rng.next() * total;
        let c = 0;
        for (; c < classes - 1; c++) {
          u -= Math.exp(logits[b * classes + c]! - max);
          if (u < 0) break;
        }
        out[b * n + s] = c;
      }
    }
    const dtype = ctx.attrs.int("dtype", DT.INT32);
    return [dtype === DT.INT64 ? int64Tensor([batch, n], out) : fromNumbers(dtype, [batch, n], out)];
  });
}
