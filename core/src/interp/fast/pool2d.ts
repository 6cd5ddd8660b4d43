// 2-D max and average pooling on NCHW float32 (WebAssembly across the pool; JavaScript for
// dilated max pooling), plus the global variants.

import { JobKind } from "./jobs.js";
import { PoolSlot } from "./pool-job.js";
import { kernelPool, type KernelPool } from "./pool.js";
import { POOL_AVERAGE, POOL_AVERAGE_INCLUDE_PAD, POOL_MAX } from "./wasm/pool-kernel.js";
import { floats32 } from "../value.js";

export interface Pool2dOptions {
  kernel: readonly [number, number];
  strides?: readonly [number, number];
  /** [top, left, bottom, right] */
  pads?: readonly [number, number, number, number];
  dilations?: readonly [number, number];
  ceilMode?: boolean;
  /** AveragePool: divide by the window size including padding. */
  countIncludePad?: boolean;
}

interface Pool2dResult {
  data: Float32Array;
  dims: [number, number, number, number];
}

function pooledSize(inSize: number, kernel: number, stride: number, dilation: number, padBefore: number, padAfter: number, ceilMode: boolean): number {
  const span = (kernel - 1) * dilation + 1;
  const room = inSize + padBefore + padAfter - span;
  let out = (ceilMode ? Math.ceil(room / stride) : Math.floor(room / stride)) + 1;
  // A window may not start in the trailing padding (it would see no input).
  if (ceilMode && (out - 1) * stride >= inSize + padBefore) out--;
  return out;
}

function geometry(dims: readonly number[], o: Pool2dOptions) {
  const [batch, channels, height, width] = dims as [number, number, number, number];
  const [kh, kw] = o.kernel;
  const [sh, sw] = o.strides ?? [1, 1];
  const [dh, dw] = o.dilations ?? [1, 1];
  const [pt, pl, pb, pr] = o.pads ?? [0, 0, 0, 0];
  const ceil = o.ceilMode ?? false;
  const outH = pooledSize(height, kh, sh, dh, pt, pb, ceil);
  const outW = pooledSize(width, kw, sw, dw, pl, pr, ceil);
  return { planes: batch * channels, batch, channels, height, width, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, outH, outW };
}

/** Below this many window reads a pooling is not worth splitting across threads. */
const PARALLEL_MIN_READS = 1 << 16;

function poolInWasm(x: Float32Array, g: ReturnType<typeof geometry>, mode: number, pool: KernelPool): Pool2dResult {
  const arena = pool.arena;
  const mark = arena.mark();
  const out = floats32(g.planes * g.outH * g.outW);
  try {
    const xOff = arena.alloc(x.length);
    const yOff = arena.alloc(out.length);
    arena.f32.set(x, xOff >> 2);
    const reads = out.length * g.kh * g.kw;
    const threads = reads < PARALLEL_MIN_READS ? 1 : pool.threads();
    const parts = Math.min(g.planes, threads === 1 ? 1 : 4 * threads);
    pool.parallel(JobKind.Pool, parts, (s) => {
      s[PoolSlot.X] = xOff;
      s[PoolSlot.Y] = yOff;
      s[PoolSlot.Planes] = g.planes;
      s[PoolSlot.Height] = g.height;
      s[PoolSlot.Width] = g.width;
      s[PoolSlot.OutH] = g.outH;
      s[PoolSlot.OutW] = g.outW;
      s[PoolSlot.KernelH] = g.kh;
      s[PoolSlot.KernelW] = g.kw;
      s[PoolSlot.StrideH] = g.sh;
      s[PoolSlot.StrideW] = g.sw;
      s[PoolSlot.PadTop] = g.pt;
      s[PoolSlot.PadLeft] = g.pl;
      s[PoolSlot.PadBottom] = g.pb;
      s[PoolSlot.PadRight] = g.pr;
      s[PoolSlot.Mode] = mode;
    });
    out.set(arena.f32.subarray(yOff >> 2, (yOff >> 2) + out.length));
  } finally {
    arena.release(mark);
  }
  return { data: out, dims: [g.batch, g.channels, g.outH, g.outW] };
}

export function maxPool2dF32(x: Float32Array, dims: readonly number[], options: Pool2dOptions, pool: KernelPool = kernelPool()): Pool2dResult {
  const g = geometry(dims, options);
  if (g.dh === 1 && g.dw === 1) return poolInWasm(x, g, POOL_MAX, pool);
  const out = floats32(g.planes * g.outH * g.outW);
  // Dilated windows (the plain ones run in WebAssembly).
  let o = 0;
  for (let p = 0; p < g.planes; p++) {
    const plane = p * g.height * g.width;
    for (let oy = 0; oy < g.outH; oy++) {
      const y0 = oy * g.sh - g.pt;
      for (let ox = 0; ox < g.outW; ox++) {
        const x0 = ox * g.sw - g.pl;
        let best = -Infinity;
        for (let ky = 0; ky < g.kh; ky++) {
          const iy = y0 + ky * g.dh;
          if (iy < 0 || iy >= g.height) continue;
          const row = plane + iy * g.width;
          for (let kx = 0; kx < g.kw; kx++) {
            const ix = x0 + kx * g.dw;
            if (ix < 0 || ix >= g.width) continue;
            const v = x[row + ix]!;
            if (v > best || v !== v) best = v;
          }
        }
        out[o++] = best;
      }
    }
  }
  return { data: out, dims: [g.batch, g.channels, g.outH, g.outW] };
}

/** AveragePool (no dilation): sums over the clipped window, divided by its size with or without padding. */
export function averagePool2dF32(x: Float32Array, dims: readonly number[], options: Pool2dOptions, pool: KernelPool = kernelPool()): Pool2dResult {
  const g = geometry(dims, options);
  if (g.dh !== 1 || g.dw !== 1) throw new Error("averagePool2dF32: dilations are not supported");
  return poolInWasm(x, g, options.countIncludePad ? POOL_AVERAGE_INCLUDE_PAD : POOL_AVERAGE, pool);
}

/** GlobalAveragePool / GlobalMaxPool over all axes after the first two. */
export function globalPoolF32(x: Float32Array, dims: readonly number[], kind: "average" | "max"): { data: Float32Array; dims: number[] } {
  const planes = (dims[0] ?? 1) * (dims[1] ?? 1);
  let inner = 1;
  for (let i = 2; i < dims.length; i++) inner *= dims[i]!;
  const out = floats32(planes);
  for (let p = 0, i = 0; p < planes; p++) {
    const end = i + inner;
    if (kind === "average") {
      let sum = 0;
      for (; i < end; i++) sum += x[i]!;
      out[p] = sum / inner;
    } else {
      let best = -Infinity;
      for (; i < end; i++) if (x[i]! > best || Number.isNaN(x[i]!)) best = x[i]!;
      out[p] = best;
    }
  }
  return { data: out, dims: [dims[0] ?? 1, dims[1] ?? 1, ...dims.slice(2).map(() => 1)] };
}
