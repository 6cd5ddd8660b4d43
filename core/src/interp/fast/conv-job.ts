// One group of one image of a 2-D convolution as a GEMM: C[M, N] = W[M, K] * B[K, N] where
// B is the input itself (1x1 kernels, stride 1, no padding), its im2col expansion
// (N = outH * outW), or, for stride 1, shifted views of the zero-padded input read through
// a row offset table (N = outH * paddedW; the columns past outW in each row are dropped).
// A part is a range of column panels (or of row panels).

import { gemmPanels, panelRange } from './gemm-job.js';
import { GEMM_FLAG_RELU, GEMM_MR, GEMM_NR } from './wasm/gemm-kernel.js';
import type { KernelExports } from './wasm/kernel-module.js';

/** Int32 parameter slots of a conv job. */
export const enum ConvSlot {
  X, Channels, Height, Width, KernelH, KernelW, StrideH, StrideW, DilationH, DilationW, PadTop, PadLeft,
  OutH, OutW, Mode, Col, Ldb, A, K, M, C, Ldc, Bias, Flags, SplitRows,
  /** Columns of C (outH * outW, or outH * paddedW for shifted rows). */
  N,
  /** Byte offset of the row offset table (shifted rows). */
  Table,
  /** Byte offsets of per-row factors and terms applied after the product (0 = none). */
  Scale, Shift,
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


export function runConvPart(s: Int32Array, part: number, parts: number, f32: Float32Array, kernels: KernelExports): void {
  const n = s[ConvSlot.N]!;
  const nPanels = Math.ceil(n / GEMM_NR);
  const mPanels = Math.ceil(s[ConvSlot.M]! / GEMM_MR);
  let p0 = 0, p1 = nPanels, m0 = 0, m1 = mPanels;
  if (s[ConvSlot.SplitRows] === 1) [m0, m1] = panelRange(mPanels, part, parts);
  else [p0, p1] = panelRange(nPanels, part, parts);
  if (p0 >= p1 || m0 >= m1) return;
  if (s[ConvSlot.Mode] === ConvMode.Im2colPerPart) im2colColumns(s, f32, p0 * GEMM_NR, Math.min(p1 * GEMM_NR, n), p1 * GEMM_NR);
  gemmBlock(s, kernels, m0, m1, p0, p1);
}

function gemmBlock(s: Int32Array, kernels: KernelExports, m0: number, m1: number, p0: number, p1: number): void {
  const mode = s[ConvSlot.Mode];
  const b = mode === ConvMode.Direct || mode === ConvMode.Shifted ? s[ConvSlot.X]! : s[ConvSlot.Col]!;
  gemmPanels(kernels, {
    a: s[ConvSlot.A]!, lda: s[ConvSlot.K]!, b, ldb: s[ConvSlot.Ldb]!, c: s[ConvSlot.C]!, ldc: s[ConvSlot.Ldc]!,
    k: s[ConvSlot.K]!, bias: s[ConvSlot.Bias]!, relu: (s[ConvSlot.Flags]! & GEMM_FLAG_RELU) !== 0,
    table: mode === ConvMode.Shifted ? s[ConvSlot.Table]! : 0,
    scale: s[ConvSlot.Scale]!, shift: s[ConvSlot.Shift]!,
  }, m0, m1, p0, p1);
}

/** Writes im2col rows for output columns [n0, n1), zeroing the padding columns up to nEnd. */
export function im2colColumns(s: Int32Array, f: Float32Array, n0: number, n1: number, nEnd: number): void {
  const channels = s[ConvSlot.Channels]!, height = s[ConvSlot.Height]!, width = s[ConvSlot.Width]!;
  const kh = s[ConvSlot.KernelH]!, kw = s[ConvSlot.KernelW]!;
  const sh = s[ConvSlot.StrideH]!, sw = s[ConvSlot.StrideW]!;
  const dh = s[ConvSlot.DilationH]!, dw = s[ConvSlot.DilationW]!;
  const padTop = s[ConvSlot.PadTop]!, padLeft = s[ConvSlot.PadLeft]!;
  const outW = s[ConvSlot.OutW]!;
  const ldb = s[ConvSlot.Ldb]!;
  const x = s[ConvSlot.X]! >> 2;
  let row = s[ConvSlot.Col]! >> 2;
  for (let ch = 0; ch < channels; ch++) {
    const plane = x + ch * height * width;
    for (let ky = 0; ky < kh; ky++) {
      for (let kx = 0; kx < kw; kx++, row += ldb) {
        let col = n0;
        let oy = Math.floor(n0 / outW);
        let ox = n0 - oy * outW;
        while (col < n1) {
          const end = Math.min(n1, col + outW - ox);
          const iy = oy * sh - padTop + ky * dh;
          let dst = row + col;
          if (iy < 0 || iy >= height) {
            f.fill(0, dst, dst + end - col);
          } else {
            // Output columns [lo, hi) of this row read inside the input row; the rest is padding.
            const src = plane + iy * width;
            const shift = kx * dw - padLeft;
            const lo = Math.min(end, Math.max(ox, Math.ceil(-shift / sw)) + col - ox);
            const hi = Math.max(lo, Math.min(end, Math.ceil((width - shift) / sw) + col - ox));
            if (lo > col) f.fill(0, dst, dst + lo - col);
            let ix = (lo - col + ox) * sw + shift;
            const last = row + hi;
            for (dst = row + lo; dst < last; dst++, ix += sw) f[dst] = f[src + ix]!;
            if (end > hi) f.fill(0, row + hi, row + end);
          }
          col = end;
          oy++;
          ox = 0;
        }
        if (nEnd > n1) f.fill(0, row + n1, row + nEnd);
      }
    }
  }
}
