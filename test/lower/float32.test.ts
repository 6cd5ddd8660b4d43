// Float32 values must be correctly rounded from the decimal text (onnx 1.23 is exact). The hard
// cases are decimals whose nearest double is exactly a midpoint between two floats.
import { strict as assert } from "node:assert";
import { parseFloat32 } from "../../core/src/lower/float32.js";

/** The exact decimal expansion of a finite double. */
function exactDecimal(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  const m = exp === 0 ? frac : frac | (1n << 52n);
  const e = exp === 0 ? -1074 : exp - 1075;
  const sign = x < 0 ? "-" : "";
  if (e >= 0) return sign + (m << BigInt(e)).toString();
  // m / 2^-e = m * 5^-e / 10^-e
  const digits = (m * 5n ** BigInt(-e)).toString().padStart(-e + 1, "0");
  return `${sign}${digits.slice(0, digits.length + e)}.${digits.slice(digits.length + e)}`;
}

describe("float32 literals", () => {
  it("round correctly around every kind of midpoint", () => {
    let seed = 12345;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const f32 = new Float32Array(2);
    const u32 = new Uint32Array(f32.buffer);
    let doubleRoundingCases = 0;
    for (let k = 0; k < 3000; k++) {
      // Two adjacent floats (normal and subnormal), the exact midpoint, and decimals just above and below it.
      u32[0] = k % 10 === 0 ? Math.floor(random() * 0x800000) : Math.floor(random() * 0x7f000000);
      u32[1] = u32[0]! + 1;
      const [lo, hi] = [f32[0]!, f32[1]!];
      const mid = exactDecimal((lo + hi) / 2);
      const evenIsLo = (u32[0]! & 1) === 0;
      const above = mid.includes(".") ? mid + "0000000000001" : mid + ".0000000000001";
      assert.equal(parseFloat32(mid), evenIsLo ? lo : hi, `midpoint ${mid} rounds to even`);
      assert.equal(parseFloat32(above), hi, `above ${above}`);
      // A decimal just below the midpoint.
      const last = Number(mid[mid.length - 1]);
      const justBelow = !mid.includes(".") ? `${BigInt(mid) - 1n}.9` : last > 0 ? `${mid.slice(0, -1)}${last - 1}9` : undefined;
      if (justBelow) assert.equal(parseFloat32(justBelow), lo, `below ${justBelow}`);
      if (Math.fround(Number(above)) !== hi) doubleRoundingCases++;
    }
    assert.ok(doubleRoundingCases > 1000, "the cases exercise double rounding");
  });

  it("keeps ordinary values, specials and overflow", () => {
    assert.equal(parseFloat32("0.1"), Math.fround(0.1));
    assert.equal(parseFloat32("-2.5e3"), -2500);
    assert.equal(parseFloat32("1e-46"), 0);
    assert.equal(parseFloat32("3.4028235677973366e38"), Infinity);
    assert.equal(parseFloat32("-inf"), -Infinity);
    assert.ok(Number.isNaN(parseFloat32("nan")));
  });
});
