// Hostile text: 10k nested brackets and subgraphs, and inputs built to make a stage superlinear.
// Deep input gets a located error from the parser's nesting limit instead of a stack overflow;
// everything the parser accepts lowers, checks and reads back from binary.
import { strict as assert } from "node:assert";
import { MAX_NESTING, parseModel } from "../../grammar/src/index.js";
import { checkModel } from "../../core/src/check/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { textDiagnosticProblems } from "./harness/invariants.js";

const HEADER = `<ir_version: 8, opset_import: ["" : 18]>\n`;
const MAIN = `${HEADER}main (float x) => (float y) {\n`;

/** `depth` If nodes, each in the then-branch of the one before. */
function nestedIfs(depth: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    open += `y${i} = If (c) <then_branch = g${i} () => (float y${i + 1}) {\n`;
    close = `}, else_branch = e${i} () => (float y${i + 1}) { y${i + 1} = Identity(x) }>\n${close}`;
  }
  return `${HEADER}main (bool c, float x) => (float y0) {\n${open}y${depth} = Identity(x)\n${close}}\n`;
}

/** Runs every text stage and returns what it reported, asserting the invariants. */
function allStages(text: string): { errors: string[]; accepted: boolean } {
  const r = modelFromText(text);
  const diagnostics = [...r.diagnostics];
  if (r.model) diagnostics.push(...checkModel(r.model, { sourceMap: r.sourceMap }));
  assert.deepEqual(textDiagnosticProblems(diagnostics, text.length), []);
  return { errors: diagnostics.filter((d) => d.severity === "error").map((d) => d.message), accepted: r.model !== undefined };
}

const DEEP = 10_000;
const DEEP_INPUTS: Record<string, string> = {
  "parentheses in an input list": `${MAIN}y = Add${"(".repeat(DEEP)}x) }`,
  "balanced parentheses": `${MAIN}y = Add${"(".repeat(DEEP)}x${")".repeat(DEEP)} }`,
  "square brackets in a shape": `${HEADER}main (float${"[".repeat(DEEP)}1${"]".repeat(DEEP)} x) => (float y) { y = Identity(x) }`,
  "braces in tensor data": `${MAIN}y = Constant <value = float[1] ${"{".repeat(DEEP)}1${"}".repeat(DEEP)}> () }`,
  "angle brackets in attributes": `${MAIN}y = Op ${"<a = ".repeat(DEEP)} () }`,
  "seq( type constructors": `${HEADER}main (${"seq(".repeat(DEEP)}float${")".repeat(DEEP)} x) => (float y) { y = Identity(x) }`,
  "optional( type constructors, unclosed": `${HEADER}main (${"optional(".repeat(DEEP)}`,
  "attribute lists [ [ [": `${MAIN}y = Op <a = ${"[".repeat(DEEP)}> () }`,
  "subgraphs (If in then_branch)": nestedIfs(DEEP),
  "subgraph headers only": `${MAIN}${"y = If (c) <then_branch = g () => (float z) {\n".repeat(DEEP)}`,
};

describe("hostile text", () => {
  it("a leading byte order mark changes no diagnostic, only shifts it (found by npm run fuzz, seed 1)", () => {
    for (const text of ["\uFD90", " x", "<ir_version: 7> g (float x) => (float y) { y = Relu(x) } \u0001"]) {
      const plain = parseModel(text).diagnostics.map((d) => `${(d.span?.start ?? 0) + 1}:${d.message}`);
      const marked = parseModel(`\uFEFF${text}`).diagnostics.map((d) => `${d.span?.start ?? 0}:${d.message}`);
      assert.deepEqual(marked, plain, JSON.stringify(text));
    }
  });

  it("a zero Slice step and a NaN Range bound give no NaN dimension (found by the fuzz test, seeds 2 and 3)", () => {
    const slice = `${HEADER}g (float[6] x) => (float y) {\n s = Constant <value = int64[1] {2147483647}> ()\n e = Constant <value = int64[1] {1000}> ()\n a = Constant <value = int64[1] {0}> ()\n p = Constant <value = int64[1] {0}> ()\n y = Slice(x, s, e, a, p) }`;
    // onnx's inference refuses it: "'step' cannot be 0 for Slice".
    assert.ok(allStages(slice).errors.some((m) => m.includes("a step cannot be 0")));
    const range = `${HEADER}g () => (double y) {\n a = Constant <value = double {1}> ()\n b = Constant <value = double {nan}> ()\n y = Range(a, b, a) }`;
    const errors = allStages(range).errors;
    assert.ok(errors.some((m) => m.includes("double[?]")) && !errors.some((m) => m.includes("NaN")), errors.join("; "));
  });

  for (const [name, text] of Object.entries(DEEP_INPUTS)) {
    it(`${DEEP} nested ${name}: a located error, no stack overflow`, () => {
      const r = allStages(text);
      assert.equal(r.accepted, false);
      // At most one error per open level (each unclosed block is named), so bounded by the limit.
      assert.ok(r.errors.length > 0 && r.errors.length <= MAX_NESTING + 8, `${r.errors.length} errors`);
    });
  }

  it(`the nesting limit (${MAX_NESTING}) is named in the error`, () => {
    assert.ok(allStages(DEEP_INPUTS["seq( type constructors"]!).errors.some((m) => m.includes(`deeper than ${MAX_NESTING}`)));
    assert.ok(allStages(DEEP_INPUTS["subgraphs (If in then_branch)"]!).errors.some((m) => m.includes(`deeper than ${MAX_NESTING}`)));
  });

  it("the deepest subgraph nesting the parser accepts lowers, checks, and reads back from binary", () => {
    let lo = 1;
    let hi = 1000;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (modelFromText(nestedIfs(mid)).model) lo = mid;
      else hi = mid - 1;
    }
    assert.ok(lo >= 50, `only ${lo} nested subgraphs accepted`);
    const r = modelFromText(nestedIfs(lo));
    assert.deepEqual(
      checkModel(r.model!, { sourceMap: r.sourceMap }).filter((d) => d.severity === "error"),
      [],
    );
    const back = decodeModel(encodeModel(r.model!));
    assert.equal(back.graph?.node[0]?.attribute[0]?.g?.node[0]?.opType, "If");
  });

  it("line breaks, lone surrogates, NULs and a BOM: located errors", () => {
    for (const bad of ["\ud800", "\udc00x", "\u0000", "\ufeff", "\u2028", '"\n\n"', "'single'", '"\\']) {
      const r = allStages(`${MAIN}y = Relu(x)${bad}\n}`);
      assert.ok(r.errors.length > 0 || r.accepted, JSON.stringify(bad));
    }
  });

  describe("no stage is superlinear", () => {
    // Best CPU times at n and 16n: linear work grows ~16x, quadratic ~256x. The bound is loose and
    // the small run has a floor because CI machines are noisy; it catches quadratic blowups,
    // not small slowdowns (those belong in bench/).
    const GROWTH_LIMIT = 100;
    const FLOOR_MS = 5;
    const run = (text: string): void => void allStages(text);
    const best = (text: string, runs: number): number => {
      let min = Infinity;
      for (let k = 0; k < runs; k++) {
        // CPU time of this process, not wall time: other jobs on the machine do not count.
        const t0 = process.cpuUsage();
        run(text);
        const used = process.cpuUsage(t0);
        min = Math.min(min, (used.user + used.system) / 1000);
      }
      return min;
    };
    const SHAPES: Record<string, (n: number) => string> = {
      "unclosed calls": (n) => MAIN + "y = Add(".repeat(n),
      "a syntax error on every line": (n) => `${MAIN}${"y = Add(x,\n".repeat(n)}}`,
      "unterminated strings": (n) => MAIN + '"a\n'.repeat(n),
      "unexpected characters": (n) => MAIN + "\u0001 ".repeat(n),
      "stray closing brackets": (n) => MAIN + ")]}>".repeat(n),
      "a long chain of nodes": (n) =>
        `${MAIN}v0 = Relu(x)\n${Array.from({ length: n }, (_, i) => `v${i + 1} = Relu(v${i})`).join("\n")}\ny = Identity(v${n})\n}`,
      "undefined inputs everywhere": (n) => `${MAIN}${Array.from({ length: n }, (_, i) => `v${i} = Add(q${i}, r${i})`).join("\n")}\ny = Identity(x)\n}`,
      "the same output assigned again and again": (n) => `${MAIN}${"y = Relu(x)\n".repeat(n)}}`,
      "many attributes": (n) => `${MAIN}y = Relu <${Array.from({ length: n }, (_, i) => `a${i} = ${i}`).join(", ")}> (x)\n}`,
      "a long packed number list": (n) => `${MAIN}y = Constant <value = float[${n}] {${"1.5, ".repeat(n)}}> ()\n}`,
    };
    for (const [name, make] of Object.entries(SHAPES)) {
      it(name, () => {
        const small = make(250);
        const large = make(4000);
        run(large); // warm up the JIT on the same shapes
        const growth = best(large, 2) / Math.max(best(small, 3), FLOOR_MS);
        assert.ok(growth < GROWTH_LIMIT, `16x the input took ${growth.toFixed(1)}x the time`);
      });
    }
  });
});
