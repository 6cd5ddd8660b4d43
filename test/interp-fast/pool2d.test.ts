import assert from "node:assert/strict";
import { averagePool2dF32, globalPoolF32, maxPool2dF32, type Pool2dOptions } from "../../core/src/interp/fast/pool2d.js";
import { KernelPool } from "../../core/src/interp/fast/pool.js";
import { closeness, randomArray, seededRandom } from "./reference.js";

/** Window-by-window pooling over an explicitly padded input (NaN marks padding). */
function referencePool(x: Float32Array, dims: number[], o: Pool2dOptions, kind: "max" | "average"): { data: number[]; dims: number[] } {
  const [n, c, h, w] = dims as [number, number, number, number];
  const [kh, kw] = o.kernel,
    [sh, sw] = o.strides ?? [1, 1],
    [dh, dw] = o.dilations ?? [1, 1];
  const [pt, pl, pb, pr] = o.pads ?? [0, 0, 0, 0];
  const size = (len: number, k: number, s: number, d: number, p0: number, p1: number): number => {
    const span = (k - 1) * d + 1;
    if (!o.ceilMode) return Math.floor((len + p0 + p1 - span) / s) + 1;
    let out = Math.ceil((len + p0 + p1 - span) / s) + 1;
    if ((out - 1) * s >= len + p0) out--;
    return out;
  };
  const oh = size(h, kh, sh, dh, pt, pb),
    ow = size(w, kw, sw, dw, pl, pr);
  const data: number[] = [];
  for (let plane = 0; plane < n * c; plane++)
    for (let oy = 0; oy < oh; oy++)
      for (let ox = 0; ox < ow; ox++) {
        const values: number[] = [];
        let padded = 0;
        for (let ky = 0; ky < kh; ky++)
          for (let kx = 0; kx < kw; kx++) {
            const iy = oy * sh - pt + ky * dh,
              ix = ox * sw - pl + kx * dw;
            if (iy >= -pt && iy < h + pb && ix >= -pl && ix < w + pr) padded++;
            if (iy >= 0 && iy < h && ix >= 0 && ix < w) values.push(x[plane * h * w + iy * w + ix]!);
          }
        if (kind === "max") data.push(Math.max(...values));
        else data.push(values.reduce((s, v) => s + v, 0) / (o.countIncludePad ? padded : values.length));
      }
  return { data, dims: [n, c, oh, ow] };
}

describe("fast pooling", () => {
  const cases: Array<[string, number[], Pool2dOptions]> = [
    ["3x3 stride 2", [1, 3, 11, 9], { kernel: [3, 3], strides: [2, 2] }],
    ["3x3 stride 2 ceil mode", [1, 2, 12, 13], { kernel: [3, 3], strides: [2, 2], ceilMode: true }],
    ["padding", [2, 2, 7, 6], { kernel: [3, 3], pads: [1, 1, 1, 1] }],
    ["asymmetric padding, ceil mode", [1, 2, 8, 7], { kernel: [2, 3], strides: [2, 2], pads: [0, 1, 1, 0], ceilMode: true }],
    ["padding counted", [1, 2, 7, 6], { kernel: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1], countIncludePad: true }],
    ["dilations", [1, 2, 10, 9], { kernel: [2, 2], dilations: [2, 3] }],
    ["7x7 full window", [1, 4, 7, 7], { kernel: [7, 7] }],
  ];
  for (const [name, dims, options] of cases) {
    for (const kind of ["max", "average"] as const) {
      if (kind === "average" && options.dilations) continue;
      it(`${kind} pool, ${name}, matches the reference`, () => {
        const x = randomArray(
          dims.reduce((p, d) => p * d, 1),
          seededRandom(name.length * 13 + dims[2]!),
        );
        const got = kind === "max" ? maxPool2dF32(x, dims, options) : averagePool2dF32(x, dims, options);
        const want = referencePool(x, dims, options, kind);
        assert.deepEqual(got.dims, want.dims);
        assert.ok(closeness(got.data, Float32Array.from(want.data), 1e-6, 1e-7) <= 1);
      });
    }
  }

  it("splits large poolings across threads", async () => {
    const pool = new KernelPool(1);
    try {
      for (let i = 0; i < 100 && pool.threads() < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(pool.threads(), 2);
      const dims = [2, 16, 41, 40];
      const x = randomArray(
        dims.reduce((p, d) => p * d, 1),
        seededRandom(5),
      );
      const options: Pool2dOptions = { kernel: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1], countIncludePad: true };
      for (const kind of ["max", "average"] as const) {
        const got = kind === "max" ? maxPool2dF32(x, dims, options, pool) : averagePool2dF32(x, dims, options, pool);
        const want = referencePool(x, dims, options, kind);
        assert.ok(closeness(got.data, Float32Array.from(want.data), 1e-6, 1e-7) <= 1, kind);
      }
    } finally {
      await pool.close();
    }
  });

  it("global average and max pool every plane", () => {
    const x = Float32Array.from([1, 2, 3, 4, -1, -2, -3, -5]);
    assert.deepEqual(globalPoolF32(x, [1, 2, 2, 2], "average"), { data: Float32Array.from([2.5, -2.75]), dims: [1, 2, 1, 1] });
    assert.deepEqual(globalPoolF32(x, [1, 2, 2, 2], "max"), { data: Float32Array.from([4, -1]), dims: [1, 2, 1, 1] });
  });
});
