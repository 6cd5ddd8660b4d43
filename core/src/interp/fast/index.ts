// Fast kernels for the interpreter: WebAssembly SIMD GEMM-based Conv/MatMul/Gemm on a pool
// of helper threads, float32 pooling, normalization and element-wise kernels, and a
// run-time fusion of Conv with the per-channel steps that follow it.

import type { ModelProto } from "../../../../proto/src/index.js";
import type { Registry } from "../registry.js";
import { fastRegistry } from "./fast-registry.js";
import { fuseConvChains } from "./fuse.js";
import { kernelPool } from "./pool.js";

export { fastRegistry, FAST_OPS } from "./fast-registry.js";
export { fuseConvChains } from "./fuse.js";
export { defaultThreadCount, kernelPool, KernelPool } from "./pool.js";

/** ONNXTXT_FAST=0 turns the fast kernels off (the reference kernels then run everything). */
function fastKernelsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env["ONNXTXT_FAST"] !== "0";
}

/** Starts the helper threads now, so that they are up by the time the first kernel runs. */
export function startFastKernels(): void {
  if (fastKernelsEnabled()) kernelPool();
}

/** The registry to run with when every node's outputs are observed (no fusion): fast unless turned off. */
export function observedRunRegistry(base?: Registry): Registry | undefined {
  return fastKernelsEnabled() ? fastRegistry(base) : base;
}

/** The model (with Conv chains fused) and registry to run it fast; the model itself is not changed. */
export function prepareFastRun(model: ModelProto, base?: Registry): { model: ModelProto; registry: Registry | undefined } {
  if (!fastKernelsEnabled()) return { model, registry: base };
  return { model: fuseConvChains(model), registry: fastRegistry(base) };
}
