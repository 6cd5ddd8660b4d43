import assert from "node:assert/strict";
import { matmulF32 } from "../../core/src/interp/fast/matmul.js";
import { KernelPool } from "../../core/src/interp/fast/pool.js";
import { closeness, randomArray, seededRandom } from "./reference.js";

function referenceMatmul(a: Float32Array, b: Float32Array, m: number, k: number, n: number, transA: boolean, transB: boolean): Float32Array {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += (transA ? a[p * m + i]! : a[i * k + p]!) * (transB ? b[j * k + p]! : b[p * n + j]!);
      out[i * n + j] = s;
    }
  return out;
}

describe("fast matmul", () => {
  const pools = [new KernelPool(0), new KernelPool(1)];
  after(() => Promise.all(pools.map((p) => p.close())));

  const shapes: Array<[number, number, number]> = [
    [1, 7, 5],
    [3, 4, 2],
    [5, 3, 9],
    [37, 61, 29],
    [64, 300, 72],
    [13, 517, 130],
    [130, 64, 3],
    [1, 2048, 1000],
    [3, 300, 70],
  ];
  for (const [m, k, n] of shapes) {
    for (const [transA, transB] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      it(`${m}x${k} * ${k}x${n} transA=${transA} transB=${transB} matches the reference`, async () => {
        const random = seededRandom(m * 131 + k * 17 + n + (transA ? 5 : 0) + (transB ? 9 : 0));
        const a = randomArray(m * k, random),
          b = randomArray(k * n, random);
        const want = referenceMatmul(a, b, m, k, n, transA, transB);
        for (const pool of pools) {
          const got = matmulF32(a, b, m, k, n, { transA, transB, pool });
          // float32 accumulation drifts from the float64 reference about as sqrt(k).
          const atol = 2e-6 * Math.sqrt(k);
          assert.ok(closeness(got, want, 1e-4, atol) <= 1, `closeness ${closeness(got, want, 1e-4, atol)}`);
        }
      });
    }
  }
});
