// The run worker's stand-in for core/src/interp/fast/index.ts, whose kernels run on Node's
// worker threads with V8 flags: in a page the reference kernels run everything.
import type { Registry } from "../../core/src/interp/registry.js";

export function observedRunRegistry(base?: Registry): Registry | undefined {
  return base;
}
