// Builds and compiles the kernel module once per process; workers receive the compiled
// module by message, so its machine code is shared.

import { setFlagsFromString } from 'node:v8';
import { assembleModule } from './assembler.js';
import { buildGemmKernel } from './gemm-kernel.js';
import { buildIm2colKernel } from './im2col-kernel.js';
import { buildPoolKernel } from './pool-kernel.js';

export const MEMORY_MODULE = 'env';
export const MEMORY_NAME = 'memory';
/** 64 KiB pages: start at 16 MiB, allow up to 2 GiB (addresses stay positive i32). */
export const INITIAL_PAGES = 256;
export const MAXIMUM_PAGES = 32768;

export interface KernelExports {
  gemm(
    a: number, b: number, c: number, bias: number, kc: number, mPanels: number, nPanels: number,
    aPanelStride: number, aRowStride: number, aStepK: number, bStepK: number, bPanelStride: number, ldc: number, flags: number,
    scale: number, shift: number,
  ): void;
  /** im2col rows for output columns [n0, n1) of one image (see im2col-kernel.ts). */
  im2col(
    x: number, col: number, channels: number, height: number, width: number, kh: number, kw: number,
    sh: number, sw: number, dh: number, dw: number, padTop: number, padLeft: number, outW: number, ldb: number,
    n0: number, n1: number, nEnd: number,
  ): void;
  /** Max or average pooling of `planes` NCHW planes (see pool-kernel.ts). */
  pool2d(
    x: number, y: number, planes: number, height: number, width: number, outH: number, outW: number,
    kh: number, kw: number, sh: number, sw: number, padTop: number, padLeft: number, padBottom: number, padRight: number,
    mode: number,
  ): void;
  /** Like gemm, with B row k at b + table[k] (the table's byte offset replaces bStepK). */
  gemm_table(
    a: number, b: number, c: number, bias: number, kc: number, mPanels: number, nPanels: number,
    aPanelStride: number, aRowStride: number, aStepK: number, table: number, bPanelStride: number, ldc: number, flags: number,
    scale: number, shift: number,
  ): void;
}

export function kernelModuleBytes(): Uint8Array {
  return assembleModule(
    { module: MEMORY_MODULE, name: MEMORY_NAME, initialPages: INITIAL_PAGES, maximumPages: MAXIMUM_PAGES, shared: true },
    [buildGemmKernel('strided'), buildGemmKernel('table'), buildIm2colKernel(), buildPoolKernel()],
  );
}

let compiled: WebAssembly.Module | undefined;

export function kernelModule(): WebAssembly.Module {
  if (!compiled) {
    // A one-shot CLI run calls each kernel only a few times, too few for V8's tier-up from
    // the baseline compiler; the optimizing tier compiles our few small functions in ~1 ms.
    // Compile eagerly while the flag holds, then restore V8's defaults for any other module.
    setFlagsFromString('--no-liftoff');
    setFlagsFromString('--no-wasm-lazy-compilation');
    compiled = new WebAssembly.Module(kernelModuleBytes());
    setFlagsFromString('--wasm-lazy-compilation');
    setFlagsFromString('--liftoff');
  }
  return compiled;
}

export function instantiateKernels(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
  const instance = new WebAssembly.Instance(module, { [MEMORY_MODULE]: { [MEMORY_NAME]: memory } });
  return instance.exports as unknown as KernelExports;
}

export function createSharedMemory(): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
}
