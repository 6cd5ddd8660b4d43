// Layout's fast paths render exactly what the general paths render: a fill written as bytes
// (through the byte sink, with non-ASCII text around it) matches the same fill of strings,
// and a known group matches the group it stands for, at widths that break and that do not.
import { strict as assert } from "node:assert";
import { fill, group, hardline, indent, knownGroup, layout, line, softline, type Doc, type FillWriter } from "../../core/src/print/doc.js";
import { formatFloat32, writeFloat32s } from "../../core/src/numbers/float-text.js";

function floats(count: number): Float64Array {
  let seed = 4242;
  return Float64Array.from({ length: count }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return Math.fround((seed / 2 ** 32 - 0.5) * 2000);
  });
}

/** A tensor-like document: non-ASCII names before, between and after two float fills. */
function tensorDoc(values: Float64Array, asBytes: boolean): Doc {
  const data = (n: number): Doc => {
    const part = values.subarray(0, n);
    const write: FillWriter | undefined = asBytes ? (out, at) => writeFloat32s(out, part, at) : undefined;
    return group(["{", indent([softline, fill(n, (i) => formatFloat32(part[i]!), ",", write)]), softline, "}"]);
  };
  return ["# größe ✓", hardline, '"wörter" = ', data(values.length), hardline, "leer = ", data(0), hardline, "kurz = ", data(3), hardline, '"終"', hardline];
}

describe("layout fast paths", () => {
  it("writes a fill as bytes exactly as the same fill of strings, non-ASCII text around it", () => {
    const values = floats(5000);
    for (const width of [100, 40, 12]) {
      assert.equal(layout(tensorDoc(values, true), width), layout(tensorDoc(values, false), width), `width ${width}`);
    }
  });

  it("lays out a known group as the group it stands for", () => {
    const parts = (): Doc => group(["out1, out2", " = ", "Op", " ", group(["(", indent([softline, "input_a", ",", line, "input_b"]), softline, ")"])]);
    const known = knownGroup("out1, out2 = Op (input_a, input_b)", parts);
    for (const width of [100, 34, 20, 8]) {
      const body = (node: Doc): Doc => ["g {", indent([hardline, node, hardline, node]), hardline, "}"];
      assert.equal(layout(body(known), width), layout(body(parts()), width), `width ${width}`);
    }
  });
});
