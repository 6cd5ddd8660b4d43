// The graph-wide lints (identity-chain, float64-constant, unused-value-info) stay right when the editor re-analyses
// one edited statement instead of the whole text.
import { strict as assert } from "node:assert";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { reanalyzeSteps } from "../../core/src/ide/incremental.js";

function finish(steps: Generator<Analysis | undefined, Analysis, void>): Analysis {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

const key = (a: Analysis): string[] => a.diagnostics.map((d) => `${d.code}@${d.span?.start}-${d.span?.end}`).sort();

const TEXT = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) <
  double[2] w = {1, 2},
  float[2] v
> {
  a = Identity (x)
  b = Identity (a)
  c = Cast <to = 1> (w)
  v = Neg (x)
  y = Add (b, c)
}
`;

describe("graph-wide lints across incremental edits", () => {
  for (const [what, from, to] of [
    ["an Identity that becomes a Relu", "b = Identity (a)", "b = Relu (a)"],
    ["a Relu that becomes an Identity", "b = Identity (a)", "b = Relu (a)"],
    ["a new non-Cast use of a double initializer", "y = Add (b, c)", "y = Add (b, w)"],
    ["a node output renamed away from its value_info", "v = Neg (x)", "vw = Neg (x)"],
  ] as const) {
    it(`${what}: the same diagnostics as a full analysis`, () => {
      const before = what.startsWith("a Relu") ? TEXT.replace(from, to) : TEXT;
      const [f, t] = what.startsWith("a Relu") ? [to, from] : [from, to];
      // the change strictly inside the statement (its first and last characters kept), as typing does
      let p = 0;
      while (f[p] === t[p]) p++;
      let q = 0;
      while (f[f.length - 1 - q] === t[t.length - 1 - q]) q++;
      const at = before.indexOf(f) + p;
      const after = before.slice(0, at) + t.slice(p, t.length - q) + before.slice(at + f.length - p - q);
      const steps = reanalyzeSteps(analyze(before), { start: at, end: at + f.length - p - q, newLength: t.length - p - q }, after);
      assert.ok(steps, "the edit is re-analysed incrementally");
      assert.deepEqual(key(finish(steps)), key(analyze(after)));
    });
  }
});
