import * as assert from "node:assert/strict";
import { CloseNames, editDistance } from "../../core/src/check/suggest.js";

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

function seeded(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe("semantics: name suggestions", () => {
  it("the cheap first test never turns away a name within the limit, and turns most others away", () => {
    const rnd = seeded(777);
    // Letters that share a class (code mod 32: 'a' and 'A', 'v' and '6') and ones that do not.
    const word = (): string => Array.from({ length: 1 + rnd(9) }, () => "aAv6x_19"[rnd(8)]).join("");
    let rejected = 0;
    let total = 0;
    for (let k = 0; k < 20000; k++) {
      const name = word();
      const candidate = rnd(2) ? word() : name.slice(0, rnd(name.length + 1)) + "aAv6x_19"[rnd(8)] + name.slice(rnd(name.length + 1));
      const close = new CloseNames(name);
      const limit = Math.max(1, Math.floor(name.length / 3));
      const d = fullDistance(name, candidate);
      if (candidate !== name && d <= limit) assert.ok(close.mayFit(candidate), `'${candidate}' is ${d} from '${name}'`);
      if (d > limit) {
        total++;
        if (!close.mayFit(candidate)) rejected++;
      }
    }
    assert.ok(rejected > total / 3, `only ${rejected} of ${total} distant names turned away`);
  });

  it("keeps the three closest names (then by name), as sorting every candidate would", () => {
    const rnd = seeded(4242);
    const word = (): string => Array.from({ length: 3 + rnd(6) }, () => "abv12_"[rnd(6)]).join("");
    for (let k = 0; k < 300; k++) {
      const name = word();
      const candidates = Array.from({ length: 200 }, word);
      const limit = Math.max(1, Math.floor(name.length / 3));
      const expected = [...new Set(candidates)]
        .filter((c) => c !== name)
        .map((c) => ({ c, d: fullDistance(name, c) }))
        .filter((x) => x.d <= limit)
        .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
        .slice(0, 3)
        .map((x) => x.c);
      const close = new CloseNames(name);
      for (const c of new Set(candidates)) close.consider(c);
      assert.deepEqual(close.closest(), expected, name);
    }
  });

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
