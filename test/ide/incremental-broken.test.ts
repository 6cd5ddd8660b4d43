// An edit that breaks one statement's syntax is analysed incrementally (incremental-broken.ts)
// only where that gives what a full analysis of the new text gives: seeded edits of the kinds a
// user makes (a bracket, comma, `=`, angle bracket, quote or `#` deleted or typed, a letter of
// the op name) at many places in the statements of a 50k-node document, a printed ResNet-50 and
// a document that mixes the syntax's features. Each result, and that of the repair that comes
// next (from the last clean analysis, the edits folded into one, as the language server does),
// is compared with a fresh analysis: diagnostics, model bytes, tree, comments, symbols,
// outline, semantic tokens, types.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { largeDocument } from "../../bench/lsp-document.js";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { reanalyzeSteps } from "../../core/src/ide/incremental.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import { composeChanges } from "../../core/src/ide/text-change.js";
import { decodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import type { OpNode } from "../../grammar/src/ast.js";
import { LIGHT } from "../helpers/paths.js";
import { assertSame, document, finish, random } from "./incremental-harness.js";

const BREAKERS = '(),=<>"#';

interface Edit {
  readonly change: TextChange;
  readonly insert: string;
  readonly kind: string;
}

/** A one-character edit in `node` after its first character: a breaker deleted or typed, or a letter of the op name. */
function breakingEdit(text: string, node: OpNode, rnd: () => number): Edit {
  const { start, end } = node.span;
  const pick = rnd();
  if (pick < 0.45) {
    const at: number[] = [];
    for (let p = start + 1; p < end; p++) if (BREAKERS.includes(text[p]!)) at.push(p);
    if (at.length > 0) {
      const p = at[Math.floor(rnd() * at.length)]!;
      return { change: { start: p, end: p + 1, newLength: 0 }, insert: "", kind: `delete ${text[p]}` };
    }
  }
  const op = node.op?.opType?.span;
  if (pick < 0.85 || !op) {
    const p = start + 1 + Math.floor(rnd() * (end - start));
    const ch = BREAKERS[Math.floor(rnd() * BREAKERS.length)]!;
    return { change: { start: p, end: p, newLength: 1 }, insert: ch, kind: `insert ${ch}` };
  }
  if (rnd() < 0.5 && op.end - op.start > 1) {
    const p = op.start + Math.floor(rnd() * (op.end - op.start));
    return { change: { start: p, end: p + 1, newLength: 0 }, insert: "", kind: "delete a letter of the op" };
  }
  const p = op.start + Math.floor(rnd() * (op.end - op.start + 1));
  return { change: { start: p, end: p, newLength: 1 }, insert: "q", kind: "insert a letter in the op" };
}

function applied(text: string, e: Edit): string {
  return text.slice(0, e.change.start) + e.insert + text.slice(e.change.end);
}

/** The change that takes `e` back, in offsets of the text `e` made. */
function undo(text: string, e: Edit): Edit {
  const { start, end, newLength } = e.change;
  return { change: { start, end: start + newLength, newLength: end - start }, insert: text.slice(start, end), kind: "undo" };
}

interface Tally {
  spliced: number;
  repaired: number;
  /** Edits that broke the syntax and were analysed in full, by kind. */
  declined: Map<string, number>;
}

/**
 * `edits` rounds on `text`: break a random statement (sometimes twice), compare, repair, compare.
 * `full` of the unedited text is the oracle of every repair (the text comes back each time).
 */
function breakAndRepair(text: string, edits: number, seed: number, label: string): Tally {
  const rnd = random(seed);
  const oracle = analyze(text);
  let base: Analysis = analyze(text);
  const tally: Tally = { spliced: 0, repaired: 0, declined: new Map() };
  for (let round = 0; round < edits; round++) {
    const what = `${label}, round ${round}`;
    if (rnd() < 0.8) void base.symbols;
    const nodes = base.ast!.graph!.body!.nodes;
    const node = nodes[Math.floor(rnd() * nodes.length)]!;
    const made: Edit[] = [];
    const texts = [text];
    let edit = breakingEdit(text, node, rnd);
    for (;;) {
      made.push(edit);
      const now = applied(texts[texts.length - 1]!, edit);
      texts.push(now);
      const change = composeChanges(made.map((m) => m.change))!;
      const full = analyze(now);
      const steps = reanalyzeSteps(base, change, now);
      if (!steps) {
        if (full.syntaxCount > 0) tally.declined.set(edit.kind, (tally.declined.get(edit.kind) ?? 0) + 1);
        break;
      }
      const inc = finish(steps);
      assertSame(
        inc,
        full,
        `${what}: ${made.map((m) => m.kind).join(", ")} at ${change.start} (${JSON.stringify(now.slice(node.span.start, change.start + change.newLength + 20))})`,
      );
      if (inc.syntaxCount === 0) {
        // Not broken (a letter of the op name): the spliced analysis is the new base.
        base = inc;
        break;
      }
      tally.spliced++;
      // Now and then a second edit in the broken statement before the repair.
      if (made.length > 1 || rnd() < 0.6) break;
      const span = { start: node.span.start, end: node.span.end + edit.change.newLength - (edit.change.end - edit.change.start) };
      const ch = BREAKERS[Math.floor(rnd() * BREAKERS.length)]!;
      // Typed anywhere after the first character up to the end; deleted inside.
      const p = span.start + 1 + Math.floor(rnd() * (span.end - span.start));
      const q = span.start + 1 + Math.floor(rnd() * (span.end - span.start - 1));
      edit =
        rnd() < 0.5
          ? { change: { start: p, end: p, newLength: 1 }, insert: ch, kind: `then insert ${ch}` }
          : { change: { start: q, end: q + 1, newLength: 0 }, insert: "", kind: "then delete" };
    }
    // The repair: every edit typed back, from the last clean analysis.
    for (let m = made.length - 1; m >= 0; m--) made.push(undo(texts[m]!, made[m]!));
    const repairedText = made.slice(made.length / 2).reduce((t, m) => applied(t, m), texts[texts.length - 1]!);
    assert.equal(repairedText, text);
    if (base.text !== text) {
      // The base is a clean edit's analysis: go back from it.
      const back = reanalyzeSteps(base, made[made.length - 1]!.change, text);
      base = back ? finish(back) : analyze(text);
      if (back) assertSame(base, oracle, `${what}: undone`);
      continue;
    }
    // The statement as it was, in the last clean analysis: always spliced (given back first if
    // a broken edit took its tree).
    const repair = composeChanges(made.map((m) => m.change))!;
    const back = reanalyzeSteps(base, repair, text);
    assert.ok(
      back,
      `${what}: the repair ${JSON.stringify(repair)} of ${made.map((m) => m.kind).join(", ")} in ${JSON.stringify(text.slice(node.span.start, node.span.end))} is spliced`,
    );
    const repaired = finish(back);
    assertSame(repaired, oracle, `${what}: repaired`);
    tally.repaired++;
    base = repaired;
  }
  return tally;
}

function report(label: string, t: Tally): string {
  return `${label}: ${t.spliced} broken edits spliced, ${t.repaired} repairs; analysed in full: ${[...t.declined].map(([k, n]) => `${k} x${n}`).join(", ") || "none"}`;
}

describe("ide: an edit that breaks a statement", () => {
  it("gives what a full analysis gives, and so does the repair after it: a document with the syntax's features", function () {
    this.timeout(120000);
    const t = breakAndRepair(document(120, random(11)), 200, 3, "mixed document");
    console.log(`      ${report("mixed", t)}`);
    assert.ok(t.spliced >= 100, report("mixed", t));
    assert.ok(t.repaired >= 100, report("mixed", t));
  });

  it("on a printed ResNet-50", function () {
    this.timeout(120000);
    const text = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"))));
    const t = breakAndRepair(text, 60, 5, "ResNet-50");
    console.log(`      ${report("ResNet-50", t)}`);
    assert.ok(t.spliced >= 30, report("ResNet-50", t));
  });

  it("on the 50k-node document", function () {
    this.timeout(300000);
    const t = breakAndRepair(largeDocument(50000), 6, 9, "50k nodes");
    console.log(`      ${report("50k", t)}`);
    assert.ok(t.spliced >= 3, report("50k", t));
  });

  it("keeps the symbol index it updates, and gives it back for the repair", () => {
    const text = largeDocument(2000);
    const base = analyze(text);
    const index = base.symbols;
    const at = text.indexOf("(", text.indexOf("v1000 ="));
    const broken = text.slice(0, at) + text.slice(at + 1);
    const inc = finish(reanalyzeSteps(base, { start: at, end: at + 1, newLength: 0 }, broken)!);
    assert.equal(inc.symbols, index, "updated, not built again");
    const back = finish(reanalyzeSteps(base, { start: at, end: at + 1, newLength: 1 }, text)!);
    assert.equal(back.symbols, index);
    assertSame(back, analyze(text), "repaired");
    // The broken analysis gave its tree back: no later edit splices into it.
    assert.equal(reanalyzeSteps(inc, { start: at, end: at, newLength: 1 }, text), undefined);
  });
});
