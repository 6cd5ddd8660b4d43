// Detection kernels: NonMaxSuppression, RoiAlign, MaxUnpool.
import type { KernelContext, Registry } from "../registry.js";
import { fromNumbers, int64Tensor, intList, numbers, sizeOf, stridesOf, type Value, floats64 } from "../value.js";
import { t } from "./util.js";

function nms(inputs: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const boxesT = t(inputs[0]);
  const scoresT = t(inputs[1]);
  const maxOut = inputs[2] === undefined || t(inputs[2]).data.length === 0 ? 0 : intList(t(inputs[2]))[0]!;
  const iouTh = inputs[3] === undefined || t(inputs[3]).data.length === 0 ? 0 : numbers(t(inputs[3]))[0]!;
  const scoreTh = inputs[4] === undefined || t(inputs[4]).data.length === 0 ? -Infinity : numbers(t(inputs[4]))[0]!;
  const center = ctx.attrs.int("center_point_box", 0) === 1;
  const [B, N] = boxesT.dims as [number, number];
  const C = scoresT.dims[1]!;
  const bv = numbers(boxesT);
  const sv = numbers(scoresT);
  const corners = (b: number, i: number): [number, number, number, number] => {
    const o = (b * N + i) * 4;
    if (center) {
      const [xc, yc, w, h] = [bv[o]!, bv[o + 1]!, bv[o + 2]!, bv[o + 3]!];
      return [yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2];
    }
    const [y1, x1, y2, x2] = [bv[o]!, bv[o + 1]!, bv[o + 2]!, bv[o + 3]!];
    return [Math.min(y1, y2), Math.min(x1, x2), Math.max(y1, y2), Math.max(x1, x2)];
  };
  const iou = (b: number, i: number, j: number): number => {
    const [ay1, ax1, ay2, ax2] = corners(b, i);
    const [by1, bx1, by2, bx2] = corners(b, j);
    const ih = Math.max(0, Math.min(ay2, by2) - Math.max(ay1, by1));
    const iw = Math.max(0, Math.min(ax2, bx2) - Math.max(ax1, bx1));
    const inter = ih * iw;
    const union = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter;
    return union <= 0 ? 0 : inter / union;
  };
  const selected: number[] = [];
  for (let b = 0; b < B; b++) {
    for (let c = 0; c < C; c++) {
      if (maxOut === 0) continue;
      const cand: number[] = [];
      for (let i = 0; i < N; i++) if (sv[(b * C + c) * N + i]! > scoreTh) cand.push(i);
      cand.sort((p, q) => sv[(b * C + c) * N + q]! - sv[(b * C + c) * N + p]! || p - q);
      const keep: number[] = [];
      for (const i of cand) {
        if (keep.length >= maxOut) break;
        if (keep.every((j) => iou(b, i, j) <= iouTh)) keep.push(i);
      }
      for (const i of keep) selected.push(b, c, i);
    }
  }
  return [int64Tensor([selected.length / 3, 3], selected)];
}

function roiAlign([xIn, roisIn, idxIn]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(xIn);
  const rois = numbers(t(roisIn));
  const bidx = intList(t(idxIn));
  const [, C, H, W] = X.dims as [number, number, number, number];
  const a = ctx.attrs;
  const mode = a.string("mode", "avg");
  const oh = a.int("output_height", 1);
  const ow = a.int("output_width", 1);
  const ratio = a.int("sampling_ratio", 0);
  const scale = a.float("spatial_scale", 1);
  const halfPixel = a.string("coordinate_transformation_mode", ctx.opset >= 16 ? "half_pixel" : "output_half_pixel") === "half_pixel";
  const xv = numbers(X);
  const R = bidx.length;
  const out = floats64(R * C * oh * ow);
  const offset = halfPixel ? 0.5 : 0;
  for (let r = 0; r < R; r++) {
    const sw = rois[r * 4]! * scale - offset;
    const sh = rois[r * 4 + 1]! * scale - offset;
    const ew = rois[r * 4 + 2]! * scale - offset;
    const eh = rois[r * 4 + 3]! * scale - offset;
    let rw = ew - sw;
    let rh = eh - sh;
    if (!halfPixel) {
      rw = Math.max(rw, 1);
      rh = Math.max(rh, 1);
    }
    const binH = rh / oh;
    const binW = rw / ow;
    const gh = ratio > 0 ? ratio : Math.ceil(rh / oh);
    const gw = ratio > 0 ? ratio : Math.ceil(rw / ow);
    const count = Math.max(gh * gw, 1);
    const n = bidx[r]!;
    for (let c = 0; c < C; c++) {
      const base = (n * C + c) * H * W;
      for (let ph = 0; ph < oh; ph++) {
        for (let pw = 0; pw < ow; pw++) {
          let acc = mode === "max" ? -Infinity : 0;
          for (let iy = 0; iy < gh; iy++) {
            const y = sh + ph * binH + ((iy + 0.5) * binH) / gh;
            for (let ix = 0; ix < gw; ix++) {
              const x = sw + pw * binW + ((ix + 0.5) * binW) / gw;
              if (y < -1 || y > H || x < -1 || x > W) {
                if (mode === "max") acc = Math.max(acc, 0);
                continue;
              }
              let yy = Math.max(y, 0);
              let xx = Math.max(x, 0);
              let yl = Math.floor(yy);
              let xl = Math.floor(xx);
              let yh: number;
              let xh: number;
              if (yl >= H - 1) {
                yh = yl = H - 1;
                yy = yl;
              } else yh = yl + 1;
              if (xl >= W - 1) {
                xh = xl = W - 1;
                xx = xl;
              } else xh = xl + 1;
              const ly = yy - yl;
              const lx = xx - xl;
              const hy = 1 - ly;
              const hx = 1 - lx;
              const v1 = hy * hx * xv[base + yl * W + xl]!;
              const v2 = hy * lx * xv[base + yl * W + xh]!;
              const v3 = ly * hx * xv[base + yh * W + xl]!;
              const v4 = ly * lx * xv[base + yh * W + xh]!;
              if (mode === "max") acc = Math.max(acc, v1, v2, v3, v4);
              else acc += v1 + v2 + v3 + v4;
            }
          }
          out[((r * C + c) * oh + ph) * ow + pw] = mode === "max" ? acc : acc / count;
        }
      }
    }
  }
  return [fromNumbers(X.dtype, [R, C, oh, ow], out)];
}

function maxUnpool([xIn, iIn, shapeIn]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(xIn);
  const idx = intList(t(iIn));
  const spatial = X.dims.slice(2);
  const rank = spatial.length;
  const kernel = ctx.attrs.ints("kernel_shape")!;
  const strides = ctx.attrs.ints("strides") ?? kernel.map(() => 1);
  const pads = ctx.attrs.ints("pads") ?? new Array<number>(2 * rank).fill(0);
  const natural = [X.dims[0]!, X.dims[1]!, ...spatial.map((d, i) => (d - 1) * strides[i]! + kernel[i]! - pads[i]! - pads[i + rank]!)];
  const outDims = shapeIn !== undefined ? intList(t(shapeIn)) : natural;
  const out = floats64(sizeOf(outDims));
  const xv = numbers(X);
  // indices address the natural output shape; a larger output_shape pads at the ends
  const ns = stridesOf(natural);
  const os = stridesOf(outDims);
  for (let i = 0; i < xv.length; i++) {
    let rem = idx[i]!;
    let off = 0;
    for (let r = 0; r < natural.length; r++) {
      const c = Math.floor(rem / ns[r]!);
      rem -= c * ns[r]!;
      off += c * os[r]!;
    }
    out[off] = xv[i]!;
  }
  return [fromNumbers(X.dtype, outDims, out)];
}

export function registerDetection(r: Registry): void {
  r.register("NonMaxSuppression", nms);
  r.register("RoiAlign", roiAlign);
  r.register("MaxUnpool", maxUnpool);
}
