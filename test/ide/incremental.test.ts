import * as assert from "node:assert/strict";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { reanalyzeSteps } from "../../core/src/ide/incremental.js";
import { composeChanges } from "../../core/src/ide/text-change.js";
import { apply, assertSame, document, finish, random, randomEdit, symbolsOf } from "./incremental-harness.js";

describe("ide: incremental analysis of a one-statement edit", () => {
  it("gives what a full analysis gives, for many random edits in a row", function () {
    this.timeout(120000);
    const rnd = random(7);
    let applied = 0;
    let withSemanticErrors = 0;
    let broken = 0;
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
        if (inc.syntaxCount > 0) {
          // A broken statement (incremental-broken.ts): typed back as it was, from the last clean
          // analysis with both edits folded into one, as the language server does.
          broken++;
          const undo = { start: change.start, end: change.start + change.newLength, newLength: change.end - change.start };
          const back = reanalyzeSteps(current, composeChanges([change, undo])!, current.text);
          assert.ok(back, `document ${doc}, edit ${e}: the repair is spliced too`);
          const repaired = finish(back);
          assertSame(repaired, analyze(current.text), `document ${doc}, edit ${e} repaired`);
          current = repaired;
          continue;
        }
        if (full.diagnostics.some((d) => d.severity === "error")) withSemanticErrors++;
        // Keep editing the incremental result, so a chain of splices is checked too.
        current = inc;
      }
    }
    assert.ok(applied >= 60, `only ${applied} edits took the incremental path`);
    assert.ok(withSemanticErrors >= 10, `only ${withSemanticErrors} edits had semantic errors`);
    assert.ok(broken >= 20, `only ${broken} edits broke a statement`);
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

  it("declines edits it cannot splice: errors that run past the statement, a header, an analysis already reused", () => {
    const text = document(10, random(5));
    const before = analyze(text);
    const paren = text.indexOf("(", text.indexOf("v3 ="));
    // An open string runs on to the next quote; a `<` after the inputs reads the next statement as attributes.
    assert.equal(reanalyzeSteps(before, { start: paren, end: paren, newLength: 1 }, `${text.slice(0, paren)}"${text.slice(paren)}`), undefined);
    const close = text.indexOf(")", paren);
    assert.equal(reanalyzeSteps(before, { start: close, end: close + 1, newLength: 2 }, `${text.slice(0, close)})<${text.slice(close + 1)}`), undefined);
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
