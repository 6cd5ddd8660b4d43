// Float32 matrix products: Y[M, N] = op(A) * op(B) where op transposes when asked.
// Large products run on the WASM GEMM across the pool; tiny or single-row ones in JS.

import { GemmSlot } from "./gemm-job.js";
import { JobKind } from "./jobs.js";
import { kernelPool, type KernelPool } from "./pool.js";
import { GEMM_MR, GEMM_NR } from "./wasm/gemm-layout.js";
import { floats32 } from "../value.js";

interface MatmulOptions {
  /** A is stored as [K, M]. */
  transA?: boolean;
  /** B is stored as [N, K]. */
  transB?: boolean;
  pool?: KernelPool;
}

/** Below this many multiply-adds plain loops win. */
const WASM_MIN_MACS = 1 << 15;
const PARALLEL_MIN_MACS = 1 << 18;

export function matmulF32(a: Float32Array, b: Float32Array, m: number, k: number, n: number, options: MatmulOptions = {}): Float32Array {
  const transA = options.transA ?? false,
    transB = options.transB ?? false;
  if (m * k * n < WASM_MIN_MACS) return matmulLoops(a, b, m, k, n, transA, transB);
  const pool = options.pool ?? kernelPool();
  const out = floats32(m * n);
  if (transB && m < GEMM_MR) {
    // Few rows against a stored [N, K] B (a fully connected layer): compute Y^T = B * op(A)^T,
    // so B's rows feed the kernel as they are and only m of NR columns go to waste.
    wasmGemm(
      pool,
      n,
      k,
      m,
      (f, at) => f.set(b, at),
      (f, at, ld) => {
        for (let p = 0; p < k; p++) {
          const row = at + p * ld;
          for (let i = 0; i < m; i++) f[row + i] = transA ? a[p * m + i]! : a[i * k + p]!;
          f.fill(0, row + m, row + ld);
        }
      },
      (f, at, ld) => {
        for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) out[i * n + j] = f[at + j * ld + i]!;
      },
    );
    return out;
  }
  wasmGemm(
    pool,
    m,
    k,
    n,
    (f, at) => {
      if (!transA) f.set(a, at);
      else for (let i = 0; i < m; i++) for (let p = 0; p < k; p++) f[at + i * k + p] = a[p * m + i]!;
    },
    (f, at, ld) => {
      for (let p = 0; p < k; p++) {
        const row = at + p * ld;
        if (!transB) f.set(b.subarray(p * n, (p + 1) * n), row);
        else for (let j = 0; j < n; j++) f[row + j] = b[j * k + p]!;
        f.fill(0, row + n, row + ld);
      }
    },
    (f, at, ld) => {
      if (ld === n) out.set(f.subarray(at, at + m * n));
      else for (let i = 0; i < m; i++) out.set(f.subarray(at + i * ld, at + i * ld + n), i * n);
    },
  );
  return out;
}

/**
 * C[m, n] = A[m, k] * B[k, n] in the shared memory: fillA writes A row-major (lda = k),
 * fillB writes B with rows ld floats apart, readC reads C (rows ld apart). Float indices.
 */
function wasmGemm(
  pool: KernelPool,
  m: number,
  k: number,
  n: number,
  fillA: (f: Float32Array, at: number) => void,
  fillB: (f: Float32Array, at: number, ld: number) => void,
  readC: (f: Float32Array, at: number, ld: number) => void,
): void {
  const arena = pool.arena;
  const mPanels = Math.ceil(m / GEMM_MR),
    nPad = Math.ceil(n / GEMM_NR) * GEMM_NR;
  const mark = arena.mark();
  try {
    const aOff = arena.alloc(mPanels * GEMM_MR * k);
    const bOff = arena.alloc(k * nPad);
    const cOff = arena.alloc(mPanels * GEMM_MR * nPad);
    const f = arena.f32;
    fillA(f, aOff >> 2);
    f.fill(0, (aOff >> 2) + m * k, (aOff >> 2) + mPanels * GEMM_MR * k);
    fillB(f, bOff >> 2, nPad);
    const threads = m * k * n < PARALLEL_MIN_MACS ? 1 : pool.threads();
    const nPanels = nPad / GEMM_NR;
    const splitRows = threads > 1 && nPanels < 4 * threads && mPanels >= 2 * threads;
    // Several chunks per thread, so that threads that start late or run slow share the work.
    const parts = threads === 1 ? 1 : splitRows ? Math.min(mPanels, 4 * threads) : Math.min(Math.ceil(nPanels / 4), 6 * threads);
    pool.parallel(JobKind.Gemm, parts, (s) => {
      s[GemmSlot.A] = aOff;
      s[GemmSlot.Lda] = k;
      s[GemmSlot.B] = bOff;
      s[GemmSlot.Ldb] = nPad;
      s[GemmSlot.C] = cOff;
      s[GemmSlot.Ldc] = nPad;
      s[GemmSlot.M] = m;
      s[GemmSlot.K] = k;
      s[GemmSlot.N] = n;
      s[GemmSlot.Bias] = 0;
      s[GemmSlot.Relu] = 0;
      s[GemmSlot.SplitRows] = splitRows ? 1 : 0;
    });
    readC(arena.f32, cOff >> 2, nPad);
  } finally {
    arena.release(mark);
  }
}

function matmulLoops(a: Float32Array, b: Float32Array, m: number, k: number, n: number, transA: boolean, transB: boolean): Float32Array {
  const out = floats32(m * n);
  const acc = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    if (transB) {
      // Rows of B are contiguous over k: dot products.
      for (let j = 0; j < n; j++) {
        let sum = 0;
        const bj = j * k;
        if (transA) for (let p = 0; p < k; p++) sum += a[p * m + i]! * b[bj + p]!;
        else for (let p = 0, ai = i * k; p < k; p++) sum += a[ai + p]! * b[bj + p]!;
        out[i * n + j] = sum;
      }
    } else {
      acc.fill(0);
      for (let p = 0; p < k; p++) {
        const v = transA ? a[p * m + i]! : a[i * k + p]!;
        const bp = p * n;
        for (let j = 0; j < n; j++) acc[j]! += v * b[bp + j]!;
      }
      for (let j = 0; j < n; j++) out[i * n + j] = acc[j]!;
    }
  }
  return out;
}
