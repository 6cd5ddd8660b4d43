// One group of one image of a 2-D convolution as a GEMM: C[M, N] = W[M, K] * B[K, N] where
// B is the input itself (1x1 kernels, stride 1, no padding), its im2col expansion
// (N = outH * outW), or, for stride 1, shifted views of the zero-padded input read through
// a row offset table (N = outH * paddedW; the columns past outW in each row are dropped).
// A part is a range of column panels (or of row panels).

import { gemmPanels, panelRange } from "./gemm-job.js";
import { GEMM_FLAG_RELU, GEMM_MR, GEMM_NR } from "./wasm/gemm-layout.js";
import type { KernelExports } from "./wasm/kernel-instance.js";

/** Int32 parameter slots of a conv job. */
export const enum ConvSlot {
  X,
  Channels,
  Height,
  Width,
  KernelH,
  KernelW,
  StrideH,
  StrideW,
  DilationH,
  DilationW,
  PadTop,
  PadLeft,
  OutH,
  OutW,
  Mode,
  Col,
  Ldb,
  A,
  K,
  M,
  C,
  Ldc,
  Bias,
  Flags,
  SplitRows,
  /** Columns of C (outH * outW, or outH * paddedW for shifted rows). */
  N,
  /** Byte offset of the row offset table (shifted rows). */
  Table,
  /** Byte offsets of per-row factors and terms applied after the product (0 = none). */
  Scale,
  Shift,
}

export const enum ConvMode {
  /** B is the input, rows `ldb` floats apart. */
  Direct = 0,
  /** Each part writes the im2col rows of its own columns. */
  Im2colPerPart = 1,
  /** The im2col buffer is already complete. */
  Im2colDone = 2,
  /** B rows are shifted views of the padded input at X, given by the table. */
  Shifted = 3,
}

export function runConvPart(s: Int32Array, part: number, parts: number, kernels: KernelExports): void {
  const n = s[ConvSlot.N]!;
  const nPanels = Math.ceil(n / GEMM_NR);
  const mPanels = Math.ceil(s[ConvSlot.M]! / GEMM_MR);
  let p0 = 0,
    p1 = nPanels,
    m0 = 0,
    m1 = mPanels;
  if (s[ConvSlot.SplitRows] === 1) [m0, m1] = panelRange(mPanels, part, parts);
  else [p0, p1] = panelRange(nPanels, part, parts);
  if (p0 >= p1 || m0 >= m1) return;
  if (s[ConvSlot.Mode] === ConvMode.Im2colPerPart) im2colColumns(s, kernels, p0 * GEMM_NR, Math.min(p1 * GEMM_NR, n), p1 * GEMM_NR);
  gemmBlock(s, kernels, m0, m1, p0, p1);
}

function gemmBlock(s: Int32Array, kernels: KernelExports, m0: number, m1: number, p0: number, p1: number): void {
  const mode = s[ConvSlot.Mode];
  const b = mode === ConvMode.Direct || mode === ConvMode.Shifted ? s[ConvSlot.X]! : s[ConvSlot.Col]!;
  gemmPanels(
    kernels,
    {
      a: s[ConvSlot.A]!,
      lda: s[ConvSlot.K]!,
      b,
      ldb: s[ConvSlot.Ldb]!,
      c: s[ConvSlot.C]!,
      ldc: s[ConvSlot.Ldc]!,
      k: s[ConvSlot.K]!,
      bias: s[ConvSlot.Bias]!,
      relu: (s[ConvSlot.Flags]! & GEMM_FLAG_RELU) !== 0,
      table: mode === ConvMode.Shifted ? s[ConvSlot.Table]! : 0,
      scale: s[ConvSlot.Scale]!,
      shift: s[ConvSlot.Shift]!,
    },
    m0,
    m1,
    p0,
    p1,
  );
}

/** Writes im2col rows for output columns [n0, n1), zeroing the padding columns up to nEnd. */
export function im2colColumns(s: Int32Array, kernels: KernelExports, n0: number, n1: number, nEnd: number): void {
  kernels.im2col(
    s[ConvSlot.X]!,
    s[ConvSlot.Col]!,
    s[ConvSlot.Channels]!,
    s[ConvSlot.Height]!,
    s[ConvSlot.Width]!,
    s[ConvSlot.KernelH]!,
    s[ConvSlot.KernelW]!,
    s[ConvSlot.StrideH]!,
    s[ConvSlot.StrideW]!,
    s[ConvSlot.DilationH]!,
    s[ConvSlot.DilationW]!,
    s[ConvSlot.PadTop]!,
    s[ConvSlot.PadLeft]!,
    s[ConvSlot.OutW]!,
    s[ConvSlot.Ldb]!,
    n0,
    n1,
    nEnd,
  );
}
