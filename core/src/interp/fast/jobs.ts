// Job kinds the pool can split across threads, and their dispatch on either thread.

import { runConvPart } from "./conv-job.js";
import { runGemmPart } from "./gemm-job.js";
import { runPoolPart } from "./pool-job.js";
import type { KernelExports } from "./wasm/kernel-instance.js";

export const enum JobKind {
  Conv = 1,
  Gemm = 2,
  Pool = 3,
}

export function runJobPart(kind: JobKind, slots: Int32Array, part: number, parts: number, kernels: KernelExports): void {
  switch (kind) {
    case JobKind.Conv:
      runConvPart(slots, part, parts, kernels);
      return;
    case JobKind.Gemm:
      runGemmPart(slots, part, parts, kernels);
      return;
    case JobKind.Pool:
      runPoolPart(slots, part, parts, kernels);
      return;
    default:
      throw new Error(`unknown kernel job ${String(kind)}`);
  }
}
