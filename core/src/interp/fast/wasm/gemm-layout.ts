// The GEMM micro-kernel's tile (MR rows x NR = 4*NV columns) and flags, shared by the code
// that drives it on every thread. 4 x 8 keeps 8 accumulators, 2 B vectors and an A splat in
// the 16 SIMD registers of x86-64.

export const GEMM_MR = 4;
export const GEMM_NV = 2;
export const GEMM_NR = GEMM_NV * 4;

export const GEMM_FLAG_ACCUMULATE = 1;
export const GEMM_FLAG_RELU = 2;
export const GEMM_FLAG_AFFINE = 4;
