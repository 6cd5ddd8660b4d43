// Transformer kernels: Attention (3-d/4-d, KV cache, causal and padding masks, grouped
// query heads, softcap), RotaryEmbedding and RMSNormalization.
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, intList, numbers, sizeOf, type Tensor, type Value, floats64 } from "../value.js";
import { at, axisOf, broadcastIndex, t } from "./util.js";

/** A [B, N, S, H] view of Q, K or V given as 4-d [B, N, S, H] or 3-d [B, S, N*H]. */
function heads(x: Tensor, numHeads: number | undefined): { data: Float64Array; B: number; N: number; S: number; H: number } {
  const v = numbers(x);
  if (x.dims.length === 4) {
    const [B, N, S, H] = x.dims as [number, number, number, number];
    return { data: Float64Array.from(v), B, N, S, H };
  }
  const [B, S, hidden] = x.dims as [number, number, number];
  const N = numHeads ?? 1;
  const H = hidden / N;
  const data = floats64(v.length);
  for (let b = 0; b < B; b++)
    for (let s = 0; s < S; s++)
      for (let n = 0; n < N; n++) for (let h = 0; h < H; h++) data[((b * N + n) * S + s) * H + h] = v[(b * S + s) * hidden + n * H + h]!;
  return { data, B, N, S, H };
}

function concatSeq(past: Tensor | undefined, cur: ReturnType<typeof heads>): ReturnType<typeof heads> {
  if (!past) return cur;
  const p = numbers(past);
  const P = past.dims[2]!;
  const { B, N, S, H } = cur;
  const T = P + S;
  const data = floats64(B * N * T * H);
  for (let b = 0; b < B; b++)
    for (let n = 0; n < N; n++) {
      for (let s = 0; s < P; s++) for (let h = 0; h < H; h++) data[((b * N + n) * T + s) * H + h] = p[((b * N + n) * P + s) * H + h]!;
      for (let s = 0; s < S; s++) for (let h = 0; h < H; h++) data[((b * N + n) * T + P + s) * H + h] = cur.data[((b * N + n) * S + s) * H + h]!;
    }
  return { data, B, N, S: T, H };
}

function attention(inputs: readonly (Value | undefined)[], ctx: KernelContext): (Value | undefined)[] {
  const a = ctx.attrs;
  const Qt = t(inputs[0]);
  const Kt = t(inputs[1]);
  const Vt = t(inputs[2]);
  const maskT = inputs[3] === undefined ? undefined : t(inputs[3]);
  const pastK = inputs[4] === undefined ? undefined : t(inputs[4]);
  const pastV = inputs[5] === undefined ? undefined : t(inputs[5]);
  const nonpad = inputs[6] === undefined ? undefined : intList(t(inputs[6]));
  const q = heads(Qt, a.int("q_num_heads"));
  const k = concatSeq(pastK, heads(Kt, a.int("kv_num_heads")));
  const v = concatSeq(pastV, heads(Vt, a.int("kv_num_heads")));
  const { B, N: QN, S: SQ, H } = q;
  const KN = k.N;
  const SK = k.S;
  const HV = v.H;
  const scale = a.float("scale") ?? 1 / Math.sqrt(H);
  const causal = a.int("is_causal", 0) === 1;
  const softcap = a.float("softcap", 0);
  const mode = a.int("qk_matmul_output_mode", 0);
  const pastLen = pastK ? pastK.dims[2]! : 0;
  const leftWindow = a.int("left_window_size", -1);
  const rightWindow = a.int("right_window_size", -1);
  // additive bias per (b, n, i, j), built from the mask, causality and padding
  let maskAt: ((b: number, n: number, i: number, j: number) => number) | undefined;
  if (maskT) {
    const mv = numbers(maskT);
    const isBool = maskT.dtype === DT.BOOL;
    const md = maskT.dims.slice();
    const lastLen = md[md.length - 1]!;
    const full = [B, QN, SQ, lastLen];
    const bi = broadcastIndex(full, md);
    maskAt = (b, n, i, j) => {
      if (j >= lastLen) return -Infinity; // a shorter mask is padded with "masked"
      const m = mv[at(bi, ((b * QN + n) * SQ + i) * lastLen + j)]!;
      return isBool ? (m ? 0 : -Infinity) : m;
    };
  }
  const bias = (b: number, n: number, i: number, j: number): number => {
    let x = maskAt ? maskAt(b, n, i, j) : 0;
    // causal and window masks align the query block bottom-right, after the cached keys
    const offset = !pastK && nonpad ? nonpad[b]! - SQ : pastLen;
    if (causal && j > i + offset) x = -Infinity;
    const diff = i + offset - j;
    if ((leftWindow >= 0 && diff > leftWindow) || (rightWindow >= 0 && -diff > rightWindow)) x = -Infinity;
    if (nonpad && j >= nonpad[b]!) x = -Infinity;
    return x;
  };
  const Y = floats64(B * QN * SQ * HV);
  const QK = floats64(B * QN * SQ * SK);
  const rep = QN / KN;
  const row = floats64(SK);
  const rowBias = floats64(SK);
  for (let b = 0; b < B; b++) {
    for (let n = 0; n < QN; n++) {
      const kn = Math.floor(n / rep);
      for (let i = 0; i < SQ; i++) {
        const qOff = ((b * QN + n) * SQ + i) * H;
        let maxBias = -Infinity;
        for (let j = 0; j < SK; j++) {
          const kOff = ((b * KN + kn) * SK + j) * H;
          let dot = 0;
          for (let h = 0; h < H; h++) dot += q.data[qOff + h]! * k.data[kOff + h]!;
          let s = dot * scale;
          if (softcap > 0) s = softcap * Math.tanh(s / softcap);
          const bj = bias(b, n, i, j);
          rowBias[j] = bj;
          if (bj > maxBias) maxBias = bj;
          const qkIdx = ((b * QN + n) * SQ + i) * SK + j;
          QK[qkIdx] = s;
          row[j] = s + bj;
        }
        let max = -Infinity;
        for (let j = 0; j < SK; j++) if (row[j]! > max) max = row[j]!;
        let sum = 0;
        for (let j = 0; j < SK; j++) {
          row[j] = max === -Infinity ? 0 : Math.exp(row[j]! - max);
          sum += row[j]!;
        }
        const masked = maxBias === -Infinity;
        for (let j = 0; j < SK; j++) {
          const p = masked || sum === 0 ? 0 : row[j]! / sum;
          const qkIdx = ((b * QN + n) * SQ + i) * SK + j;
          if (mode === 2) QK[qkIdx] = QK[qkIdx]! + rowBias[j]!;
          else if (mode === 3) QK[qkIdx] = p;
          row[j] = p;
        }
        const yOff = ((b * QN + n) * SQ + i) * HV;
        for (let j = 0; j < SK; j++) {
          const p = row[j]!;
          if (p === 0) continue;
          const vOff = ((b * KN + kn) * SK + j) * HV;
          for (let h = 0; h < HV; h++) Y[yOff + h]! += p * v.data[vOff + h]!;
        }
      }
    }
  }
  const dtype = Qt.dtype;
  let y: Value;
  if (Qt.dims.length === 3) {
    const out = floats64(Y.length);
    for (let b = 0; b < B; b++)
      for (let n = 0; n < QN; n++)
        for (let i = 0; i < SQ; i++) for (let h = 0; h < HV; h++) out[(b * SQ + i) * QN * HV + n * HV + h] = Y[((b * QN + n) * SQ + i) * HV + h]!;
    y = fromNumbers(dtype, [B, SQ, QN * HV], out);
  } else y = fromNumbers(dtype, [B, QN, SQ, HV], Y);
  return [y, fromNumbers(Kt.dtype, [B, KN, SK, H], k.data), fromNumbers(Vt.dtype, [B, KN, SK, HV], v.data), fromNumbers(dtype, [B, QN, SQ, SK], QK)];
}

function rotaryEmbedding(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(inputs[0]);
  const cos = numbers(t(inputs[1]));
  const sin = numbers(t(inputs[2]));
  const cosDims = t(inputs[1]).dims;
  const pos = inputs[3] === undefined ? undefined : intList(t(inputs[3]));
  const interleaved = ctx.attrs.int("interleaved", 0) === 1;
  const four = X.dims.length === 4;
  // work in [B, S, N, H]
  const B = X.dims[0]!;
  const S = four ? X.dims[2]! : X.dims[1]!;
  const N = four ? X.dims[1]! : ctx.attrs.int("num_heads", 1);
  const H = four ? X.dims[3]! : X.dims[2]! / N;
  const rd = ctx.attrs.int("rotary_embedding_dim", 0) || H;
  const half = rd / 2;
  const xv = numbers(X);
  const out = floats64(xv.length);
  const idx = (b: number, s: number, n: number, h: number) => (four ? ((b * N + n) * S + s) * H + h : ((b * S + s) * N + n) * H + h);
  for (let b = 0; b < B; b++) {
    for (let s = 0; s < S; s++) {
      const row = pos ? pos[b * S + s]! * half : cosDims.length === 3 ? (b * S + s) * half : s * half;
      for (let n = 0; n < N; n++) {
        for (let k = 0; k < half; k++) {
          const i1 = interleaved ? 2 * k : k;
          const i2 = interleaved ? 2 * k + 1 : k + half;
          const x1 = xv[idx(b, s, n, i1)]!;
          const x2 = xv[idx(b, s, n, i2)]!;
          const c = cos[row + k]!;
          const sn = sin[row + k]!;
          out[idx(b, s, n, i1)] = c * x1 - sn * x2;
          out[idx(b, s, n, i2)] = sn * x1 + c * x2;
        }
        for (let h = rd; h < H; h++) out[idx(b, s, n, h)] = xv[idx(b, s, n, h)]!;
      }
    }
  }
  return [fromNumbers(X.dtype, X.dims, out)];
}

function rmsNorm([x, scale]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(x);
  const axis = axisOf(ctx.attrs.int("axis", -1), X.dims.length);
  const eps = ctx.attrs.float("epsilon", 1e-5);
  const outer = sizeOf(X.dims.slice(0, axis));
  const inner = sizeOf(X.dims.slice(axis));
  const xv = numbers(X);
  const st = t(scale);
  const sv = numbers(st);
  const sb = broadcastIndex(X.dims.slice(axis), st.dims.slice(Math.max(0, st.dims.length - (X.dims.length - axis))));
  const out = floats64(xv.length);
  for (let o = 0; o < outer; o++) {
    let sq = 0;
    for (let i = 0; i < inner; i++) sq += xv[o * inner + i]! ** 2;
    const r = 1 / Math.sqrt(sq / inner + eps);
    for (let i = 0; i < inner; i++) out[o * inner + i] = xv[o * inner + i]! * r * sv[at(sb, i)]!;
  }
  return [fromNumbers(X.dtype, X.dims, out)];
}

/**
 * LinearAttention: a recurrent state S[dk, dv] per kv head, updated per step as
 * S = S * exp(decay) (gated), v = beta * (v - S^T k) (delta), S += k v^T; output q S * scale.
 */
function linearAttention(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = ctx.attrs;
  const rule = a.string("update_rule", "gated_delta");
  const gating = rule === "gated" || rule === "gated_delta";
  const delta = rule === "delta" || rule === "gated_delta";
  const QN = a.int("q_num_heads") ?? 1;
  const KN = a.int("kv_num_heads") ?? QN;
  const Qt = t(inputs[0]);
  const q = heads(Qt, QN);
  const k = heads(t(inputs[1]), KN);
  const v = heads(t(inputs[2]), KN);
  const pastT = inputs[3] === undefined ? undefined : t(inputs[3]);
  const decayT = inputs[4] === undefined ? undefined : t(inputs[4]);
  const betaT = inputs[5] === undefined ? undefined : t(inputs[5]);
  const { B, S: T, H: DK } = q;
  const DV = v.H;
  const group = QN / KN;
  const scaleAttr = a.float("scale", 0);
  const scale = scaleAttr === 0 ? 1 / Math.sqrt(DK) : scaleAttr;
  const state = pastT ? Float64Array.from(numbers(pastT)) : floats64(B * KN * DK * DV);
  const decay = decayT ? numbers(decayT) : undefined;
  const decayLast = decayT ? decayT.dims[2]! : 0;
  const beta = betaT ? numbers(betaT) : undefined;
  const betaLast = betaT ? betaT.dims[2]! : 0;
  const out = floats64(B * T * QN * DV);
  const vt = floats64(DV);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < T; i++) {
      for (let h = 0; h < KN; h++) {
        const st = (b * KN + h) * DK * DV;
        const kOff = ((b * KN + h) * T + i) * DK;
        const vOff = ((b * KN + h) * T + i) * DV;
        if (gating && decay) {
          for (let d = 0; d < DK; d++) {
            const g = decayLast === KN ? decay[(b * T + i) * KN + h]! : decay[(b * T + i) * KN * DK + h * DK + d]!;
            const f = Math.exp(g);
            for (let m = 0; m < DV; m++) state[st + d * DV + m]! *= f;
          }
        }
        for (let m = 0; m < DV; m++) vt[m] = v.data[vOff + m]!;
        if (delta && beta) {
          const bt = beta[(b * T + i) * betaLast + (betaLast === 1 ? 0 : h)]!;
          for (let m = 0; m < DV; m++) {
            let retrieved = 0;
            for (let d = 0; d < DK; d++) retrieved += state[st + d * DV + m]! * k.data[kOff + d]!;
            vt[m] = bt * (vt[m]! - retrieved);
          }
        }
        for (let d = 0; d < DK; d++) for (let m = 0; m < DV; m++) state[st + d * DV + m]! += k.data[kOff + d]! * vt[m]!;
      }
      for (let h = 0; h < QN; h++) {
        const st = (b * KN + Math.floor(h / group)) * DK * DV;
        const qOff = ((b * QN + h) * T + i) * DK;
        for (let m = 0; m < DV; m++) {
          let acc = 0;
          for (let d = 0; d < DK; d++) acc += q.data[qOff + d]! * state[st + d * DV + m]!;
          out[((b * T + i) * QN + h) * DV + m] = scale * acc;
        }
      }
    }
  }
  return [fromNumbers(Qt.dtype, [B, T, QN * DV], out), fromNumbers(pastT?.dtype ?? Qt.dtype, [B, KN, DK, DV], state)];
}

/** FlexAttention: softmax(score_mod(Q K^T * scale)) -> prob_mod -> times V; mods are graphs. */
function flexAttention(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const Qt = t(inputs[0]);
  const Vt = t(inputs[2]);
  const q = heads(Qt, undefined);
  const k = heads(t(inputs[1]), undefined);
  const v = heads(Vt, undefined);
  const { B, N: QN, S: L, H: E } = q;
  const KN = k.N;
  const S = k.S;
  const EV = v.H;
  const rep = QN / KN;
  const scale = ctx.attrs.float("scale") ?? 1 / Math.sqrt(E);
  const precision = ctx.attrs.int("softmax_precision");
  const computeType = precision ?? (Qt.dtype === DT.DOUBLE ? DT.DOUBLE : DT.FLOAT);
  const scores = floats64(B * QN * L * S);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < QN; h++)
      for (let i = 0; i < L; i++)
        for (let j = 0; j < S; j++) {
          const qOff = ((b * QN + h) * L + i) * E;
          const kOff = ((b * KN + Math.floor(h / rep)) * S + j) * E;
          let dot = 0;
          for (let e = 0; e < E; e++) dot += q.data[qOff + e]! * k.data[kOff + e]!;
          scores[((b * QN + h) * L + i) * S + j] = dot * scale;
        }
  const dims = [B, QN, L, S];
  const applyMod = (name: string, values: Float64Array): Float64Array => {
    const g = ctx.attrs.graph(name);
    if (!g) return values;
    const [res] = ctx.runGraph(g, [fromNumbers(computeType, dims, values)]);
    return Float64Array.from(numbers(t(res)));
  };
  const modded = applyMod("score_mod", scores);
  for (let r = 0; r < B * QN * L; r++) {
    let max = -Infinity;
    for (let j = 0; j < S; j++) max = Math.max(max, modded[r * S + j]!);
    let sum = 0;
    for (let j = 0; j < S; j++) {
      const e = Math.exp(modded[r * S + j]! - max);
      modded[r * S + j] = e;
      sum += e;
    }
    for (let j = 0; j < S; j++) modded[r * S + j]! /= sum;
  }
  const probs = applyMod("prob_mod", modded);
  const out = floats64(B * QN * L * EV);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < QN; h++)
      for (let i = 0; i < L; i++)
        for (let j = 0; j < S; j++) {
          const p = probs[((b * QN + h) * L + i) * S + j]!;
          const vOff = ((b * KN + Math.floor(h / rep)) * S + j) * EV;
          const oOff = ((b * QN + h) * L + i) * EV;
          for (let e = 0; e < EV; e++) out[oOff + e]! += p * v.data[vOff + e]!;
        }
  return [fromNumbers(Vt.dtype, [B, QN, L, EV], out)];
}

export function registerAttention(r: Registry): void {
  r.register("FlexAttention", flexAttention, { domain: "ai.onnx.preview" });
  r.register("LinearAttention", linearAttention);
  r.register("Attention", attention);
  r.register("RotaryEmbedding", rotaryEmbedding);
  r.register("RMSNormalization", rmsNorm);
}
