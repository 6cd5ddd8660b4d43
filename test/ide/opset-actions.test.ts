// Opset conversion in the editor (issue #31 item 2): the fix for a node of an op removed at the
// imported opset rewrites that node alone (the result checks clean and computes what the op did
// at the opset before), and "Convert model to opset N" keeps comments and says what cannot move.
import * as assert from "node:assert/strict";
import { analyze } from "../../core/src/ide/analyze.js";
import { codeActions } from "../../core/src/ide/code-actions.js";
import { runSync } from "../helpers/run-sync.js";
import { compareValues } from "../../core/src/interp/index.js";
import { modelFromText } from "../../core/src/text.js";
import { applyEdits } from "../helpers/markers.js";

/** A light upsampling network written for opset 9: conv, Upsample, conv. */
const UPSAMPLER = `<ir_version: 4, opset_import: ["" : 9]>
upsampler (float[1, 1, 4, 4] x) => (float[1, 1, 8, 8] y) <
  float[1, 1, 3, 3] k1 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
  float[1, 1, 3, 3] k2 = {1, 2, 1, 2, 4, 2, 1, 2, 1},
  float[4] scales = {1, 1, 2, 2}
> {
  # edges first
  e = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, k1)
  a = Relu (e)
  u = Upsample <mode = "nearest"> (a, scales)   # doubled
  y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (u, k2)
}
`;

/** onnx's node test test_scatter_with_axis (opset 10), as printed. */
const SCATTER = `<
   ir_version: 5,
   opset_import: ["" : 10],
   producer_name: "backend-test"
>
test_scatter_with_axis (float[1,5] data, int64[1,2] indices, float[1,2] updates) => (float[1,5] y) {
   y = Scatter <axis: int = 1> (data, indices, updates)
}
`;

const whole = (text: string) => ({ start: 0, end: text.length });

function errorsOf(text: string): string[] {
  return analyze(text)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => `${d.message} [${d.code}]`);
}

function outputsMatch(before: string, after: string): void {
  const m0 = modelFromText(before).model!;
  const m1 = modelFromText(after).model!;
  const want = runSync(m0, {}, { seed: 3 });
  const got = runSync(m1, {}, { seed: 3 });
  for (const [name, v] of want) assert.equal(compareValues(got.get(name), v, { rtol: 1e-6, atol: 1e-7 }), undefined, name);
}

/** `text` at the opset just after the op's removal, the fix applied: the text it leaves. */
function fixRemoved(text: string, from: string, to: string, title: string): string {
  const removed = text.replace(from, to);
  const a = analyze(removed);
  const d = a.diagnostics.find((x) => x.code === "op-not-in-opset");
  assert.ok(d?.span, "the removed op is reported");
  const fixes = codeActions(a, d.span).filter((x) => x.fixes === d.span);
  assert.deepEqual(
    fixes.map((x) => x.title),
    [title],
  );
  return applyEdits(
    removed,
    fixes[0]!.edits.map((e) => ({ ...e.span, newText: e.newText })),
  );
}

describe("ide: opset conversion actions", () => {
  it("reports Upsample at opset 10 on its op, and converts that node alone to Resize", () => {
    const removed = UPSAMPLER.replace('"" : 9', '"" : 10');
    const d = analyze(removed).diagnostics.filter((x) => x.code === "op-not-in-opset");
    assert.equal(d.length, 1);
    assert.equal(removed.slice(d[0]!.span!.start, d[0]!.span!.end), "Upsample");
    assert.equal(d[0]!.severity, "error"); // as onnx's checker: a deprecated op is refused
    const fixed = fixRemoved(UPSAMPLER, '"" : 9', '"" : 10', "Convert this Upsample node to Resize");
    assert.deepEqual(errorsOf(fixed), []);
    assert.match(fixed, /u = Resize <mode = "nearest"> \(a, scales\)/);
    // Only that statement changed: the comments and the other nodes are as written.
    assert.ok(fixed.includes("  # edges first\n  e = Conv"));
    assert.ok(fixed.includes("# doubled"));
    outputsMatch(UPSAMPLER, fixed);
  });

  it("converts onnx's Scatter node test at opset 11 to ScatterElements", () => {
    const fixed = fixRemoved(SCATTER, '"" : 10', '"" : 11', "Convert this Scatter node to ScatterElements");
    assert.deepEqual(errorsOf(fixed), []);
    outputsMatch(SCATTER, fixed);
  });

  it("offers no removed-op fix for an op that is only too new (raising the opset fixes that)", () => {
    const text = `<ir_version: 8, opset_import: ["" : 12]>\ng (float[2] x) => (float[2] y) {\n  y = Gelu (x)\n}\n`;
    const titles = codeActions(analyze(text), whole(text)).map((x) => x.title);
    assert.ok(!titles.some((t) => t.startsWith("Convert this")), titles.join(", "));
  });

  it("offers model conversions on opset_import, whose edits keep comments and run the same", () => {
    const a = analyze(UPSAMPLER);
    const at = UPSAMPLER.indexOf('"" : 9') + 5;
    const actions = codeActions(a, { start: at, end: at }).filter((x) => x.kind === "refactor.rewrite");
    const titles = actions.map((x) => x.title);
    assert.ok(titles.includes("Convert model to opset 10"), titles.join(", "));
    assert.ok(titles.includes("Convert model to opset 8"), titles.join(", "));
    assert.ok(
      titles.some((t) => /^Convert model to opset 2\d$/.test(t)),
      titles.join(", "),
    );
    for (const action of actions) {
      assert.equal(action.disabled, undefined, action.title);
      const after = applyEdits(
        UPSAMPLER,
        action.edits.map((e) => ({ ...e.span, newText: e.newText })),
      );
      assert.deepEqual(errorsOf(after), [], action.title);
      assert.ok(after.includes("# edges first") && after.includes("# doubled"), action.title);
      outputsMatch(UPSAMPLER, after);
    }
    // Not on a node nor at the top of the file (asked on opening it): converting the model is
    // asked for where its opset is written.
    for (const elsewhere of [0, UPSAMPLER.indexOf("a = Relu")])
      assert.deepEqual(
        codeActions(a, { start: elsewhere, end: elsewhere }).filter((x) => x.kind === "refactor.rewrite"),
        [],
      );
  });

  it("disables a model conversion that would leave nodes behind, saying how many and why", () => {
    const text = `<ir_version: 8, opset_import: ["" : 16]>\n# grid\ng (float[1,1,2,2] x, float[1,2,2,2] grid) => (float[1,1,2,2] y) {\n  y = GridSample (x, grid)\n}\n`;
    const a = analyze(text);
    const down = codeActions(a, { start: 20, end: 20 }).find((x) => x.title.startsWith("Convert model to opset 15"));
    assert.ok(down);
    assert.equal(down.title, "Convert model to opset 15 (1 node cannot convert)");
    assert.match(down.disabled ?? "", /GridSample first appears at opset 16/);
    assert.deepEqual(down.edits, []);
  });
});
