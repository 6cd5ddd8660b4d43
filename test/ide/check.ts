// One check helper per editor feature, over marker fixtures ($0 cursor, $0...$0 range), calling
// core/ide directly (no server process).
import * as assert from "node:assert/strict";
import { analyze } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { codeActions } from "../../core/src/ide/code-actions.js";
import { completion } from "../../core/src/ide/completion.js";
import { hover } from "../../core/src/ide/hover.js";
import { prepareRename, rename } from "../../core/src/ide/rename.js";
import { applyEdits, fixture, type Fixture } from "../helpers/markers.js";

export function load(marked: string): { a: Analysis; fx: Fixture } {
  const fx = fixture(marked);
  return { a: analyze(fx.text), fx };
}

export function checkRename(marked: string, newName: string, expected: string): void {
  const { a, fx } = load(marked);
  const r = rename(a, fx.cursor, newName);
  assert.ok(r.ok, r.ok ? "" : r.reason);
  assert.equal(
    applyEdits(
      fx.text,
      r.edits.map((e) => ({ ...e.span, newText: e.newText })),
    ),
    expected,
  );
}

export function checkRenameRefused(marked: string, newName: string, reason: RegExp): void {
  const { a, fx } = load(marked);
  const prep = prepareRename(a, fx.cursor);
  const r = prep.ok ? rename(a, fx.cursor, newName) : prep;
  assert.ok(!r.ok, "rename was allowed");
  assert.match(r.reason, reason);
}

/** Applies the action titled `title` and compares the resulting text. */
export function checkCodeAction(marked: string, title: string, expected: string): void {
  const { a, fx } = load(marked);
  const range = { start: fx.markers[0]!, end: fx.markers[1] ?? fx.markers[0]! };
  const actions = codeActions(a, range);
  const action = actions.find((x) => x.title === title);
  assert.ok(action, `no action ${JSON.stringify(title)}; got ${JSON.stringify(actions.map((x) => x.title))}`);
  assert.equal(
    applyEdits(
      fx.text,
      action.edits.map((e) => ({ ...e.span, newText: e.newText })),
    ),
    expected,
  );
}

export function checkCompletion(marked: string, labels: string[], absent: string[] = []): string[] {
  const { a, fx } = load(marked);
  const got = completion(a, fx.cursor).items.map((i) => i.label);
  for (const l of labels) assert.ok(got.includes(l), `completion lacks ${l}; got ${got.slice(0, 40).join(", ")}`);
  for (const l of absent) assert.ok(!got.includes(l), `completion should not offer ${l}`);
  return got;
}

export function checkHover(marked: string, fragments: string[]): string {
  const { a, fx } = load(marked);
  const h = hover(a, fx.cursor);
  assert.ok(h, "no hover");
  for (const f of fragments) assert.ok(h.markdown.includes(f), `hover lacks ${JSON.stringify(f)}:\n${h.markdown}`);
  return h.markdown;
}
