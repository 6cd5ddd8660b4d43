import assert from "node:assert/strict";
import { batchNormF32, binaryF32, broadcastDims, reluF32, type BinaryOp } from "../../core/src/interp/fast/elementwise.js";
import { closeness, randomArray, seededRandom } from "./reference.js";

function size(dims: readonly number[]): number {
  return dims.reduce((p, d) => p * d, 1);
}

/** Element-by-element broadcasting through explicit multi-indices. */
function referenceBinary(op: BinaryOp, a: Float32Array, aDims: number[], b: Float32Array, bDims: number[]): Float32Array {
  const dims = broadcastDims(aDims, bDims)!;
  const out = new Float32Array(size(dims));
  const index = (idx: number[], d: number[]): number => {
    let flat = 0;
    for (let i = 0; i < d.length; i++) flat = flat * d[i]! + (d[i] === 1 ? 0 : idx[idx.length - d.length + i]!);
    return flat;
  };
  for (let i = 0; i < out.length; i++) {
    const idx: number[] = [];
    let rest = i;
    for (let d = dims.length - 1; d >= 0; d--) {
      idx.unshift(rest % dims[d]!);
      rest = Math.floor(rest / dims[d]!);
    }
    const x = a[index(idx, aDims)]!,
      y = b[index(idx, bDims)]!;
    out[i] = op === "add" ? x + y : op === "sub" ? x - y : op === "mul" ? x * y : x / y;
  }
  return out;
}

describe("fast element-wise kernels", () => {
  const shapes: Array<[number[], number[]]> = [
    [
      [2, 3, 4],
      [2, 3, 4],
    ],
    [
      [1, 8, 5, 5],
      [8, 1, 1],
    ],
    [
      [2, 8, 5, 5],
      [1, 8, 1, 1],
    ],
    [
      [3, 1, 5],
      [1, 4, 1],
    ],
    [[5], [2, 3, 5]],
    [[2, 3, 4, 5], []],
    [[], [7]],
    [
      [4, 1, 6],
      [4, 5, 6],
    ],
    [
      [1, 3, 1, 2],
      [2, 1, 4, 1],
    ],
    [
      [0, 3],
      [1, 3],
    ],
  ];
  for (const [aDims, bDims] of shapes) {
    for (const op of ["add", "sub", "mul", "div"] as const) {
      it(`${op} [${aDims}] with [${bDims}] broadcasts like the reference`, () => {
        const random = seededRandom(size(aDims) * 31 + size(bDims));
        const a = randomArray(size(aDims), random),
          b = randomArray(size(bDims), random);
        const got = binaryF32(op, a, aDims, b, bDims)!;
        assert.deepEqual(got.dims, broadcastDims(aDims, bDims));
        assert.deepEqual(Array.from(got.data), Array.from(referenceBinary(op, a, aDims, b, bDims)));
      });
    }
  }

  it("refuses shapes that do not broadcast", () => {
    assert.equal(binaryF32("add", new Float32Array(6), [2, 3], new Float32Array(4), [4]), undefined);
  });

  it("relu clamps negatives and keeps NaN", () => {
    assert.deepEqual(Array.from(reluF32(Float32Array.from([-1, 0, 2.5, NaN, -0.5]))), [0, 0, 2.5, NaN, 0]);
  });

  it("batch normalization matches the formula per channel", () => {
    const random = seededRandom(77);
    const dims = [2, 3, 4, 5];
    const x = randomArray(size(dims), random);
    const scale = randomArray(3, random),
      bias = randomArray(3, random),
      mean = randomArray(3, random);
    const variance = randomArray(3, random).map((v) => Math.abs(v) + 0.1);
    const got = batchNormF32(x, dims, scale, bias, mean, variance, 1e-5);
    const want = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) {
      const c = Math.floor(i / 20) % 3;
      want[i] = ((x[i]! - mean[c]!) / Math.sqrt(variance[c]! + 1e-5)) * scale[c]! + bias[c]!;
    }
    assert.ok(closeness(got, want, 1e-5, 1e-6) <= 1);
  });
});
