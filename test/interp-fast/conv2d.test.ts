import assert from "node:assert/strict";
import { conv2d } from "../../core/src/interp/fast/conv2d.js";
import { KernelPool } from "../../core/src/interp/fast/pool.js";
import { closeness, randomArray, referenceConv, seededRandom, type ConvCase } from "./reference.js";

const base: ConvCase = {
  batch: 1,
  channels: 3,
  height: 9,
  width: 11,
  m: 5,
  kh: 3,
  kw: 3,
  group: 1,
  strides: [1, 1],
  pads: [0, 0, 0, 0],
  dilations: [1, 1],
};

const cases: Array<[string, Partial<ConvCase>]> = [
  ["3x3 valid, odd sizes", {}],
  ["1x1 direct path, N not a multiple of 8", { kh: 1, kw: 1, channels: 7, m: 13 }],
  ["1x1 direct path, N a multiple of 8", { kh: 1, kw: 1, height: 8, width: 4, channels: 9, m: 8 }],
  ["1x1 with stride 2", { kh: 1, kw: 1, strides: [2, 2], m: 6 }],
  ["asymmetric padding", { pads: [1, 0, 2, 1] }],
  ["strides and padding", { strides: [2, 3], pads: [1, 1, 1, 1], m: 9 }],
  ["dilations", { dilations: [2, 3], pads: [2, 1, 0, 3] }],
  ["groups", { channels: 6, m: 9, group: 3, pads: [1, 1, 1, 1] }],
  ["depthwise", { channels: 4, m: 4, group: 4, pads: [1, 1, 1, 1] }],
  ["rectangular kernel", { kh: 1, kw: 5, pads: [0, 2, 0, 2] }],
  ["batch of 3", { batch: 3, m: 4 }],
  ["kernel covers the padded input", { height: 2, width: 3, kh: 3, kw: 3, pads: [1, 1, 1, 1] }],
  ["deep K crosses k blocks", { channels: 40, m: 7, height: 6, width: 5 }],
  ["wide N over several chunks", { channels: 2, m: 3, height: 40, width: 37, pads: [1, 1, 1, 1] }],
  ["7x7 stride 2", { channels: 3, m: 10, height: 31, width: 29, kh: 7, kw: 7, strides: [2, 2], pads: [3, 3, 3, 3] }],
];

function runCase(pool: KernelPool, c: ConvCase, seed: number, withBias: boolean, relu: boolean): void {
  const random = seededRandom(seed);
  const x = randomArray(c.batch * c.channels * c.height * c.width, random);
  const w = randomArray(c.m * (c.channels / c.group) * c.kh * c.kw, random);
  const bias = withBias ? randomArray(c.m, random) : undefined;
  const got = conv2d(
    x,
    [c.batch, c.channels, c.height, c.width],
    w,
    [c.m, c.channels / c.group, c.kh, c.kw],
    bias,
    { strides: c.strides, pads: c.pads, dilations: c.dilations, group: c.group, relu },
    pool,
  );
  const want = referenceConv(x, w, bias, c, relu);
  assert.equal(got.data.length, want.length);
  assert.ok(closeness(got.data, want) <= 1, `closeness ${closeness(got.data, want)}`);
}

describe("fast conv2d", () => {
  const single = new KernelPool(0);
  after(() => single.close());

  for (const [name, override] of cases) {
    it(`${name} matches the reference loops`, () => {
      runCase(single, { ...base, ...override }, name.length * 7919, true, false);
      runCase(single, { ...base, ...override }, name.length * 104729, false, true);
    });
  }

  it("applies a per-channel scale and shift before the ReLU", () => {
    for (const override of [
      {},
      { kh: 1, kw: 1 },
      { strides: [2, 2] as [number, number] },
      { channels: 6, m: 9, group: 3, pads: [1, 1, 1, 1] as [number, number, number, number] },
    ]) {
      const c = { ...base, channels: 40, m: 11, ...override };
      const random = seededRandom(99);
      const x = randomArray(c.batch * c.channels * c.height * c.width, random);
      const w = randomArray(c.m * (c.channels / c.group) * c.kh * c.kw, random);
      const scale = randomArray(c.m, random),
        shift = randomArray(c.m, random);
      const got = conv2d(
        x,
        [c.batch, c.channels, c.height, c.width],
        w,
        [c.m, c.channels / c.group, c.kh, c.kw],
        undefined,
        { strides: c.strides, pads: c.pads, dilations: c.dilations, group: c.group, relu: true, scale, shift },
        single,
      );
      const plain = referenceConv(x, w, undefined, c);
      const per = plain.length / c.m;
      const want = plain.map((v, i) => Math.max(0, v * scale[Math.floor(i / per) % c.m]! + shift[Math.floor(i / per) % c.m]!));
      assert.ok(closeness(got.data, want) <= 1, `closeness ${closeness(got.data, want)}`);
    }
  });

  it("reports the output shape", () => {
    const r = conv2d(
      new Float32Array(1 * 2 * 10 * 12),
      [1, 2, 10, 12],
      new Float32Array(4 * 2 * 3 * 3),
      [4, 2, 3, 3],
      undefined,
      { strides: [2, 2], pads: [1, 1, 1, 1] },
      single,
    );
    assert.deepEqual(r.dims, [1, 4, 5, 6]);
  });

  describe("with helper threads", () => {
    const threaded = new KernelPool(1);
    after(() => threaded.close());

    it("splits large convolutions across threads and matches the reference", async () => {
      for (let i = 0; i < 100 && threaded.threads() < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(threaded.threads(), 2, "helper thread started");
      // Many column panels: split by columns; few columns and many rows: split by rows.
      runCase(threaded, { ...base, channels: 16, m: 24, height: 30, width: 33, pads: [1, 1, 1, 1] }, 11, true, true);
      runCase(threaded, { ...base, channels: 64, m: 64, height: 30, width: 30, kh: 1, kw: 1 }, 12, true, false);
      runCase(threaded, { ...base, channels: 64, m: 96, height: 3, width: 3, pads: [1, 1, 1, 1] }, 13, false, true);
    });
  });
});
