// The kernel module's interface: its shared memory and instantiation, for the main thread and
// the helper threads alike (helpers receive the compiled module and never build one).

export const MEMORY_MODULE = "env";
export const MEMORY_NAME = "memory";
/** 64 KiB pages: start at 16 MiB, allow up to 2 GiB (addresses stay positive i32). */
export const INITIAL_PAGES = 256;
export const MAXIMUM_PAGES = 32768;

export interface KernelExports {
  gemm(
    a: number,
    b: number,
    c: number,
    bias: number,
    kc: number,
    mPanels: number,
    nPanels: number,
    aPanelStride: number,
    aRowStride: number,
    aStepK: number,
    bStepK: number,
    bPanelStride: number,
    ldc: number,
    flags: number,
    scale: number,
    shift: number,
  ): void;
  /** im2col rows for output columns [n0, n1) of one image (see im2col-kernel.ts). */
  im2col(
    x: number,
    col: number,
    channels: number,
    height: number,
    width: number,
    kh: number,
    kw: number,
    sh: number,
    sw: number,
    dh: number,
    dw: number,
    padTop: number,
    padLeft: number,
    outW: number,
    ldb: number,
    n0: number,
    n1: number,
    nEnd: number,
  ): void;
  /** Max or average pooling of `planes` NCHW planes (see pool-kernel.ts). */
  pool2d(
    x: number,
    y: number,
    planes: number,
    height: number,
    width: number,
    outH: number,
    outW: number,
    kh: number,
    kw: number,
    sh: number,
    sw: number,
    padTop: number,
    padLeft: number,
    padBottom: number,
    padRight: number,
    mode: number,
  ): void;
  /** Like gemm, with B row k at b + table[k] (the table's byte offset replaces bStepK). */
  gemm_table(
    a: number,
    b: number,
    c: number,
    bias: number,
    kc: number,
    mPanels: number,
    nPanels: number,
    aPanelStride: number,
    aRowStride: number,
    aStepK: number,
    table: number,
    bPanelStride: number,
    ldc: number,
    flags: number,
    scale: number,
    shift: number,
  ): void;
}

export function instantiateKernels(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
  const instance = new WebAssembly.Instance(module, { [MEMORY_MODULE]: { [MEMORY_NAME]: memory } });
  return instance.exports as unknown as KernelExports;
}

export function createSharedMemory(): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
}
