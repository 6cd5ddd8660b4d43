// Pooling as a job: a part is a range of planes.

import { panelRange } from "./gemm-job.js";
import type { KernelExports } from "./wasm/kernel-instance.js";

export const enum PoolSlot {
  X,
  Y,
  Planes,
  Height,
  Width,
  OutH,
  OutW,
  KernelH,
  KernelW,
  StrideH,
  StrideW,
  PadTop,
  PadLeft,
  PadBottom,
  PadRight,
  Mode,
}

export function runPoolPart(s: Int32Array, part: number, parts: number, kernels: KernelExports): void {
  const [p0, p1] = panelRange(s[PoolSlot.Planes]!, part, parts);
  if (p0 >= p1) return;
  const inPlane = s[PoolSlot.Height]! * s[PoolSlot.Width]! * 4;
  const outPlane = s[PoolSlot.OutH]! * s[PoolSlot.OutW]! * 4;
  kernels.pool2d(
    s[PoolSlot.X]! + p0 * inPlane,
    s[PoolSlot.Y]! + p0 * outPlane,
    p1 - p0,
    s[PoolSlot.Height]!,
    s[PoolSlot.Width]!,
    s[PoolSlot.OutH]!,
    s[PoolSlot.OutW]!,
    s[PoolSlot.KernelH]!,
    s[PoolSlot.KernelW]!,
    s[PoolSlot.StrideH]!,
    s[PoolSlot.StrideW]!,
    s[PoolSlot.PadTop]!,
    s[PoolSlot.PadLeft]!,
    s[PoolSlot.PadBottom]!,
    s[PoolSlot.PadRight]!,
    s[PoolSlot.Mode]!,
  );
}
