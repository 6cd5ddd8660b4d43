// Builds and compiles the kernel module once per process; helper threads receive the
// compiled module, so its machine code is shared.

import { setFlagsFromString } from "node:v8";
import { assembleModule } from "./assembler.js";
import { buildGemmKernel } from "./gemm-kernel.js";
import { buildIm2colKernel } from "./im2col-kernel.js";
import { buildPoolKernel } from "./pool-kernel.js";
import { INITIAL_PAGES, MAXIMUM_PAGES, MEMORY_MODULE, MEMORY_NAME } from "./kernel-instance.js";

function kernelModuleBytes(): Uint8Array {
  return assembleModule({ module: MEMORY_MODULE, name: MEMORY_NAME, initialPages: INITIAL_PAGES, maximumPages: MAXIMUM_PAGES, shared: true }, [
    buildGemmKernel("strided"),
    buildGemmKernel("table"),
    buildIm2colKernel(),
    buildPoolKernel(),
  ]);
}

let compiled: WebAssembly.Module | undefined;

export function kernelModule(): WebAssembly.Module {
  if (!compiled) {
    // A one-shot CLI run calls each kernel only a few times, too few for V8's tier-up from
    // the baseline compiler; the optimizing tier compiles our few small functions in ~1 ms.
    // Compile eagerly while the flag holds, then restore V8's defaults for any other module.
    setFlagsFromString("--no-liftoff");
    setFlagsFromString("--no-wasm-lazy-compilation");
    compiled = new WebAssembly.Module(kernelModuleBytes() as Uint8Array<ArrayBuffer>);
    setFlagsFromString("--wasm-lazy-compilation");
    setFlagsFromString("--liftoff");
  }
  return compiled;
}
