// Shortest exact float text: every float32 reads back bit for bit at its own width, and no
// shorter spelling exists; special values have fixed spellings.
import { strict as assert } from "node:assert";
import { asFloatLiteral, float32Bits, float32FromBits, formatFloat32, formatFloat64 } from "../../core/src/print/float-text.js";

/** Fewest significant digits that read back to `v` (reference: a plain search). */
function fewestDigits(v: number): number {
  for (let p = 1; p <= 9; p++) if (Math.fround(Number(v.toPrecision(p))) === v) return p;
  return 9;
}

function significantDigits(text: string): number {
  return text.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length;
}

describe("float text", () => {
  it("reads back every sampled float32 exactly, with the fewest digits", () => {
    let seed = 12345;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 50_000; i++) {
      const v = float32FromBits(next());
      if (!Number.isFinite(v) || v === 0) continue;
      const text = formatFloat32(v);
      assert.equal(float32Bits(Math.fround(Number(text))), float32Bits(v), `${text} for bits ${float32Bits(v).toString(16)}`);
      assert.equal(significantDigits(text), fewestDigits(Math.abs(v)), `${text} is not the shortest for ${v}`);
    }
  });

  it("handles the edges: subnormals, extremes, powers of two and ten, ties", () => {
    const cases: [number, string][] = [
      [float32FromBits(1), "1e-45"],
      [float32FromBits(0x007fffff), "1.1754942e-38"],
      [float32FromBits(0x00800000), "1.1754944e-38"],
      [float32FromBits(0x7f7fffff), "3.4028235e+38"],
      [Math.fround(0.1), "0.1"],
      [Math.fround(123456789), "123456790"],
      [Math.fround(108850176), "108850180"],
      [16777216, "16777216"],
      [1e-7, "1e-7"],
      [Math.fround(1e21), "1e+21"],
      [0.5, "0.5"],
      [-2, "-2"],
    ];
    for (const [v, text] of cases) {
      assert.equal(formatFloat32(Math.fround(v)), text);
      assert.equal(Math.fround(Number(text)), Math.fround(v));
    }
  });

  it("spells zeros, infinities and NaNs the way both parsers read them", () => {
    assert.equal(formatFloat32(0), "0");
    assert.equal(formatFloat32(-0), "-0.0");
    assert.equal(formatFloat32(Infinity), "inf");
    assert.equal(formatFloat32(-Infinity), "-inf");
    assert.equal(formatFloat32(Number.NaN), "nan");
    assert.equal(formatFloat32(float32FromBits(0xffc00000)), "-nan");
    assert.equal(formatFloat64(-0), "-0.0");
    assert.equal(formatFloat64(0.1), "0.1");
    assert.equal(formatFloat64(5e-324), "5e-324");
  });

  it("marks attribute floats so they read as floats without an annotation", () => {
    assert.equal(asFloatLiteral("1"), "1.0");
    assert.equal(asFloatLiteral("-3"), "-3.0");
    assert.equal(asFloatLiteral("1e+21"), "1e+21");
    assert.equal(asFloatLiteral("nan"), "nan");
  });
});
