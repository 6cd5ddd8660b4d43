// Exact conversions of the small float formats, checked over every bit pattern and at the
// rounding boundaries.
import { strict as assert } from "node:assert";
import {
  bfloat16ToNumber,
  E2M1,
  E4M3FN,
  E4M3FNUZ,
  E5M2,
  E5M2FNUZ,
  float16ToNumber,
  miniToNumber,
  numberToBfloat16,
  numberToFloat16,
  numberToMini,
} from "../../core/src/interp/float-bits.js";

describe("interpreter float formats", () => {
  it("round-trips every float16 bit pattern", () => {
    for (let h = 0; h < 0x10000; h++) {
      const v = float16ToNumber(h);
      if (Number.isNaN(v)) assert.ok(Number.isNaN(float16ToNumber(numberToFloat16(v))));
      else assert.equal(numberToFloat16(v), h, `pattern ${h.toString(16)}`);
    }
  });

  it("rounds to float16 half to even and overflows to infinity", () => {
    assert.equal(float16ToNumber(numberToFloat16(1 + 2 ** -11)), 1); // tie -> even (1.0)
    assert.equal(float16ToNumber(numberToFloat16(1 + 3 * 2 ** -11)), 1 + 2 ** -9); // tie -> even (up)
    assert.equal(numberToFloat16(65519), 0x7bff);
    assert.equal(numberToFloat16(65520), 0x7c00);
    assert.equal(numberToFloat16(2 ** -25), 0); // half the smallest subnormal -> even (0)
    assert.equal(numberToFloat16(3 * 2 ** -25), 2); // 1.5 subnormal units -> 2
    assert.equal(numberToFloat16(-0), 0x8000);
  });

  it("round-trips every bfloat16 bit pattern and rounds half to even", () => {
    for (let b = 0; b < 0x10000; b++) {
      const v = bfloat16ToNumber(b);
      if (!Number.isNaN(v)) assert.equal(numberToBfloat16(v), b);
    }
    assert.equal(numberToBfloat16(1 + 2 ** -8), 0x3f80); // tie -> even
    assert.equal(numberToBfloat16(1 + 3 * 2 ** -8), 0x3f82);
  });

  it("round-trips every float8 pattern of the four formats", () => {
    for (const fmt of [E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ]) {
      for (let b = 0; b < 256; b++) {
        const v = miniToNumber(fmt, b);
        if (Number.isNaN(v)) continue;
        if (fmt.kind === "uz" && b === 0x80) continue;
        assert.equal(numberToMini(fmt, v, false), b, `format ${JSON.stringify(fmt)} pattern ${b}`);
      }
    }
  });

  it("knows the float8 ranges and special values", () => {
    assert.equal(miniToNumber(E4M3FN, 0x7e), 448);
    assert.ok(Number.isNaN(miniToNumber(E4M3FN, 0x7f)));
    assert.equal(miniToNumber(E5M2, 0x7b), 57344);
    assert.equal(miniToNumber(E5M2, 0x7c), Infinity);
    assert.ok(Number.isNaN(miniToNumber(E4M3FNUZ, 0x80)));
    assert.equal(numberToMini(E4M3FN, 1e6, true), 0x7e); // saturates
    assert.equal(numberToMini(E4M3FN, 1e6, false), 0x7f); // NaN
    assert.equal(numberToMini(E5M2, 1e6, false), 0x7c); // inf
    assert.equal(numberToMini(E2M1, 100), 0x7); // 6.0, the largest float4
    assert.equal(miniToNumber(E2M1, 0x3), 1.5);
  });
});
