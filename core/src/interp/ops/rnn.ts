// Recurrent kernels: RNN, GRU and LSTM (forward, reverse, bidirectional; both layouts).
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, intList, numbers, type Value, floats64 } from "../value.js";
import { erf } from "./elementwise.js";
import { fail, t } from "./util.js";

type Act = (x: number) => number;

function activation(name: string, alpha: number | undefined, beta: number | undefined): Act {
  switch (name.toLowerCase()) {
    case "sigmoid":
      return (x) => 1 / (1 + Math.exp(-x));
    case "tanh":
      return Math.tanh;
    case "relu":
      return (x) => Math.max(0, x);
    case "leakyrelu": {
      const a = alpha ?? 0.01;
      return (x) => (x >= 0 ? x : a * x);
    }
    case "thresholdedrelu": {
      const a = alpha ?? 1;
      return (x) => (x > a ? x : 0);
    }
    case "scaledtanh": {
      const a = alpha ?? 1;
      const b = beta ?? 1;
      return (x) => a * Math.tanh(b * x);
    }
    case "hardsigmoid": {
      const a = alpha ?? 0.2;
      const b = beta ?? 0.5;
      return (x) => Math.max(0, Math.min(1, a * x + b));
    }
    case "elu": {
      const a = alpha ?? 1;
      return (x) => (x >= 0 ? x : a * (Math.exp(x) - 1));
    }
    case "softsign":
      return (x) => x / (1 + Math.abs(x));
    case "softplus":
      return (x) => Math.log1p(Math.exp(x));
    case "affine": {
      const a = alpha ?? 1;
      const b = beta ?? 0;
      return (x) => a * x + b;
    }
    case "gelu":
      return (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));
    default:
      return fail(`unknown activation '${name}'`);
  }
}

type Kind = "rnn" | "gru" | "lstm";

function recurrent(kind: Kind) {
  const gates = kind === "rnn" ? 1 : kind === "gru" ? 3 : 4;
  const defaults = kind === "rnn" ? ["Tanh"] : kind === "gru" ? ["Sigmoid", "Tanh"] : ["Sigmoid", "Tanh", "Tanh"];
  return (inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] => {
    const X = t(inputs[0]);
    const W = t(inputs[1]);
    const R = t(inputs[2]);
    const a = ctx.attrs;
    const layout = a.int("layout", 0);
    const direction = a.string("direction", "forward");
    const dirs = direction === "bidirectional" ? 2 : 1;
    const H = a.int("hidden_size") ?? R.dims[2]!;
    const clip = a.float("clip");
    const linearBeforeReset = a.int("linear_before_reset", 0) === 1;
    const inputForget = a.int("input_forget", 0) === 1;
    const names = a.strings("activations") ?? [...defaults, ...(dirs === 2 ? defaults : [])];
    const alphas = a.floats("activation_alpha") ?? [];
    const betas = a.floats("activation_beta") ?? [];
    const acts = names.map((n, i) => activation(n, alphas[i], betas[i]));
    const [S, B, I] = layout === 0 ? (X.dims as [number, number, number]) : ([X.dims[1]!, X.dims[0]!, X.dims[2]!] as [number, number, number]);
    const xv = numbers(X);
    const xAt = (s: number, b: number, i: number) => (layout === 0 ? xv[(s * B + b) * I + i]! : xv[(b * S + s) * I + i]!);
    const wv = numbers(W);
    const rv = numbers(R);
    const bv = inputs[3] === undefined ? undefined : numbers(t(inputs[3]));
    const lens = inputs[4] === undefined ? undefined : intList(t(inputs[4]));
    const h0 = inputs[5] === undefined ? undefined : numbers(t(inputs[5]));
    const c0 = kind === "lstm" && inputs[6] !== undefined ? numbers(t(inputs[6])) : undefined;
    const P = kind === "lstm" && inputs[7] !== undefined ? numbers(t(inputs[7])) : undefined;
    const Y = floats64(S * dirs * B * H);
    const Yh = floats64(dirs * B * H);
    const Yc = floats64(dirs * B * H);
    const G = gates * H;
    for (let d = 0; d < dirs; d++) {
      const reverse = direction === "reverse" || d === 1;
      const f = acts[d * defaults.length]!;
      const g = acts[d * defaults.length + 1] ?? f;
      const hAct = acts[d * defaults.length + 2] ?? g;
      const wOff = d * G * I;
      const rOff = d * G * H;
      const bOff = d * 2 * G;
      for (let b = 0; b < B; b++) {
        const len = lens ? lens[b]! : S;
        const h = floats64(H);
        const c = floats64(H);
        for (let j = 0; j < H; j++) {
          h[j] = h0 ? h0[(d * B + b) * H + j]! : 0;
          c[j] = c0 ? c0[(d * B + b) * H + j]! : 0;
        }
        const xw = floats64(G);
        const hr = floats64(G);
        for (let step = 0; step < len; step++) {
          const s = reverse ? len - 1 - step : step;
          for (let k = 0; k < G; k++) {
            let acc = bv ? bv[bOff + k]! : 0;
            for (let i = 0; i < I; i++) acc += xAt(s, b, i) * wv[wOff + k * I + i]!;
            xw[k] = acc;
            let acc2 = bv ? bv[bOff + G + k]! : 0;
            for (let j = 0; j < H; j++) acc2 += h[j]! * rv[rOff + k * H + j]!;
            hr[k] = acc2;
          }
          const cl = (v: number) => (clip === undefined ? v : Math.max(-clip, Math.min(clip, v)));
          if (kind === "rnn") {
            for (let j = 0; j < H; j++) h[j] = f(cl(xw[j]! + hr[j]!));
          } else if (kind === "gru") {
            // gate order z, r, h
            const hNew = floats64(H);
            for (let j = 0; j < H; j++) {
              const z = f(cl(xw[j]! + hr[j]!));
              const r = f(cl(xw[H + j]! + hr[H + j]!));
              let hh: number;
              if (linearBeforeReset) hh = g(cl(xw[2 * H + j]! + r * hr[2 * H + j]!));
              else {
                let acc = bv ? bv[bOff + G + 2 * H + j]! : 0;
                for (let k = 0; k < H; k++) acc += r * h[k]! * rv[rOff + (2 * H + j) * H + k]!;
                hh = g(cl(xw[2 * H + j]! + acc));
              }
              hNew[j] = (1 - z) * hh + z * h[j]!;
            }
            h.set(hNew);
          } else {
            // gate order i, o, f, c
            const pOff = d * 3 * H;
            for (let j = 0; j < H; j++) {
              const pi = P ? P[pOff + j]! : 0;
              const po = P ? P[pOff + H + j]! : 0;
              const pf = P ? P[pOff + 2 * H + j]! : 0;
              let ig = f(cl(xw[j]! + hr[j]! + pi * c[j]!));
              const fg = f(cl(xw[2 * H + j]! + hr[2 * H + j]! + pf * c[j]!));
              if (inputForget) ig = 1 - fg;
              const cc = g(cl(xw[3 * H + j]! + hr[3 * H + j]!));
              c[j] = fg * c[j]! + ig * cc;
              const og = f(cl(xw[H + j]! + hr[H + j]! + po * c[j]!));
              h[j] = og * hAct(c[j]!);
            }
          }
          for (let j = 0; j < H; j++) Y[((s * dirs + d) * B + b) * H + j] = h[j]!;
        }
        for (let j = 0; j < H; j++) {
          Yh[(d * B + b) * H + j] = h[j]!;
          Yc[(d * B + b) * H + j] = c[j]!;
        }
      }
    }
    const dtype = X.dtype;
    let y = fromNumbers(dtype, [S, dirs, B, H], Y);
    let yh = fromNumbers(dtype, [dirs, B, H], Yh);
    let yc = fromNumbers(dtype, [dirs, B, H], Yc);
    if (layout === 1) {
      // [batch, seq, dirs, hidden] and [batch, dirs, hidden]
      const y2 = floats64(Y.length);
      for (let s = 0; s < S; s++)
        for (let d = 0; d < dirs; d++)
          for (let b = 0; b < B; b++) for (let j = 0; j < H; j++) y2[((b * S + s) * dirs + d) * H + j] = Y[((s * dirs + d) * B + b) * H + j]!;
      y = fromNumbers(dtype, [B, S, dirs, H], y2);
      const swap = (v: Float64Array) => {
        const o = floats64(v.length);
        for (let d = 0; d < dirs; d++) for (let b = 0; b < B; b++) for (let j = 0; j < H; j++) o[(b * dirs + d) * H + j] = v[(d * B + b) * H + j]!;
        return o;
      };
      yh = fromNumbers(dtype, [B, dirs, H], swap(Yh));
      yc = fromNumbers(dtype, [B, dirs, H], swap(Yc));
    }
    return kind === "lstm" ? [y, yh, yc] : [y, yh];
  };
}

export function registerRecurrent(r: Registry): void {
  r.register("RNN", recurrent("rnn"));
  r.register("GRU", recurrent("gru"));
  r.register("LSTM", recurrent("lstm"));
}
