import * as assert from "node:assert/strict";
import { editDistance } from "../../core/src/check/suggest.js";

/** The textbook table, in full: the oracle for the bounded one. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

describe("semantics: name suggestions", () => {
  it("bounds the edit distance without changing any distance within the bound", () => {
    let s = 12345;
    const rnd = (n: number): number => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s % n;
    };
    const word = (): string => Array.from({ length: rnd(9) }, () => "abc"[rnd(3)]).join("");
    for (let k = 0; k < 5000; k++) {
      const a = word();
      const b = word();
      const exact = fullDistance(a, b);
      assert.equal(editDistance(a, b), exact, `${a} ${b}`);
      for (const limit of [0, 1, 2, 3]) {
        const bounded = editDistance(a, b, limit);
        assert.equal(bounded, exact <= limit ? exact : limit + 1, `${a} ${b} limit ${limit}`);
      }
    }
    assert.equal(editDistance("ab", "ba"), 1);
  });
});
