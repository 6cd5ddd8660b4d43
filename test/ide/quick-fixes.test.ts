// Quick fixes that are right (issue #19 item 6): a suggested name is defined before the use, so
// applying it leaves no error; every "did you mean" in a message comes with the action that
// applies it; messages name the op as it is written and say what was given.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { analyze, analyzeSteps } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { codeActions, codeActionsNeedSemantics } from "../../core/src/ide/code-actions.js";
import { DID_YOU_MEAN } from "../../core/src/check/suggest.js";
import { builtIndexOf } from "../../core/src/ide/symbols.js";
import { applyEdits } from "../helpers/markers.js";
import { REPO } from "../helpers/paths.js";

const HEADER = `<ir_version: 8, opset_import: ["" : 18]>\n`;

/** The first snapshot the analysis in steps gives: the parse alone (the parse pauses before it). */
function earlySnapshot(text: string): Analysis | undefined {
  for (const step of analyzeSteps(text)) if (step) return step;
  return undefined;
}

function errorsOf(text: string): string[] {
  return analyze(text)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => `${d.message} [${d.code}]`);
}

function wholeText(text: string) {
  return { start: 0, end: text.length };
}

/** Every action that fixes a "did you mean" diagnostic, applied one at a time: the text it leaves. */
function didYouMeanFixes(text: string): { message: string; hint: string; after?: string }[] {
  const a = analyze(text);
  const actions = codeActions(a, wholeText(text));
  return a.diagnostics.flatMap((d) => {
    const hint = DID_YOU_MEAN.exec(d.message)?.[1];
    if (!hint || !d.span) return [];
    const action = actions.find((x) => x.fixes && x.fixes.start <= d.span!.start && d.span!.start <= x.fixes.end && x.edits.every((e) => e.newText === hint));
    return [
      {
        message: d.message,
        hint,
        ...(action && {
          after: applyEdits(
            text,
            action.edits.map((e) => ({ ...e.span, newText: e.newText })),
          ),
        }),
      },
    ];
  });
}

describe("ide: quick fixes that are right", () => {
  it("offers only names defined before the use of an undefined name", () => {
    const text = `${HEADER}g (float[2] x) => (float[2] y) {\n  r5 = Relu (x)\n  r11 = Neg (r5x)\n  r50 = Relu (r5)\n  r51 = Relu (r50)\n  y = Add (r51, r11)\n}\n`;
    const titles = codeActions(analyze(text), wholeText(text))
      .map((x) => x.title)
      .filter((t) => t.startsWith("Change"));
    assert.deepEqual(titles, ["Change 'r5x' to 'r5'"]);
    const a = analyze(text);
    const action = codeActions(a, wholeText(text)).find((x) => x.title === "Change 'r5x' to 'r5'")!;
    assert.deepEqual(
      errorsOf(
        applyEdits(
          text,
          action.edits.map((e) => ({ ...e.span, newText: e.newText })),
        ),
      ),
      [],
    );
  });

  it("suggests nothing when the only close names come later", () => {
    const text = `${HEADER}g (float[2] x) => (float[2] y) {\n  r11 = Neg (r5x)\n  r50 = Relu (x)\n  y = Add (r50, r11)\n}\n`;
    assert.deepEqual(
      codeActions(analyze(text), wholeText(text)).filter((x) => x.title.startsWith("Change")),
      [],
    );
  });

  it("offers the op a 'did you mean' names, and applying it leaves no error", () => {
    const text = `${HEADER}g (float[2] x) => (float[2] y) {\n  y = Rleu (x)\n}\n`;
    const [fix] = didYouMeanFixes(text);
    assert.equal(fix?.hint, "Relu");
    assert.ok(fix.after, `no action for: ${fix.message}`);
    assert.deepEqual(errorsOf(fix.after), []);
  });

  it("pairs every 'did you mean' with its action, over the checker's text fixtures", () => {
    const dir = path.join(REPO, "test/semantics/fixtures");
    let hints = 0;
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith(".onnxtxt"))) {
      for (const fix of didYouMeanFixes(fs.readFileSync(path.join(dir, f), "utf8"))) {
        hints++;
        assert.ok(fix.after !== undefined, `${f}: no action for "${fix.message}"`);
      }
    }
    assert.ok(hints >= 1);
  });

  it("names the op as written and says what was given", () => {
    const text = `${HEADER}g (float[1,1,4,4] x, float[1,1,3,3] w, float[1] b) => (float[1,1,2,2] y) {\n  y = Conv <nope: int = 1> (x, w, b, b)\n}\n`;
    const found = errorsOf(text).join("\n");
    assert.match(found, /Conv at opset 18 takes 2 to 3 inputs, but 4 are given \('x', 'w', 'b', 'b'\) \[wrong-arity\]/);
    assert.match(found, /Conv at opset 18 has no attribute 'nope' \(it has auto_pad, dilations, group, kernel_shape, pads, strides\) \[unknown-attribute\]/);
  });

  it("answers from the parse alone exactly when that gives what the full analysis gives (code actions on every cursor move)", () => {
    const dir = path.join(REPO, "test/semantics/fixtures");
    const texts = fs
      .readdirSync(dir)
      .filter((x) => x.endsWith(".onnxtxt"))
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
    texts.push(`${HEADER}g (float[2] x) => (y, z) {\n  y = Rleu (x)\n  z = Neg (r5x)\n  w = com.ms.Gelu (x)\n}\n`);
    let fromParse = 0;
    let needed = 0;
    for (const text of texts) {
      const full = analyze(text);
      const parsed = earlySnapshot(text);
      assert.ok(parsed && !parsed.complete);
      const titles = (a: typeof full, range: { start: number; end: number }) => codeActions(a, range).map((x) => x.title);
      for (let at = 0; at <= text.length; at++) {
        const range = { start: at, end: at };
        // What a client sends as the context: the published diagnostics at the cursor.
        const asked = full.diagnostics.filter((d) => d.span && d.span.start <= at && at <= d.span.end);
        if (codeActionsNeedSemantics(parsed, range, asked)) {
          needed++;
          continue;
        }
        const expected = titles(full, range);
        if (expected.length) fromParse++;
        assert.deepEqual(titles(parsed, range), expected, `at ${at} of:\n${text}`);
      }
    }
    assert.ok(fromParse > 0 && needed > 0, `${fromParse} answered from the parse, ${needed} needing the analysis`);
  });

  it("offers the lint fixes at their diagnostics: remove an unused value_info, declare the proven type", () => {
    const text = `${HEADER}g (float[2, 3] x) => (float[6] y) <float[2] stray> {\n  y = Transpose (x)\n}\n`;
    const a = analyze(text);
    const offered = (code: string) => {
      const d = a.diagnostics.find((x) => x.code === code);
      assert.ok(d?.span, code);
      return codeActions(a, d.span)
        .filter((x) => x.fixes?.start === d.span!.start)
        .map((x) =>
          applyEdits(
            text,
            x.edits.map((e) => ({ ...e.span, newText: e.newText })),
          ),
        );
    };
    assert.deepEqual(offered("unused-value-info"), [text.replace(" <float[2] stray>", "")]);
    assert.deepEqual(offered("declared-type-mismatch"), [text.replace("(float[6] y)", "(float[3, 2] y)")]);
  });

  it("leaves the symbol index unbuilt for a range without names (an editor asks at the top of a file it opens)", () => {
    const text = `${HEADER}g (float[2] x) => (y) {\n  y = Neg (r)\n}\n`;
    const parsed = earlySnapshot(text)!;
    assert.deepEqual(codeActions(parsed, { start: 0, end: 0 }), []);
    assert.equal(builtIndexOf(parsed.ast!), undefined);
    const use = text.indexOf("(r)") + 1;
    assert.deepEqual(
      codeActions(parsed, { start: use, end: use }).map((x) => x.title),
      ["Change 'r' to 'x'"],
    );
    assert.ok(builtIndexOf(parsed.ast!));
  });
});
