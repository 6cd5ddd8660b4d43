// Attention-family operators (Attention, FlexAttention, LinearAttention, RotaryEmbedding) and
// the cache/state helpers that go with them (TensorScatter, CausalConvWithState).
import type { OpContext, OpRule } from "../context.js";
import { addDims, mulDims } from "../dims.js";
import type { Dim, Shape } from "../types.js";

function divDim(a: Dim, b: number | undefined): Dim {
  return typeof a === "number" && b ? a / b : undefined;
}

/** [B, H, S, E] of a 4-D input, or of a 3-D [B, S, H*E] one given H. */
function heads(s: Shape | undefined, numHeads: number | undefined): [Dim, Dim, Dim, Dim] | undefined {
  if (!s) return undefined;
  if (s.length === 4) return [s[0], s[1], s[2], s[3]];
  if (s.length === 3) return [s[0], numHeads, s[1], divDim(s[2], numHeads)];
  return undefined;
}

const attention: OpRule = (c: OpContext) => {
  const q = c.shapeIn(0);
  const hq = c.int("q_num_heads");
  const hkv = c.int("kv_num_heads");
  const Q = heads(q, hq);
  const K = heads(c.shapeIn(1), hkv);
  const V = heads(c.shapeIn(2), hkv);
  if (!q || !Q) return;
  const ev = V?.[3];
  c.set(0, q.length === 4 ? [Q[0], Q[1], Q[2], ev] : [Q[0], Q[2], mulDims(Q[1], ev)]);
  const pastKey = c.has(4) ? c.shapeIn(4) : undefined;
  const past = c.has(4) ? pastKey?.[2] : 0;
  const total = addDims(past, K?.[2]);
  if (c.node.output.length > 1 && K) c.set(1, [K[0], K[1], total, K[3]]);
  if (c.node.output.length > 2 && V) c.set(2, [V[0], V[1], total, V[3]]);
  if (c.node.output.length > 3) c.set(3, [Q[0], Q[1], Q[2], total]);
};

const flexAttention: OpRule = (c) => {
  const q = c.shapeIn(0);
  const v = c.shapeIn(2);
  if (q && q.length === 4) c.set(0, [q[0], q[1], q[2], v?.[3]]);
};

const linearAttention: OpRule = (c) => {
  const q = c.shapeIn(0);
  const k = c.shapeIn(1);
  const v = c.shapeIn(2);
  const hq = c.int("q_num_heads");
  const hkv = c.int("kv_num_heads");
  if (!q || q.length !== 3) return;
  const dk = divDim(k?.[2], hkv);
  const dv = divDim(v?.[2], hkv);
  c.set(0, [q[0], q[1], mulDims(hq, dv)]);
  if (c.node.output.length > 1) c.set(1, [q[0], hkv, dk, dv], c.elemOut(1) || c.elemIn(0));
};

const causalConvWithState: OpRule = (c) => {
  const x = c.shapeIn(0);
  const w = c.shapeIn(1);
  c.set(0, x);
  const k = w?.[2];
  if (x && x.length === 3) c.set(1, [x[0], x[1], typeof k === "number" ? k - 1 : undefined]);
};

export const ATTENTION_RULES: Record<string, OpRule> = {
  Attention: attention,
  LinearAttention: linearAttention,
  RotaryEmbedding: (c) => c.set(0, c.shapeIn(0)),
  TensorScatter: (c) => c.set(0, c.shapeIn(0)),
  CausalConvWithState: causalConvWithState,
  SwiGLU: (c) => c.set(0, c.shapeIn(0)),
};

export const PREVIEW_RULES: Record<string, OpRule> = { FlexAttention: flexAttention };
