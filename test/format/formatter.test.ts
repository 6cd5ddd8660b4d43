// The formatter: golden pairs, idempotence, every comment kept, the model never changed, and
// the official printer's output (plus comments injected on every line) as a large messy corpus.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseModel } from "../../grammar/src/index.js";
import { encodeModel } from "../../core/src/io/index.js";
import { formatText } from "../../core/src/print/format.js";
import { modelFromText } from "../../core/src/text.js";
import { PRINTED, REPO, requireDir } from "../helpers/paths.js";

const CASES = path.join(REPO, "test/format/cases");

function format(text: string): string {
  const r = formatText(text);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
  return r.text;
}

function commentTexts(text: string): string[] {
  return parseModel(text)
    .comments.map((c) => c.text.trim())
    .sort();
}

function modelBytes(text: string): Buffer | undefined {
  const m = modelFromText(text).model;
  return m && Buffer.from(encodeModel(m));
}

/** The formatter's promises for one input. */
function checkFormatting(input: string, label: string): string {
  const out = format(input);
  assert.equal(format(out), out, `${label}: formatting is not idempotent`);
  assert.deepEqual(commentTexts(out), commentTexts(input), `${label}: comments changed`);
  const before = modelBytes(input);
  if (before) assert.ok(before.equals(modelBytes(out) ?? Buffer.alloc(0)), `${label}: the model changed`);
  return out;
}

/** Adds an end-of-line comment to every line and an own-line comment before every other line. */
function sprinkleComments(text: string): string {
  return text
    .split("\n")
    .map((line, i) => (i % 2 ? `# own ${i}\n` : "") + (line.trim() ? `${line} # eol ${i}` : line))
    .join("\n");
}

describe("formatter", function () {
  this.timeout(300_000);

  it("turns each golden input into its expected output", () => {
    const inputs = fs.readdirSync(CASES).filter((f) => f.endsWith(".in.onnxtxt"));
    assert.ok(inputs.length >= 4);
    for (const f of inputs) {
      const input = fs.readFileSync(path.join(CASES, f), "utf8");
      const expected = fs.readFileSync(path.join(CASES, f.replace(".in.", ".out.")), "utf8");
      assert.equal(checkFormatting(input, f), expected, f);
    }
  });

  it("keeps comments, blank lines between nodes and numbers as written", () => {
    const input =
      '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) <float[2] w = {1.50, 2e0}> {\n  a = Add(x, w) # sum\n\n\n  # scale\n  y = Mul(a, w)\n}\n';
    const out = checkFormatting(input, "inline");
    assert.match(out, /\{1\.50, 2e0\}/);
    assert.match(out, /a = Add \(x, w\) # sum\n\n  # scale\n  y = Mul \(a, w\)\n/);
  });

  it("refuses text with syntax errors", () => {
    const r = formatText("g (x) => (y) {\n  y = Relu(x\n}\n");
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.diagnostics.length > 0 && r.diagnostics[0]!.span !== undefined);
  });

  it("formats the official printer's output of every node test, with comments on every line", () => {
    const dir = requireDir(PRINTED, "test/data/onnx/printed.tar.xz");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".onnxtxt"));
    assert.equal(files.length, 1884);
    let sprinkled = 0;
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
      checkFormatting(text, f);
      const messy = sprinkleComments(text);
      // A comment inside a multi-line string would change it; such texts no longer parse the same.
      if (!modelBytes(messy)?.equals(modelBytes(text) ?? Buffer.alloc(0))) continue;
      checkFormatting(messy, `${f} with comments`);
      sprinkled++;
    }
    assert.ok(sprinkled > 1800, `only ${sprinkled} texts took comments`);
  });
});
