// The float32 text module: the committed WebAssembly is what its AssemblyScript source
// compiles to (a stale file fails), and big fills go through in chunks without changing a byte.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { ByteWriter } from "../../core/src/numbers/byte-writer.js";
import { formatFloat32, writeFloat32s } from "../../core/src/numbers/float-text.js";
import { WASM_BINARY_FILE, generatedWasmModuleText } from "../../scripts/gen-float32-wasm.js";

describe("float32 text module", () => {
  it("is up to date with core/wasm/float32-text.ts", async () => {
    assert.equal(fs.readFileSync(WASM_BINARY_FILE, "utf8"), await generatedWasmModuleText(), "run node dist/scripts/gen-float32-wasm.js");
  });

  it("writes a fill longer than one chunk as the items joined a line at a time", () => {
    // Values of every kind the module meets: deferred ones (NaN, subnormal, huge), zeros,
    // infinities, exponent forms, integers, and ordinary weights.
    const specials = [Number.NaN, 1e-45, 3.4028234663852886e38, -0, 0, Infinity, -Infinity, 1e-7, 123456792, 0.5];
    let seed = 99;
    const values = Float64Array.from({ length: 150_000 }, (_, i) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return i % 97 < specials.length ? specials[i % 97]! : Math.fround((seed / 2 ** 32 - 0.5) * 0.2);
    });
    const out = new ByteWriter();
    const width = 60;
    const col = writeFloat32s(out, values, { sep: ",", col: 4, width, lineBreak: ",\n    ", indentWidth: 4 });
    // The same packing, by strings.
    const lines: string[] = [];
    let line = "";
    let at = 4;
    values.forEach((v, i) => {
      const text = formatFloat32(v);
      const needed = text.length + (i < values.length - 1 ? 1 : 0);
      if (i === 0) {
        line = text;
        at += text.length;
      } else if (at + 2 + needed > width) {
        lines.push(line + ",");
        line = "    " + text;
        at = 4 + text.length;
      } else {
        line += ", " + text;
        at += 2 + text.length;
      }
    });
    lines.push(line);
    assert.equal(out.text(), lines.join("\n"));
    assert.equal(col, at);
  });
});
