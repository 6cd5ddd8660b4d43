// 2-D convolution (NCHW, OIHW weights) on the WebAssembly GEMM, split across the pool.

import { ConvMode, ConvSlot, im2colColumns } from "./conv-job.js";
import { JobKind } from "./jobs.js";
import { kernelPool, type KernelPool } from "./pool.js";
import { GEMM_FLAG_RELU, GEMM_MR, GEMM_NR } from "./wasm/gemm-layout.js";
import { floats32 } from "../value.js";

interface Conv2dOptions {
  strides?: readonly [number, number];
  /** [top, left, bottom, right] */
  pads?: readonly [number, number, number, number];
  dilations?: readonly [number, number];
  group?: number;
  /** Apply max(0, y) to the result (a Conv followed by Relu). */
  relu?: boolean;
  /** y[m] = conv(x)[m] * scale[m] + shift[m] (folded per-channel steps), before any ReLU. */
  scale?: Float32Array;
  shift?: Float32Array;
  /** Added to the result (same layout as the output) before the ReLU: a fused residual Add. */
  residual?: Float32Array;
}

interface Conv2dResult {
  data: Float32Array;
  dims: [number, number, number, number];
}

/** Below this many multiply-adds a job is not worth splitting across threads. */
const PARALLEL_MIN_MACS = 1 << 18;

function conv2dOutputSize(inSize: number, kernel: number, stride: number, dilation: number, padBefore: number, padAfter: number): number {
  return Math.floor((inSize + padBefore + padAfter - ((kernel - 1) * dilation + 1)) / stride) + 1;
}

type Layout = "direct" | "shifted" | "im2col";

/**
 * Shifted rows compute (kw - 1) * dw dropped columns per padded row: that much of the GEMM is
 * wasted on every output channel, while im2col costs about one copy of B. In multiply-adds
 * per element of B, the waste is m * dropped / paddedW; a copy costs a few.
 */
const SHIFTED_MAX_WASTE = 4;

function shiftedWaste(m: number, kw: number, dw: number, paddedW: number): number {
  return (m * (kw - 1) * dw) / paddedW;
}

export function conv2d(
  x: Float32Array,
  xDims: readonly number[],
  w: Float32Array,
  wDims: readonly number[],
  bias: Float32Array | undefined,
  options: Conv2dOptions = {},
  pool: KernelPool = kernelPool(),
): Conv2dResult {
  const [batch, channels, height, width] = xDims as [number, number, number, number];
  const [m, cg, kh, kw] = wDims as [number, number, number, number];
  const group = options.group ?? 1;
  const [sh, sw] = options.strides ?? [1, 1];
  const [dh, dw] = options.dilations ?? [1, 1];
  const [pt, pl, pb, pr] = options.pads ?? [0, 0, 0, 0];
  if (channels !== cg * group || m % group !== 0) throw new Error(`conv2d: channels ${channels}, weights [${wDims.join(",")}], group ${group} do not fit`);
  const outH = conv2dOutputSize(height, kh, sh, dh, pt, pb);
  const outW = conv2dOutputSize(width, kw, sw, dw, pl, pr);
  if (outH <= 0 || outW <= 0) throw new Error("conv2d: empty output");
  const k = cg * kh * kw;
  const mg = m / group;
  const mPanels = Math.ceil(mg / GEMM_MR);
  const mPad = mPanels * GEMM_MR;
  const layout: Layout =
    kh === 1 && kw === 1 && sh === 1 && sw === 1 && pt === 0 && pl === 0 && pb === 0 && pr === 0
      ? "direct"
      : sh === 1 && sw === 1 && shiftedWaste(mg, kw, dw, width + pl + pr) < SHIFTED_MAX_WASTE
        ? "shifted"
        : "im2col";
  // The input as the kernels see it: zero-padded for shifted rows.
  const inH = layout === "shifted" ? height + pt + pb : height;
  const inW = layout === "shifted" ? width + pl + pr : width;
  // C's columns: shifted rows compute full padded rows and drop the tail of each.
  const rowW = layout === "shifted" ? inW : outW;
  const n = outH * rowW;
  const nPad = Math.ceil(n / GEMM_NR) * GEMM_NR;
  const plane = layout === "direct" ? nPad : inH * inW;
  const out = floats32(batch * m * outH * outW);

  const arena = pool.arena;
  const mark = arena.mark();
  try {
    // Rows past M in the last row panel are read (results dropped): keep them allocated.
    const wOff = arena.alloc((m + GEMM_MR) * k);
    const biasOff = bias ? arena.alloc(group * mPad) : 0;
    // Shifted rows of the last channel run up to a kernel width and a panel past its plane.
    const xFloats = channels * plane + (layout === "shifted" ? (kw - 1) * dw + GEMM_NR * 2 : 0);
    const xOff = arena.alloc(xFloats);
    const colOff = layout === "im2col" ? arena.alloc(k * nPad) : 0;
    const tableOff = layout === "shifted" ? arena.alloc(k) : 0;
    const cOff = arena.alloc(mPad * nPad);
    let f = arena.f32;
    f.set(w, wOff >> 2);
    const scaleOff = options.scale ? arena.alloc(group * mPad) : 0;
    const shiftOff = options.shift ? arena.alloc(group * mPad) : 0;
    f = arena.f32;
    for (const [values, at] of [
      [bias, biasOff],
      [options.scale, scaleOff],
      [options.shift, shiftOff],
    ] as const) {
      if (!values) continue;
      for (let g = 0; g < group; g++) {
        f.set(values.subarray(g * mg, (g + 1) * mg), (at >> 2) + g * mPad);
        f.fill(0, (at >> 2) + g * mPad + mg, (at >> 2) + (g + 1) * mPad);
      }
    }
    if (layout === "shifted") {
      const table = new Int32Array(f.buffer, tableOff, k);
      let i = 0;
      for (let c = 0; c < cg; c++) {
        for (let ky = 0; ky < kh; ky++) for (let kx = 0; kx < kw; kx++) table[i++] = (c * plane + ky * dh * inW + kx * dw) * 4;
      }
    }

    const macs = mg * k * n;
    const threads = macs < PARALLEL_MIN_MACS ? 1 : pool.threads();
    const nPanels = nPad / GEMM_NR;
    const splitRows = threads > 1 && nPanels < 4 * threads && mPanels >= 2 * threads;
    // Several chunks per thread, so that threads that start late or run slow share the work.
    const parts = threads === 1 ? 1 : splitRows ? Math.min(mPanels, 4 * threads) : Math.min(Math.ceil(nPanels / 4), 6 * threads);

    for (let img = 0; img < batch; img++) {
      const image = x.subarray(img * channels * height * width, (img + 1) * channels * height * width);
      copyInput(arena.f32, xOff >> 2, image, channels, height, width, layout, nPad, pt, pl, inH, inW, xFloats);
      for (let g = 0; g < group; g++) {
        const xGroup = xOff + g * cg * plane * 4;
        let mode = layout === "direct" ? ConvMode.Direct : layout === "shifted" ? ConvMode.Shifted : ConvMode.Im2colPerPart;
        const write = (s: Int32Array): void => {
          s[ConvSlot.X] = xGroup;
          s[ConvSlot.Channels] = cg;
          s[ConvSlot.Height] = height;
          s[ConvSlot.Width] = width;
          s[ConvSlot.KernelH] = kh;
          s[ConvSlot.KernelW] = kw;
          s[ConvSlot.StrideH] = sh;
          s[ConvSlot.StrideW] = sw;
          s[ConvSlot.DilationH] = dh;
          s[ConvSlot.DilationW] = dw;
          s[ConvSlot.PadTop] = pt;
          s[ConvSlot.PadLeft] = pl;
          s[ConvSlot.OutH] = outH;
          s[ConvSlot.OutW] = outW;
          s[ConvSlot.Mode] = mode;
          s[ConvSlot.Col] = colOff;
          s[ConvSlot.Ldb] = nPad;
          s[ConvSlot.A] = wOff + g * mg * k * 4;
          s[ConvSlot.K] = k;
          s[ConvSlot.M] = mg;
          s[ConvSlot.C] = cOff;
          s[ConvSlot.Ldc] = nPad;
          s[ConvSlot.Bias] = bias ? biasOff + g * mPad * 4 : 0;
          s[ConvSlot.Flags] = options.relu && !options.residual ? GEMM_FLAG_RELU : 0;
          s[ConvSlot.SplitRows] = splitRows ? 1 : 0;
          s[ConvSlot.N] = n;
          s[ConvSlot.Table] = tableOff;
          s[ConvSlot.Scale] = scaleOff ? scaleOff + g * mPad * 4 : 0;
          s[ConvSlot.Shift] = shiftOff ? shiftOff + g * mPad * 4 : 0;
        };
        if (splitRows && layout === "im2col") {
          // Every row part needs all columns: expand once before splitting.
          const slots = new Int32Array(32);
          write(slots);
          im2colColumns(slots, pool.kernels, 0, n, nPad);
          mode = ConvMode.Im2colDone;
        }
        pool.parallel(JobKind.Conv, parts, write);
        // Copy the valid rows and columns of C out of the shared memory.
        const base = (img * m + g * mg) * outH * outW;
        copyOut(arena.f32, cOff >> 2, nPad, rowW, out, base, mg, outH, outW, options.residual, options.relu ?? false);
      }
    }
  } finally {
    arena.release(mark);
  }
  return { data: out, dims: [batch, m, outH, outW] };
}

/**
 * Copies mg rows of C (nPad floats apart, output rows rowW apart of which outW are valid) to
 * out at base, adding the residual and applying the ReLU when a residual is fused.
 */
function copyOut(
  f: Float32Array,
  c0: number,
  nPad: number,
  rowW: number,
  out: Float32Array,
  base: number,
  mg: number,
  outH: number,
  outW: number,
  residual: Float32Array | undefined,
  relu: boolean,
): void {
  const n = outH * rowW;
  if (!residual) {
    if (nPad === n && rowW === outW) {
      out.set(f.subarray(c0, c0 + mg * n), base);
      return;
    }
    if (rowW === outW) {
      for (let r = 0; r < mg; r++) out.set(f.subarray(c0 + r * nPad, c0 + r * nPad + n), base + r * n);
      return;
    }
  }
  // Row by row without subarray objects: there are mg * outH short rows.
  let dst = base;
  for (let r = 0; r < mg; r++) {
    for (let oy = 0; oy < outH; oy++) {
      const src = c0 + r * nPad + oy * rowW;
      if (!residual) {
        for (let ox = 0; ox < outW; ox++) out[dst++] = f[src + ox]!;
      } else if (relu) {
        for (let ox = 0; ox < outW; ox++, dst++) {
          const v = f[src + ox]! + residual[dst]!;
          out[dst] = v < 0 ? 0 : v;
        }
      } else {
        for (let ox = 0; ox < outW; ox++, dst++) out[dst] = f[src + ox]! + residual[dst]!;
      }
    }
  }
}

/** Copies one image into the kernels' layout: rows padded to nPad, zero-padded planes, or as is. */
function copyInput(
  f: Float32Array,
  at: number,
  image: Float32Array,
  channels: number,
  height: number,
  width: number,
  layout: Layout,
  nPad: number,
  pt: number,
  pl: number,
  inH: number,
  inW: number,
  floats: number,
): void {
  if (layout === "direct") {
    const n = height * width;
    if (nPad === n) f.set(image, at);
    else {
      for (let ch = 0; ch < channels; ch++) {
        const dst = at + ch * nPad;
        f.set(image.subarray(ch * n, (ch + 1) * n), dst);
        f.fill(0, dst + n, dst + nPad);
      }
    }
  } else if (layout === "im2col") {
    f.set(image, at);
  } else {
    // One bulk copy to the end of the buffer, then each row moved forward to its padded place
    // (a row never lands past a source row still to move), then the padding zeroed: no
    // per-row subarray objects.
    const tail = at + floats - channels * height * width;
    f.set(image, tail);
    for (let ch = 0; ch < channels; ch++) {
      for (let y = 0; y < height; y++) {
        const src = tail + (ch * height + y) * width;
        f.copyWithin(at + ch * inH * inW + (y + pt) * inW + pl, src, src + width);
      }
    }
    for (let ch = 0; ch < channels; ch++) {
      const base = at + ch * inH * inW;
      f.fill(0, base, base + pt * inW + pl);
      for (let y = 0; y < height; y++) {
        const rowEnd = base + (y + pt) * inW + pl + width;
        f.fill(0, rowEnd, y + 1 < height ? rowEnd + inW - width : base + inH * inW);
      }
    }
    f.fill(0, at + channels * inH * inW, at + floats);
  }
}
