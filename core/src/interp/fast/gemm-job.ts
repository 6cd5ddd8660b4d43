// Blocked C = A * B (+ bias per row, optional ReLU) on the WASM micro-kernel over a range
// of row and column panels, and the plain GEMM job built on it. Offsets are bytes into
// the shared memory; leading dimensions are in floats; ldb and ldc are multiples of NR.

import { pollRun } from "../budget.js";
import { GEMM_FLAG_ACCUMULATE, GEMM_FLAG_AFFINE, GEMM_FLAG_RELU, GEMM_MR, GEMM_NR } from "./wasm/gemm-layout.js";
import type { KernelExports } from "./wasm/kernel-instance.js";

/** Depth of the k blocks: a block of B column panels stays in L1 across the rows. */
const KC = 256;
/** Column panels per chunk: keeps the C chunk in L2 across the k blocks. */
const NC_PANELS = 32;
/** Row panels per block: keeps the A block (MC x KC) in L2 across the column panels. */
const MC_PANELS = 16;

interface GemmOperands {
  a: number;
  lda: number;
  b: number;
  ldb: number;
  c: number;
  ldc: number;
  k: number;
  /** Byte offset of M (padded to MR) row biases, or 0. */
  bias: number;
  relu: boolean;
  /** Byte offsets of M (padded) per-row factors and terms applied after the product, or 0. */
  scale?: number;
  shift?: number;
  /** Byte offset of K int32 byte offsets of B's rows relative to b (then ldb is unused), or 0. */
  table?: number;
}

export function panelRange(count: number, part: number, parts: number): [number, number] {
  return [Math.floor((part * count) / parts), Math.floor(((part + 1) * count) / parts)];
}

/** Computes row panels [m0, m1) x column panels [p0, p1) of C. */
export function gemmPanels(kernels: KernelExports, g: GemmOperands, m0: number, m1: number, p0: number, p1: number): void {
  const affine = g.scale || g.shift ? GEMM_FLAG_AFFINE : 0;
  for (let q0 = p0; q0 < p1; q0 += NC_PANELS) {
    const q1 = Math.min(p1, q0 + NC_PANELS);
    for (let pc = 0; pc < g.k; pc += KC) {
      const kc = Math.min(KC, g.k - pc);
      const last = pc + kc >= g.k;
      const flags = (pc > 0 ? GEMM_FLAG_ACCUMULATE : 0) | (last && g.relu ? GEMM_FLAG_RELU : 0) | (last ? affine : 0);
      for (let r0 = m0; r0 < m1; r0 += MC_PANELS) {
        // A no-op on helper threads; on the main thread it ends a run past its deadline.
        pollRun();
        const r1 = Math.min(m1, r0 + MC_PANELS);
        const a = g.a + (r0 * GEMM_MR * g.lda + pc) * 4;
        const c = g.c + (r0 * GEMM_MR * g.ldc + q0 * GEMM_NR) * 4;
        const bias = g.bias === 0 ? 0 : g.bias + r0 * GEMM_MR * 4;
        const scale = g.scale ? g.scale + r0 * GEMM_MR * 4 : 0;
        const shift = g.shift ? g.shift + r0 * GEMM_MR * 4 : 0;
        if (g.table) {
          kernels.gemm_table(
            a,
            g.b + q0 * GEMM_NR * 4,
            c,
            bias,
            kc,
            r1 - r0,
            q1 - q0,
            GEMM_MR * g.lda * 4,
            g.lda * 4,
            4,
            g.table + pc * 4,
            GEMM_NR * 4,
            g.ldc * 4,
            flags,
            scale,
            shift,
          );
        } else {
          kernels.gemm(
            a,
            g.b + (pc * g.ldb + q0 * GEMM_NR) * 4,
            c,
            bias,
            kc,
            r1 - r0,
            q1 - q0,
            GEMM_MR * g.lda * 4,
            g.lda * 4,
            4,
            g.ldb * 4,
            GEMM_NR * 4,
            g.ldc * 4,
            flags,
            scale,
            shift,
          );
        }
      }
    }
  }
}

/** Int32 parameter slots of a GEMM job. */
export const enum GemmSlot {
  A,
  Lda,
  B,
  Ldb,
  C,
  Ldc,
  M,
  K,
  N,
  Bias,
  Relu,
  SplitRows,
}

export function runGemmPart(s: Int32Array, part: number, parts: number, kernels: KernelExports): void {
  const mPanels = Math.ceil(s[GemmSlot.M]! / GEMM_MR);
  const nPanels = Math.ceil(s[GemmSlot.N]! / GEMM_NR);
  let p0 = 0,
    p1 = nPanels,
    m0 = 0,
    m1 = mPanels;
  if (s[GemmSlot.SplitRows] === 1) [m0, m1] = panelRange(mPanels, part, parts);
  else [p0, p1] = panelRange(nPanels, part, parts);
  if (p0 >= p1 || m0 >= m1) return;
  gemmPanels(
    kernels,
    {
      a: s[GemmSlot.A]!,
      lda: s[GemmSlot.Lda]!,
      b: s[GemmSlot.B]!,
      ldb: s[GemmSlot.Ldb]!,
      c: s[GemmSlot.C]!,
      ldc: s[GemmSlot.Ldc]!,
      k: s[GemmSlot.K]!,
      bias: s[GemmSlot.Bias]!,
      relu: s[GemmSlot.Relu] === 1,
    },
    m0,
    m1,
    p0,
    p1,
  );
}
