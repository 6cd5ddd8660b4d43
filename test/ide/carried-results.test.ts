// Whole-document results carried across an edit (semantic tokens, folds) must equal those of
// the new text analysed afresh; edits folded into one replacement must give the same text.
import * as assert from "node:assert/strict";
import { analyze } from "../../core/src/ide/analyze.js";
import { foldingRanges, updatedFolds } from "../../core/src/ide/folding.js";
import { inlayHints } from "../../core/src/ide/inlay-hints.js";
import { semanticTokens, updatedTokens } from "../../core/src/ide/semantic-tokens.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import { composeChanges } from "../../core/src/ide/text-change.js";
import { encodeSemanticTokens, spliceEncodedTokens } from "../../server/src/convert.js";
import { snippetAsPlainText } from "../../server/src/snippets.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { outlineSymbols, type ConvertedOutline } from "../../server/src/outline-symbols.js";

function document(): string {
  const lines = ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[N, 4] x) => (float[N, 4] y)", "<float[4] w = {1, 2, 3, 4}>", "{"];
  for (let i = 0; i < 30; i++) lines.push(`  v${i} = ${["Add", "Mul", "Relu"][i % 3]} (${i === 0 ? "x" : `v${i - 1}`}${i % 3 === 2 ? "" : ", w"})`);
  lines.push("  c = Concat <axis = 0> (", "    v29,", "    v28", "  )", "  y = Identity (v29)", "}", "");
  return lines.join("\n");
}

function converted(text: string): ConvertedOutline {
  const a = analyze(text);
  const items = documentOutline(a);
  return { text, items, symbols: outlineSymbols(a.lines, text, items) };
}

function apply(text: string, c: TextChange, insert: string): string {
  return text.slice(0, c.start) + insert + text.slice(c.end);
}

describe("results carried across an edit", () => {
  // Each edit: [find, replace-with] applied at the first occurrence, one after another.
  const edits: [string, string][] = [
    ["Add (v2", "Add (v2 v"], // breaks the statement's syntax
    ["Add (v2 v", "Add (v2"], // restores it
    ["v10 = Mul", "v10 = Mux"], // unknown op
    ["(v14", "(w14"], // undefined name
    ["    v28", "    v28, v27"], // inside a multi-line statement
    ["    v28, v27", "    v28,\n    v27"], // a line more: the tokens after it move down
    ["v20 = Relu", "v20 = Relu <alpha = 1>"],
    ["v13 = Mul (v12, w)", "v13 = Mul (\n    v12, w)"], // a line more in the body: the items below move down a line
    ["v13 = Mul (\n    v12, w)", "v13 = Mul (v12, w)"], // and back up
  ];
  let text = document();
  let tokens = semanticTokens(analyze(text));
  let folds = foldingRanges(analyze(text));
  let outline = converted(text);
  for (const [from, to] of edits) {
    it(`'${from}' -> '${to}': tokens, folds and outline equal a fresh analysis's`, () => {
      // The smallest replacement, as a keystroke makes it.
      const at = text.indexOf(from);
      assert.ok(at >= 0, `'${from}' is in the text`);
      let pre = 0;
      while (pre < from.length && pre < to.length && from[pre] === to[pre]) pre++;
      let suf = 0;
      while (suf < from.length - pre && suf < to.length - pre && from[from.length - 1 - suf] === to[to.length - 1 - suf]) suf++;
      const change = { start: at + pre, end: at + from.length - suf, newLength: to.length - pre - suf };
      const before = analyze(text);
      text = apply(text, change, to.slice(pre, to.length - suf));
      const after = analyze(text);
      const spliced = updatedTokens(after, tokens, change);
      const carriedTokens = spliced?.items;
      const carriedEncoding = spliced && spliceEncodedTokens(encodeSemanticTokens(before.lines, tokens, before.text), after.lines, spliced, text);
      const carriedFolds = updatedFolds(after, folds, change);
      const items = documentOutline(after);
      const carriedOutline = outlineSymbols(after.lines, text, items, outline, change);
      const [freshTokens, freshFolds] = [semanticTokens(after), foldingRanges(after)];
      const freshOutline = converted(text);
      assert.deepEqual(carriedOutline, freshOutline.symbols, "the outline's symbols");
      // Within one line, all but the items around the edit are the very objects sent before;
      // across lines, those before the edit are, and those after it are moved, not converted.
      const reused = carriedOutline[0]!.children!.filter((c) => outline.symbols[0]!.children!.includes(c)).length;
      const lines = (s: string) => s.split("\n").length;
      if (lines(from) === lines(to)) assert.ok(reused >= freshOutline.symbols[0]!.children!.length - 2, `${reused} symbols reused`);
      else {
        const editedLine = after.lines.position(change.start).line;
        const above = freshOutline.symbols[0]!.children!.filter((c) => c.range.end.line < editedLine).length;
        assert.ok(above > 10 && reused >= above, `${reused} symbols reused of ${above} above the edit`);
      }
      tokens = freshTokens;
      folds = freshFolds;
      outline = { text, items, symbols: carriedOutline };
      // A syntax error the parser recovers from beyond the statement: recomputed, which is right too.
      if (!carriedTokens && after.syntaxCount > 0) return;
      assert.ok(carriedTokens, "the tokens were carried, not recomputed");
      assert.ok(carriedFolds, "the folds were carried, not recomputed");
      assert.deepEqual(carriedTokens, freshTokens);
      assert.deepEqual(carriedEncoding, encodeSemanticTokens(after.lines, freshTokens, text), "the encoding spliced from the last one");
      assert.deepEqual(carriedFolds, freshFolds);
    });
  }

  it("recomputes (returns undefined) for an edit outside any statement", () => {
    const t = document();
    const a = analyze(t.replace("g (float", "gg (float"));
    assert.equal(updatedTokens(a, semanticTokens(analyze(t)), { start: 0 + t.indexOf("g (float"), end: t.indexOf("g (float"), newLength: 1 }), undefined);
  });

  it("folds a series of edits into one replacement that makes the same text", () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 200; round++) {
      const start = "abcdefghijklmnopqrstuvwxyz".repeat(2);
      let text = start;
      const changes: TextChange[] = [];
      for (let k = 0; k < 1 + Math.floor(rnd() * 5); k++) {
        const s = Math.floor(rnd() * text.length);
        const e = Math.min(text.length, s + Math.floor(rnd() * 4));
        const ins = "XYZ".slice(0, Math.floor(rnd() * 4));
        changes.push({ start: s, end: e, newLength: ins.length });
        text = text.slice(0, s) + ins + text.slice(e);
      }
      const net = composeChanges(changes)!;
      const rebuilt = start.slice(0, net.start) + text.slice(net.start, net.start + net.newLength) + start.slice(net.end);
      assert.equal(rebuilt, text, JSON.stringify(changes));
    }
  });
});

describe("inlay hints and snippets", () => {
  it("gives no `float[]` hint below an error, where inference stopped", () => {
    const a = analyze(
      ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[N, 4] x) => (y) {", "  a = Nope (x)", "  b = Relu (a)", "  y = Relu (x)", "}", ""].join("\n"),
    );
    const labels = inlayHints(a, 0, a.text.length).map((h) => `${a.lines.lineCol(h.offset)}${h.label}`);
    assert.deepEqual(labels, ["5:4: float[N, 4]"]);
  });

  it("turns snippet text into what a client without snippet support should insert", () => {
    assert.equal(snippetAsPlainText("Conv (${1:X}, ${2:W})$0"), "Conv (X, W)");
    assert.equal(snippetAsPlainText("tensor(${1})"), "tensor()");
    assert.equal(snippetAsPlainText("a \\$1 \\}"), "a $1 }");
  });
});
