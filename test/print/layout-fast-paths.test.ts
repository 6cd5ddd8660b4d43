// Layout's fast paths render exactly what the general paths render: a fill written as bytes
// (through the byte sink, with non-ASCII text around it) matches the same fill of strings,
// and a known group matches the group it stands for, at widths that break and that do not.
import { strict as assert } from "node:assert";
import { fill, group, hardline, indent, knownGroup, layout, line, softline, type Doc, type FillWriter } from "../../core/src/print/doc.js";
import { formatFloat32, writeFloat32s } from "../../core/src/numbers/float-text.js";
import { writeIntegerFill } from "../../core/src/numbers/integer-fill.js";
import type { PackedValues } from "../../grammar/src/ast.js";

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

  it("writes integers as bytes exactly as the same fill of String(value)", () => {
    let seed = 99;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const arrays: PackedValues[] = [
      Int8Array.from({ length: 3000 }, () => next() & 0xff),
      Uint16Array.from({ length: 3000 }, () => next()),
      Int32Array.from({ length: 3000 }, () => next() | 0),
      Uint32Array.from({ length: 100 }, () => next()),
      // safe integers of every length, both signs, the edges, -0, and values that are not safe integers
      Float64Array.from([
        0,
        -0,
        9,
        10,
        -10,
        99,
        100,
        2 ** 53 - 1,
        -(2 ** 53 - 1),
        2 ** 53,
        -(2 ** 60),
        1e21,
        0.5,
        Number.NaN,
        -Infinity,
        ...Array.from({ length: 2000 }, (_, i) => Math.round((next() / 2 ** 32 - 0.5) * 10 ** (i % 17))),
      ]),
    ];
    for (const values of arrays) {
      const doc = (asBytes: boolean): Doc => {
        const write: FillWriter | undefined = asBytes ? (out, at) => writeIntegerFill(out, values, at) : undefined;
        return ["x = ", group(["{", indent([softline, fill(values.length, (i) => String(values[i]!), ",", write)]), softline, "}"]), hardline];
      };
      for (const width of [100, 40, 12]) assert.equal(layout(doc(true), width), layout(doc(false), width), `${values.constructor.name} at width ${width}`);
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
