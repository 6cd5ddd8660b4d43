// 2-D convolution (NCHW, OIHW weights) on the WebAssembly GEMM, split across the pool.

import { ConvMode, ConvSlot, im2colColumns } from './conv-job.js';
import { JobKind } from './jobs.js';
import { kernelPool, type KernelPool } from './pool.js';
import { GEMM_FLAG_RELU, GEMM_MR, GEMM_NR } from './wasm/gemm-kernel.js';

export interface Conv2dOptions {
  strides?: readonly [number, number];
  /** [top, left, bottom, right] */
  pads?: readonly [number, number, number, number];
  dilations?: readonly [number, number];
  group?: number;
  /** Apply max(0, y) to the result (a Conv followed by Relu). */
  relu?: boolean;
}

export interface Conv2dResult {
  data: Float32Array;
  dims: [number, number, number, number];
}

/** Below this many multiply-adds a job is not worth splitting across threads. */
const PARALLEL_MIN_MACS = 1 << 18;

export function conv2dOutputSize(inSize: number, kernel: number, stride: number, dilation: number, padBefore: number, padAfter: number): number {
  return Math.floor((inSize + padBefore + padAfter - ((kernel - 1) * dilation + 1)) / stride) + 1;
}

export function conv2d(
  x: Float32Array, xDims: readonly number[], w: Float32Array, wDims: readonly number[],
  bias: Float32Array | undefined, options: Conv2dOptions = {}, pool: KernelPool = kernelPool(),
): Conv2dResult {
  const [batch, channels, height, width] = xDims as [number, number, number, number];
  const [m, cg, kh, kw] = wDims as [number, number, number, number];
  const group = options.group ?? 1;
  const [sh, sw] = options.strides ?? [1, 1];
  const [dh, dw] = options.dilations ?? [1, 1];
  const [pt, pl, pb, pr] = options.pads ?? [0, 0, 0, 0];
  if (channels !== cg * group || m % group !== 0) throw new Error(`conv2d: channels ${channels}, weights [${wDims.join(',')}], group ${group} do not fit`);
  const outH = conv2dOutputSize(height, kh, sh, dh, pt, pb);
  const outW = conv2dOutputSize(width, kw, sw, dw, pl, pr);
  if (outH <= 0 || outW <= 0) throw new Error('conv2d: empty output');
  const n = outH * outW;
  const nPad = Math.ceil(n / GEMM_NR) * GEMM_NR;
  const k = cg * kh * kw;
  const mg = m / group;
  const mPanels = Math.ceil(mg / GEMM_MR);
  const mPad = mPanels * GEMM_MR;
  const direct = kh === 1 && kw === 1 && sh === 1 && sw === 1 && pt === 0 && pl === 0 && pb === 0 && pr === 0;
  const out = new Float32Array(batch * m * n);

  const arena = pool.arena;
  const mark = arena.mark();
  try {
    // Rows past M in the last row panel are read (results dropped): keep them allocated.
    const wOff = arena.alloc((m + GEMM_MR) * k);
    const biasOff = bias ? arena.alloc(group * mPad) : 0;
    const xOff = arena.alloc(direct ? channels * nPad : channels * height * width);
    const colOff = direct ? 0 : arena.alloc(k * nPad);
    const cOff = arena.alloc(mPad * nPad);
    let f = arena.f32;
    f.set(w, wOff >> 2);
    if (bias) {
      for (let g = 0; g < group; g++) {
        f.set(bias.subarray(g * mg, (g + 1) * mg), (biasOff >> 2) + g * mPad);
        f.fill(0, (biasOff >> 2) + g * mPad + mg, (biasOff >> 2) + (g + 1) * mPad);
      }
    }

    const macs = mg * k * n;
    const threads = macs < PARALLEL_MIN_MACS ? 1 : pool.threads();
    const nPanels = nPad / GEMM_NR;
    const splitRows = threads > 1 && nPanels < 4 * threads && mPanels >= 2 * threads;
    const parts = threads > 1 && (splitRows || nPanels >= threads) ? threads : 1;

    for (let img = 0; img < batch; img++) {
      f = arena.f32;
      const image = x.subarray(img * channels * height * width, (img + 1) * channels * height * width);
      if (direct && nPad !== n) {
        for (let ch = 0; ch < channels; ch++) {
          const dst = (xOff >> 2) + ch * nPad;
          f.set(image.subarray(ch * n, (ch + 1) * n), dst);
          f.fill(0, dst + n, dst + nPad);
        }
      } else {
        f.set(image, xOff >> 2);
      }
      for (let g = 0; g < group; g++) {
        const xGroup = xOff + g * cg * (direct ? nPad : height * width) * 4;
        let mode = direct ? ConvMode.Direct : ConvMode.Im2colPerPart;
        const write = (s: Int32Array): void => {
          s[ConvSlot.X] = xGroup; s[ConvSlot.Channels] = cg; s[ConvSlot.Height] = height; s[ConvSlot.Width] = width;
          s[ConvSlot.KernelH] = kh; s[ConvSlot.KernelW] = kw; s[ConvSlot.StrideH] = sh; s[ConvSlot.StrideW] = sw;
          s[ConvSlot.DilationH] = dh; s[ConvSlot.DilationW] = dw; s[ConvSlot.PadTop] = pt; s[ConvSlot.PadLeft] = pl;
          s[ConvSlot.OutH] = outH; s[ConvSlot.OutW] = outW; s[ConvSlot.Mode] = mode; s[ConvSlot.Col] = colOff;
          s[ConvSlot.Ldb] = nPad; s[ConvSlot.A] = wOff + g * mg * k * 4; s[ConvSlot.K] = k; s[ConvSlot.M] = mg;
          s[ConvSlot.C] = cOff; s[ConvSlot.Ldc] = nPad; s[ConvSlot.Bias] = bias ? biasOff + g * mPad * 4 : 0;
          s[ConvSlot.Flags] = options.relu ? GEMM_FLAG_RELU : 0; s[ConvSlot.SplitRows] = splitRows ? 1 : 0;
        };
        if (splitRows && !direct) {
          // Every row part needs all columns: expand once before splitting.
          const slots = new Int32Array(32);
          write(slots);
          im2colColumns(slots, arena.f32, 0, n, nPad);
          mode = ConvMode.Im2colDone;
        }
        pool.parallel(JobKind.Conv, parts, write);
        // Copy the valid rows and columns of C out of the shared memory.
        f = arena.f32;
        const base = (img * m + g * mg) * n;
        if (nPad === n) out.set(f.subarray(cOff >> 2, (cOff >> 2) + mg * n), base);
        else for (let r = 0; r < mg; r++) out.set(f.subarray((cOff >> 2) + r * nPad, (cOff >> 2) + r * nPad + n), base + r * n);
      }
    }
  } finally {
    arena.release(mark);
  }
  return { data: out, dims: [batch, m, outH, outW] };
}
