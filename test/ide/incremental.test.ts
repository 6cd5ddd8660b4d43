import * as assert from "node:assert/strict";
import { toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { reanalyzeSteps } from "../../core/src/ide/incremental.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import type { Span } from "../../grammar/src/span.js";

/** xorshift32 in [0, 1): the same edits on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** A graph with initializers, declared types, attributes, folded constants, comments, a function and some mistakes. */
function document(nodes: number, rnd: () => number): string {
  const lines = [
    `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>`,
    `g (float[N, 4] x, int64[2] shape) => (float[N, 4] y)`,
    `<float[4] w = {1, 2, 3, 4}, float[N, 4] v1, int64[1] axes = {0}>`,
    `{`,
  ];
  let prev = "x";
  for (let i = 0; i < nodes; i++) {
    const out = `v${i}`;
    const pick = Math.floor(rnd() * 10);
    if (i % 7 === 3) lines.push(`  # step ${i}`);
    if (pick === 0) lines.push(`  ${out} = Relu (${prev})`);
    else if (pick === 1) lines.push(`  ${out} = Add (${prev}, w)`);
    else if (pick === 2) lines.push(`  ${out} = Mul (${prev}, ${prev})  # square`);
    else if (pick === 3) lines.push(`  ${out} = LeakyRelu <alpha: float = 0.1> (${prev})`);
    else if (pick === 4) lines.push(`  ${out} = local.Twice (${prev})`);
    else if (pick === 5) lines.push(`  ${out} = Cast <to = 1> (${prev})`);
    else if (pick === 6) lines.push(`  ${out} = Softmax <axis = -1> (${prev})`);
    else if (pick === 7) lines.push(`  ${out} = Add (${prev}, v${Math.max(0, i - 3)})`);
    else if (pick === 8) lines.push(`  [n${i}] ${out} = Identity (${prev})`);
    else lines.push(`  c${i} = Constant <value = int64[2] {-1, 4}> ()`, `  ${out} = Reshape (${prev}, c${i})`);
    prev = out;
  }
  lines.push(`  y = Identity (${prev})`, `}`, ``, `<domain: "local", opset_import: ["" : 21]>`, `Twice (a) => (b) {`, `  b = Add (a, a)`, `}`, ``);
  return lines.join("\n");
}

const ALPHABET = 'vwx0123456789_ ,()<>=.:a#[]"';

/** A random one-character edit strictly inside a node statement of the main graph. */
function randomEdit(a: Analysis, rnd: () => number): TextChange {
  const nodes = a.ast!.graph!.body!.nodes;
  const node = nodes[Math.floor(rnd() * nodes.length)]!;
  const at = node.span.start + 1 + Math.floor(rnd() * (node.span.end - node.span.start - 2));
  const kind = Math.floor(rnd() * 3);
  return kind === 0 ? { start: at, end: at + 1, newLength: 0 } : { start: at, end: at + (kind === 1 ? 1 : 0), newLength: 1 };
}

function apply(text: string, c: TextChange, rnd: () => number): string {
  const ch = c.newLength ? ALPHABET[Math.floor(rnd() * ALPHABET.length)]! : "";
  return text.slice(0, c.start) + ch + text.slice(c.end);
}

function finish(steps: Generator<Analysis | undefined, Analysis, void>): Analysis {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

function assertSame(inc: Analysis, full: Analysis, what: string): void {
  assert.deepEqual(inc.diagnostics, full.diagnostics, `${what}: diagnostics`);
  assert.equal(inc.syntaxCount, full.syntaxCount);
  assert.deepEqual(toBinary(ModelProtoSchema, inc.model!), toBinary(ModelProtoSchema, full.model!), `${what}: model`);
  assert.deepEqual(inc.ast, full.ast, `${what}: syntax tree`);
  assert.deepEqual(inc.comments, full.comments, `${what}: comments`);
  assert.equal(inc.lines.lineCount, full.lines.lineCount, `${what}: lines`);
  for (let o = 0; o <= inc.text.length; o += 7) assert.deepEqual(inc.lines.position(o), full.lines.position(o), `${what}: position of ${o}`);
  assert.deepEqual(symbolsOf(inc), symbolsOf(full), `${what}: symbol index`);
}

/** The symbol index as plain data: every occurrence in text order with its symbol, and each scope's names. */
function symbolsOf(a: Analysis): unknown {
  const where = (s: Span): string => `${s.start}-${s.end}`;
  const occurrences = a.symbols.occurrencesIn({ start: 0, end: a.text.length }).map((o) => {
    const p = o.symbol.producer;
    return {
      at: where(o.span),
      role: o.role,
      quotable: o.quotable,
      symbol: `${o.symbol.kind} ${o.symbol.name}`,
      producer: p && (p.kind === "node" ? `node ${where(p.node.span)} #${p.index}` : `${p.kind} ${where(p.decl.span)}`),
      all: o.symbol.occurrences.map((x) => `${where(x.span)} ${x.role}`).sort(),
    };
  });
  const scopes = a.symbols.scopes.map((s) => [where(s.owner.span), [...s.values.keys()].sort()]);
  return { occurrences, scopes };
}

describe("ide: incremental analysis of a one-statement edit", () => {
  it("gives what a full analysis gives, for many random edits in a row", function () {
    this.timeout(120000);
    const rnd = random(7);
    let applied = 0;
    let withSemanticErrors = 0;
    for (let doc = 0; doc < 6; doc++) {
      let current = analyze(document(40, rnd));
      for (let e = 0; e < 60; e++) {
        const change = randomEdit(current, rnd);
        // Mostly with the index built, so that the edit updates it rather than building anew.
        if (rnd() < 0.8) void current.symbols;
        const after = apply(current.text, change, rnd);
        const full = analyze(after);
        const steps = reanalyzeSteps(current, change, after);
        if (!steps) {
          // Stay on the last text that analysed cleanly when the edit broke the syntax.
          if (full.model && full.syntaxCount === 0) current = full;
          continue;
        }
        const inc = finish(steps);
        assertSame(inc, full, `document ${doc}, edit ${e} at ${change.start}`);
        applied++;
        if (full.diagnostics.some((d) => d.severity === "error")) withSemanticErrors++;
        // Keep editing the incremental result, so a chain of splices is checked too.
        current = inc;
      }
    }
    assert.ok(applied >= 60, `only ${applied} edits took the incremental path`);
    assert.ok(withSemanticErrors >= 10, `only ${withSemanticErrors} edits had semantic errors`);
  });

  it("finds the undefined name a renamed input introduces, at its new place", () => {
    const text = document(30, random(3));
    const before = analyze(text);
    const at = text.indexOf("(v20") + 1;
    const change = { start: at, end: at + 1, newLength: 1 };
    const after = text.slice(0, at) + "w" + text.slice(at + 1);
    const inc = finish(reanalyzeSteps(before, change, after)!);
    const undefinedName = inc.diagnostics.find((d) => d.code === "undefined-value");
    assert.ok(undefinedName, JSON.stringify(inc.diagnostics));
    assert.equal(after.slice(undefinedName.span!.start, undefinedName.span!.end), "w20");
  });

  it("keeps the symbol index it updates equal to a new one: an undefined name comes and goes", () => {
    const text = document(30, random(3));
    const at = text.indexOf("(v20") + 1;
    const before = analyze(text);
    const built = before.symbols;
    const misspelt = text.slice(0, at) + "w" + text.slice(at + 1);
    const inc = finish(reanalyzeSteps(before, { start: at, end: at + 1, newLength: 1 }, misspelt)!);
    assert.equal(inc.symbols, built, "the index was updated, not built again");
    assert.deepEqual(symbolsOf(inc), symbolsOf(analyze(misspelt)));
    assert.ok(inc.symbols.scopes[0]!.values.has("w20"));
    const back = finish(reanalyzeSteps(inc, { start: at, end: at + 1, newLength: 1 }, text)!);
    assert.equal(back.symbols, built);
    assert.deepEqual(symbolsOf(back), symbolsOf(analyze(text)));
    assert.ok(!back.symbols.scopes[0]!.values.has("w20"));
  });

  it("declines edits it cannot splice: a broken statement, a header, an analysis already reused", () => {
    const text = document(10, random(5));
    const before = analyze(text);
    const paren = text.indexOf("(", text.indexOf("v3 ="));
    assert.equal(reanalyzeSteps(before, { start: paren, end: paren + 1, newLength: 0 }, text.slice(0, paren) + text.slice(paren + 1)), undefined);
    assert.equal(reanalyzeSteps(before, { start: 2, end: 3, newLength: 1 }, `${text.slice(0, 2)}x${text.slice(3)}`), undefined);
    const at = text.indexOf("v5 =") + 1;
    const edit = { start: at, end: at + 1, newLength: 1 };
    const after = `${text.slice(0, at)}9${text.slice(at + 1)}`;
    const steps = reanalyzeSteps(before, edit, after);
    assert.ok(steps);
    finish(steps);
    assert.equal(reanalyzeSteps(before, edit, after), undefined);
  });

  it("reports a contradicted declaration at the declaration, and drops it when the producer or a node upstream is fixed", () => {
    const text = [
      `<ir_version: 10, opset_import: ["" : 21]>`,
      `g (float[N, 4] x) => (float[N, 4] y) <float[N, 4] h> {`,
      `  c = Cast <to = 1> (x)`,
      `  h = Relu (c)`,
      `  y = Identity (h)`,
      `}`,
      ``,
    ].join("\n");
    const to = text.indexOf("to = 1") + 5;
    let current = analyze(text);
    assert.deepEqual(current.diagnostics, []);
    // `to = 7` makes c int64, so Relu makes h int64 against h's declaration and Identity makes y
    // int64 against y's: both are nodes downstream of the edit, reported at their declarations
    // (in text order) with the producing node as the related place. `to = 1` clears both.
    for (const [digit, expected] of [
      ["7", ["y", "h"]],
      ["1", []],
    ] as const) {
      const after = `${current.text.slice(0, to)}${digit}${current.text.slice(to + 1)}`;
      const inc = finish(reanalyzeSteps(current, { start: to, end: to + 1, newLength: 1 }, after)!);
      assertSame(inc, analyze(after), `to = ${digit}`);
      const mismatches = inc.diagnostics.filter((d) => d.code === "declared-type-mismatch");
      assert.deepEqual(
        mismatches.map((d) => after.slice(d.span!.start, d.span!.end)),
        expected.map(() => "float[N, 4]"),
      );
      assert.deepEqual(
        mismatches.map((d) => d.related?.map((r) => `${after.slice(r.span.start, r.span.end)}: ${r.message}`)),
        expected.map((name) => [`${name}: '${name}' is produced here by ${name === "h" ? "Relu" : "Identity"}`]),
      );
      current = inc;
    }
  });

  it("yields the checks before inference: a misspelt op is reported while the chain below it is re-inferred", () => {
    const text = document(30, random(5));
    const before = analyze(text);
    const at = text.indexOf(" = Relu (") + 3;
    const after = `${text.slice(0, at)}Relx${text.slice(at + 4)}`;
    const steps = reanalyzeSteps(before, { start: at, end: at + 4, newLength: 4 }, after)!;
    const snapshots: Analysis[] = [];
    let r = steps.next();
    for (; !r.done; r = steps.next()) if (r.value) snapshots.push(r.value);
    const [parsed, checked, ...more] = snapshots;
    assert.equal(more.length, 0);
    assert.deepEqual(parsed!.diagnostics, []);
    assert.ok(!checked!.complete);
    const unknownOp = (a: Analysis) => a.diagnostics.filter((d) => d.code === "unknown-op").map((d) => after.slice(d.span!.start, d.span!.end));
    assert.deepEqual(unknownOp(checked!), ["Relx"]);
    assertSame(r.value, analyze(after), "after the misspelling");
    assert.deepEqual(unknownOp(r.value), ["Relx"]);
  });
});
