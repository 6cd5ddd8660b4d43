// The fast kernels' entry points with the fast kernels off: what a web bundle runs with, since
// their thread pool is Node's (worker_threads). The reference kernels give the same values,
// more slowly. scripts/esbuild-web.ts puts this module in place of index.ts.
import type { ModelProto } from "../../../../proto/src/index.js";
import type { Registry } from "../registry.js";

export function startFastKernels(): void {}

export function observedRunRegistry(base?: Registry): Registry | undefined {
  return base;
}

export function prepareFastRun(model: ModelProto, base?: Registry): { model: ModelProto; registry: Registry | undefined } {
  return { model, registry: base };
}
