// Shortest exact float text: every float32 reads back bit for bit at its own width, and no
// shorter spelling exists; special values have fixed spellings.
import { strict as assert } from "node:assert";
import { ByteWriter } from "../../core/src/numbers/byte-writer.js";
import { asFloatLiteral, float32Bits, float32FromBits, formatFloat32, formatFloat64, writeFloat32s } from "../../core/src/numbers/float-text.js";
import { decimalExponent, found, shortestDigitsSearch } from "../../core/src/numbers/float32-digits.js";
import { fastDigits } from "../../core/src/numbers/float32-wasm.js";

/** Fewest significant digits that read back to `v` (reference: a plain search). */
function fewestDigits(v: number): number {
  for (let p = 1; p <= 9; p++) if (Math.fround(Number(v.toPrecision(p))) === v) return p;
  return 9;
}

function significantDigits(text: string): number {
  return text.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length;
}

/** The bytes a tensor fill writes for one value, as text. */
function written(v: number): string {
  const w = new ByteWriter();
  writeFloat32s(w, Float64Array.of(v), { sep: ",", col: 0, width: 100, lineBreak: ",\n", indentWidth: 0 });
  return w.text();
}

/** Asserts the float32 with these bits prints the same both ways, reads back, and is shortest. */
function checkBits(bits: number, shortest: boolean): void {
  const v = float32FromBits(bits);
  const text = formatFloat32(v);
  assert.equal(written(v), text, `bytes and string differ for bits ${bits.toString(16)}`);
  if (!Number.isFinite(v)) return;
  assert.equal(float32Bits(Math.fround(Number(text))), bits >>> 0, `${text} for bits ${bits.toString(16)}`);
  if (shortest && v !== 0) assert.equal(significantDigits(text), fewestDigits(Math.abs(v)), `${text} is not the shortest for ${v}`);
}

describe("float text", () => {
  it("decimal exponent table agrees with Math.log10 around every power of ten", () => {
    for (let k = -45; k <= 38; k++) {
      const center = float32Bits(Math.fround(10 ** k));
      for (let d = -2000; d <= 2000; d++) {
        const bits = center + d;
        const v = float32FromBits(bits);
        if (bits <= 0 || !Number.isFinite(v)) continue;
        assert.equal(decimalExponent(v, bits), Math.floor(Math.log10(v)), `bits ${bits.toString(16)}`);
      }
    }
  });

  it("prints every float32 near powers of ten and two shortest, bytes equal to text", () => {
    for (let k = -45; k <= 38; k++) {
      const center = float32Bits(Math.fround(10 ** k));
      for (let d = -200; d <= 200; d++) if (center + d > 0) checkBits(center + d, true);
    }
    for (let exp = 0; exp < 256; exp++) {
      for (let d = -20; d <= 20; d++) {
        const bits = ((exp << 23) + d) >>> 0;
        checkBits(bits, true);
        checkBits((bits | 0x80000000) >>> 0, false);
      }
    }
  });

  it("prints contiguous runs of float32 bit patterns (exhaustive within each run)", () => {
    // Runs at several magnitudes, each 2^14 consecutive patterns, both signs.
    for (const start of [0x00000001, 0x00400000, 0x0b000000, 0x33d6bf95, 0x3dcccccd, 0x3f800000, 0x411ffff0, 0x4b7fc000, 0x5e000000, 0x7f7fc000]) {
      for (let b = start; b < start + (1 << 14); b++) {
        checkBits(b, false);
        checkBits((b | 0x80000000) >>> 0, false);
      }
    }
  });

  it("takes the digits the exact search takes (the fast path defers near edges and ties)", () => {
    // Checked once over every positive normal float32; here a sample plus the runs where
    // edges and ties cluster (powers of two, integers near 2^24, tiny and huge magnitudes).
    const one = new Float64Array(1);
    let deferred = 0;
    const check = (bits: number): void => {
      one[0] = float32FromBits(bits);
      const fast = fastDigits(one[0]);
      const exact = shortestDigitsSearch(one, 0);
      if (fast) assert.deepEqual(fast, exact ? [found[0], found[1]] : undefined, `bits ${bits.toString(16)}`);
      else if (exact) deferred++;
    };
    let seed = 777;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 200_000; i++) check(0x00800000 + (next() % (0x7f800000 - 0x00800000)));
    // Random bit patterns rarely sit near an edge (the deferred ones are mostly big integers).
    assert.ok(deferred < 2_000, `the fast path deferred ${deferred} of 200000 random values the search decides`);
    for (let exp = 1; exp < 255; exp++) for (let d = -64; d <= 64; d++) check((exp << 23) + d);
    for (let b = 0x4b7ff000; b < 0x4b801000; b++) check(b);
  });

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
