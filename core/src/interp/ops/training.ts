// The optimizers of the ai.onnx.preview.training domain: Adagrad, Momentum, Adam.
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, numbers, type Tensor, type Value, floats64 } from "../value.js";
import { t } from "./util.js";

const DOMAIN = "ai.onnx.preview.training";

function groups(inputs: readonly (Value | undefined)[], k: number): Tensor[][] {
  const rest = inputs.slice(2).map((v) => t(v));
  const n = rest.length / k;
  return Array.from({ length: k }, (_, g) => rest.slice(g * n, (g + 1) * n));
}

function adagrad(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const R = numbers(t(inputs[0]))[0]!;
  const T = numbers(t(inputs[1]))[0]!;
  const decay = ctx.attrs.float("decay_factor", 0);
  const eps = ctx.attrs.float("epsilon", 1e-6);
  const norm = ctx.attrs.float("norm_coefficient", 0);
  const [X, G, H] = groups(inputs, 3) as [Tensor[], Tensor[], Tensor[]];
  const r = R / (1 + T * decay);
  const xs: Value[] = [];
  const hs: Value[] = [];
  X.forEach((x, i) => {
    const xv = numbers(x);
    const gv = numbers(G[i]!);
    const hv = numbers(H[i]!);
    const xo = floats64(xv.length);
    const ho = floats64(xv.length);
    for (let k = 0; k < xv.length; k++) {
      const g = norm * xv[k]! + gv[k]!;
      ho[k] = hv[k]! + g * g;
      xo[k] = xv[k]! - (r * g) / (Math.sqrt(ho[k]!) + eps);
    }
    xs.push(fromNumbers(x.dtype, x.dims, xo));
    hs.push(fromNumbers(x.dtype, x.dims, ho));
  });
  return [...xs, ...hs];
}

function momentum(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const R = numbers(t(inputs[0]))[0]!;
  const T = numbers(t(inputs[1]))[0]!;
  const alpha = ctx.attrs.float("alpha", 0);
  const beta = ctx.attrs.float("beta", 0);
  const norm = ctx.attrs.float("norm_coefficient", 0);
  const nesterov = ctx.attrs.string("mode", "standard") === "nesterov";
  const [X, G, V] = groups(inputs, 3) as [Tensor[], Tensor[], Tensor[]];
  const betaAdj = T > 0 ? beta : 1;
  const xs: Value[] = [];
  const vs: Value[] = [];
  X.forEach((x, i) => {
    const xv = numbers(x);
    const gv = numbers(G[i]!);
    const vv = numbers(V[i]!);
    const xo = floats64(xv.length);
    const vo = floats64(xv.length);
    for (let k = 0; k < xv.length; k++) {
      const g = norm * xv[k]! + gv[k]!;
      vo[k] = alpha * vv[k]! + betaAdj * g;
      xo[k] = nesterov ? xv[k]! - R * (g + alpha * vo[k]!) : xv[k]! - R * vo[k]!;
    }
    xs.push(fromNumbers(x.dtype, x.dims, xo));
    vs.push(fromNumbers(x.dtype, x.dims, vo));
  });
  return [...xs, ...vs];
}

function adam(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const R = numbers(t(inputs[0]))[0]!;
  const T = numbers(t(inputs[1]))[0]!;
  const alpha = ctx.attrs.float("alpha", 0.9);
  const beta = ctx.attrs.float("beta", 0.999);
  const eps = ctx.attrs.float("epsilon", 1e-6);
  const norm = ctx.attrs.float("norm_coefficient", 0);
  const post = ctx.attrs.float("norm_coefficient_post", 0);
  const [X, G, V, H] = groups(inputs, 4) as [Tensor[], Tensor[], Tensor[], Tensor[]];
  const rAdj = T > 0 ? (R * Math.sqrt(1 - beta ** T)) / (1 - alpha ** T) : R;
  const xs: Value[] = [];
  const vs: Value[] = [];
  const hs: Value[] = [];
  X.forEach((x, i) => {
    const xv = numbers(x);
    const gv = numbers(G[i]!);
    const vv = numbers(V[i]!);
    const hv = numbers(H[i]!);
    const xo = floats64(xv.length);
    const vo = floats64(xv.length);
    const ho = floats64(xv.length);
    for (let k = 0; k < xv.length; k++) {
      const g = norm * xv[k]! + gv[k]!;
      vo[k] = alpha * vv[k]! + (1 - alpha) * g;
      ho[k] = beta * hv[k]! + (1 - beta) * g * g;
      xo[k] = (1 - post) * (xv[k]! - (rAdj * vo[k]!) / (Math.sqrt(ho[k]!) + eps));
    }
    xs.push(fromNumbers(x.dtype, x.dims, xo));
    vs.push(fromNumbers(x.dtype, x.dims, vo));
    hs.push(fromNumbers(x.dtype, x.dims, ho));
  });
  return [...xs, ...vs, ...hs];
}

export function registerTraining(r: Registry): void {
  r.register("Adagrad", adagrad, { domain: DOMAIN });
  r.register("Momentum", momentum, { domain: DOMAIN });
  r.register("Adam", adam, { domain: DOMAIN });
}
