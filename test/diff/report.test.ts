// The text report of `onnxtxt diff` (cli/src/diff-report.ts): plain when piped; on a terminal
// coloured marks, with the model's own control characters escaped so that only our escapes
// reach the terminal.
import { strict as assert } from "node:assert";
import { diffReport } from "../../cli/src/diff-report.js";
import { diffModels, modelFromText, type DiffSide } from "../../core/src/index.js";

const side = (text: string): DiffSide => {
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("\n"));
  return { model: r.model, text, sourceMap: r.sourceMap };
};

const A = `<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n  a = Relu (x)\n  y = Abs (a)\n}\n`;
// a value whose name holds a terminal escape (retitling the window) and a node added
const B = `<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n  "a\x1b]0;pwned\x07" = Relu (x)\n  n = Neg ("a\x1b]0;pwned\x07")\n  y = Abs (n)\n}\n`;

describe("onnxtxt diff: the text report", () => {
  const d = diffModels(side(A), side(B));

  it("plain: marks, places and a summary line, no escapes of ours", () => {
    const text = diffReport(d, { a: "a.onnxtxt", b: "b.onnxtxt" }, false);
    assert.ok(!text.includes("\x1b["));
    assert.ok(text.includes("> value a renamed to a\x1b]0;pwned\x07  a.onnxtxt:3:3  b.onnxtxt:3:3\n"), text);
    assert.match(text, /^\+ node added: n = Neg \(.*\) \(inserted before Abs\)\n {4}b\.onnxtxt:4:3$/m);
    assert.match(text, /^2 changes: 1 added, 1 renamed\n$/m);
  });

  it("coloured: our escapes only; the model's escape is shown as text", () => {
    const text = diffReport(d, { a: "a.onnxtxt", b: "b.onnxtxt" }, true);
    assert.ok(text.includes("\x1b[32m+ node added"), text);
    assert.ok(text.includes("\x1b[36m>\x1b[0m value a renamed"), text);
    assert.ok(!text.includes("\x1b]0;") && !text.includes("\x07"), text);
    assert.match(text, /a\\x1b\]0;pwned\\x07/);
  });

  it("equal models: nothing", () => {
    assert.equal(diffReport(diffModels(side(A), side(A)), { a: "a", b: "b" }, true), "");
  });
});
