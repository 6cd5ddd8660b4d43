// 2-D max and average pooling on NCHW float32, plus the global variants.

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

export interface Pool2dResult {
  data: Float32Array;
  dims: [number, number, number, number];
}

export function pooledSize(inSize: number, kernel: number, stride: number, dilation: number, padBefore: number, padAfter: number, ceilMode: boolean): number {
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

/** The valid input index range [lo, hi) of a window starting at `start` (dilation 1). */
function clip(start: number, kernel: number, size: number): [number, number] {
  return [Math.max(0, start), Math.min(size, start + kernel)];
}

export function maxPool2dF32(x: Float32Array, dims: readonly number[], options: Pool2dOptions): Pool2dResult {
  const g = geometry(dims, options);
  const out = new Float32Array(g.planes * g.outH * g.outW);
  const dilated = g.dh !== 1 || g.dw !== 1;
  let o = 0;
  for (let p = 0; p < g.planes; p++) {
    const plane = p * g.height * g.width;
    for (let oy = 0; oy < g.outH; oy++) {
      const y0 = oy * g.sh - g.pt;
      const [ylo, yhi] = clip(y0, g.kh, g.height);
      for (let ox = 0; ox < g.outW; ox++) {
        const x0 = ox * g.sw - g.pl;
        let best = -Infinity;
        if (!dilated) {
          const [xlo, xhi] = clip(x0, g.kw, g.width);
          for (let iy = ylo; iy < yhi; iy++) {
            const row = plane + iy * g.width;
            for (let ix = xlo; ix < xhi; ix++) {
              const v = x[row + ix]!;
              if (v > best || v !== v) best = v;
            }
          }
        } else {
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
        }
        out[o++] = best;
      }
    }
  }
  return { data: out, dims: [g.batch, g.channels, g.outH, g.outW] };
}

/** AveragePool (no dilation): sums over the clipped window, divided by its size with or without padding. */
export function averagePool2dF32(x: Float32Array, dims: readonly number[], options: Pool2dOptions): Pool2dResult {
  const g = geometry(dims, options);
  if (g.dh !== 1 || g.dw !== 1) throw new Error('averagePool2dF32: dilations are not supported');
  const includePad = options.countIncludePad ?? false;
  const out = new Float32Array(g.planes * g.outH * g.outW);
  // Window extents clipped to the input, and to the padded input (for count_include_pad).
  const rowsOf = (o: number, s: number, pad: number, k: number, size: number, padAfter: number): [number, number, number] => {
    const start = o * s - pad;
    const [lo, hi] = clip(start, k, size);
    const padded = Math.min(size + padAfter, start + k) - Math.max(-pad, start);
    return [lo, hi, padded];
  };
  const ys = Array.from({ length: g.outH }, (_, oy) => rowsOf(oy, g.sh, g.pt, g.kh, g.height, g.pb));
  const xs = Array.from({ length: g.outW }, (_, ox) => rowsOf(ox, g.sw, g.pl, g.kw, g.width, g.pr));
  let o = 0;
  for (let p = 0; p < g.planes; p++) {
    const plane = p * g.height * g.width;
    for (let oy = 0; oy < g.outH; oy++) {
      const [ylo, yhi, ypad] = ys[oy]!;
      for (let ox = 0; ox < g.outW; ox++) {
        const [xlo, xhi, xpad] = xs[ox]!;
        let sum = 0;
        for (let iy = ylo; iy < yhi; iy++) {
          const row = plane + iy * g.width;
          for (let ix = xlo; ix < xhi; ix++) sum += x[row + ix]!;
        }
        const divisor = includePad ? ypad * xpad : (yhi - ylo) * (xhi - xlo);
        out[o++] = divisor > 0 ? sum / divisor : NaN;
      }
    }
  }
  return { data: out, dims: [g.batch, g.channels, g.outH, g.outW] };
}

/** GlobalAveragePool / GlobalMaxPool over all axes after the first two. */
export function globalPoolF32(x: Float32Array, dims: readonly number[], kind: 'average' | 'max'): { data: Float32Array; dims: number[] } {
  const planes = (dims[0] ?? 1) * (dims[1] ?? 1);
  let inner = 1;
  for (let i = 2; i < dims.length; i++) inner *= dims[i]!;
  const out = new Float32Array(planes);
  for (let p = 0, i = 0; p < planes; p++) {
    const end = i + inner;
    if (kind === 'average') {
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
