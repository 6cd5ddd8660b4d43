// GridSample (2-d and N-d): sampling an image at normalized grid coordinates.
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, numbers, sizeOf, stridesOf, type Value, floats64 } from "../value.js";
import { t } from "./util.js";

function reflect(x: number, lo: number, hi: number): number {
  const rng = hi - lo;
  if (rng <= 0) return lo;
  if (x < lo) {
    const dx = lo - x;
    const n = Math.floor(dx / rng);
    const r = dx - n * rng;
    return n % 2 === 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const dx = x - hi;
    const n = Math.floor(dx / rng);
    const r = dx - n * rng;
    return n % 2 === 0 ? hi - r : lo + r;
  }
  return x;
}

function cubicCoeffs(t0: number): [number, number, number, number] {
  const A = -0.75;
  const c = (x: number) => {
    const a = Math.abs(x);
    if (a <= 1) return ((A + 2) * a - (A + 3)) * a * a + 1;
    if (a < 2) return ((A * a - 5 * A) * a + 8 * A) * a - 4 * A;
    return 0;
  };
  return [c(t0 + 1), c(t0), c(1 - t0), c(2 - t0)];
}

function rint(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function gridSample([xIn, gridIn]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(xIn);
  const grid = t(gridIn);
  const modeRaw = ctx.attrs.string("mode", ctx.opset >= 20 ? "linear" : "bilinear");
  const mode = modeRaw === "bilinear" ? "linear" : modeRaw === "bicubic" ? "cubic" : modeRaw;
  const padding = ctx.attrs.string("padding_mode", "zeros");
  const alignCorners = ctx.attrs.int("align_corners", 0) === 1;
  const [N, C] = X.dims as [number, number];
  const spatial = X.dims.slice(2);
  const rank = spatial.length;
  const outSpatial = grid.dims.slice(1, 1 + rank);
  const outSize = sizeOf(outSpatial);
  const inSize = sizeOf(spatial);
  const xv = numbers(X);
  const gv = numbers(grid);
  const inStr = stridesOf(spatial);
  const out = floats64(N * C * outSize);
  const coord = floats64(rank);
  const pixel = (base: number, idx: number[]): number => {
    let off = 0;
    for (let r = 0; r < rank; r++) {
      let i = idx[r]!;
      const len = spatial[r]!;
      if (i < 0 || i >= len) {
        if (padding === "zeros") return 0;
        if (padding === "border") i = Math.max(0, Math.min(len - 1, i));
        else {
          const lo = alignCorners ? 0 : -0.5;
          const hi = alignCorners ? len - 1 : len - 0.5;
          i = Math.max(0, Math.min(len - 1, Math.trunc(reflect(i, lo, hi))));
        }
      }
      off += i * inStr[r]!;
    }
    return xv[base + off]!;
  };
  for (let n = 0; n < N; n++) {
    for (let o = 0; o < outSize; o++) {
      // grid holds (x, y[, z]): the last spatial axis first
      for (let r = 0; r < rank; r++) {
        const g = gv[(n * outSize + o) * rank + (rank - 1 - r)]!;
        const len = spatial[r]!;
        let x = alignCorners ? ((g + 1) / 2) * (len - 1) : ((g + 1) * len - 1) / 2;
        if (padding === "border") x = Math.max(0, Math.min(len - 1, x));
        else if (padding === "reflection") x = reflect(x, alignCorners ? 0 : -0.5, alignCorners ? len - 1 : len - 0.5);
        coord[r] = x;
      }
      for (let c = 0; c < C; c++) {
        const base = (n * C + c) * inSize;
        let v = 0;
        if (mode === "nearest") v = pixel(base, Array.from(coord, rint));
        else {
          const taps = mode === "linear" ? 2 : 4;
          const starts = Array.from(coord, (x) => Math.floor(x) - (taps === 4 ? 1 : 0));
          const weights = Array.from(coord, (x) => {
            const f = x - Math.floor(x);
            return taps === 2 ? [1 - f, f] : cubicCoeffs(f);
          });
          const total = taps ** rank;
          const idx = new Array<number>(rank);
          for (let k = 0; k < total; k++) {
            let w = 1;
            let rem = k;
            for (let r = rank - 1; r >= 0; r--) {
              const j = rem % taps;
              rem = Math.floor(rem / taps);
              idx[r] = starts[r]! + j;
              w *= weights[r]![j]!;
            }
            if (w !== 0) v += w * pixel(base, idx);
          }
        }
        out[(n * C + c) * outSize + o] = v;
      }
    }
  }
  return [fromNumbers(X.dtype, [N, C, ...outSpatial], out)];
}

export function registerGridSample(r: Registry): void {
  r.register("GridSample", gridSample);
}
