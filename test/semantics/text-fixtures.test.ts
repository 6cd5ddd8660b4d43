// Text fixtures: each `# error: CODE` / `# warning: CODE` comment marks a line where the checker
// must report that code, and `# related: CODE` a line its related place must be on; a fixture
// without markers must check clean. Every diagnostic must carry a range, and nothing may be
// reported on unmarked lines.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LineIndex } from "../../grammar/src/line-index.js";
import { checkModel, CHECK_CODES } from "../../core/src/check/index.js";
import { encodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";
import { model, node } from "./build.js";

const DIR = path.join(REPO, "test/semantics/fixtures");

function expectedMarks(text: string): string[] {
  const marks: string[] = [];
  text.split("\n").forEach((line, i) => {
    const comment = line.indexOf("#");
    if (comment < 0) return;
    for (const m of line.slice(comment).matchAll(/(error|warning|related): ([a-z0-9-]+)/g)) marks.push(`${i + 1} ${m[1]} ${m[2]}`);
  });
  return marks.sort();
}

describe("checker on text fixtures", () => {
  const files = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith(".onnxtxt"))
    .sort();

  for (const file of files) {
    it(file, () => {
      const text = fs.readFileSync(path.join(DIR, file), "utf8");
      const parsed = modelFromText(text);
      assert.deepEqual(parsed.diagnostics, [], "the fixture must parse");
      const diags = checkModel(parsed.model!, { sourceMap: parsed.sourceMap });
      const index = new LineIndex(text);
      for (const d of diags) assert.ok(d.span, `no range for ${d.code}: ${d.message}`);
      const line = (at: number): string => index.lineCol(at).split(":")[0]!;
      const got = diags
        .flatMap((d) => [`${line(d.span!.start)} ${d.severity} ${d.code}`, ...(d.related ?? []).map((r) => `${line(r.span.start)} related ${d.code}`)])
        .sort();
      assert.deepEqual(got, expectedMarks(text));
    });
  }

  it("cover every error code that text can express", () => {
    const marked = new Set(files.flatMap((f) => expectedMarks(fs.readFileSync(path.join(DIR, f), "utf8")).map((m) => m.split(" ")[2])));
    // These two need a model the text syntax cannot write (no graph; one domain imported twice);
    // in text, a tensor that does not fill its shape is already a lowering error (no model is made).
    const binaryOnly = new Set(["missing-graph", "duplicate-opset-import", "element-count"]);
    const missing = Object.keys(CHECK_CODES).filter((c) => !marked.has(c) && !binaryOnly.has(c));
    assert.deepEqual(missing, []);
  });

  it("onnxtxt check prints FILE:LINE:COL lines and exits 1 on errors, 0 on a clean file", () => {
    const bad = runCli(["check", path.join(DIR, "type-mismatch.onnxtxt")]);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /type-mismatch\.onnxtxt:4:15: error: Add needs inputs 0 and 1 to have the same type T, but 'h' is float\[2\] and 'n' is int64\[2\] \[type-mismatch\]\n$/,
    );
    const typo = runCli(["check", path.join(DIR, "unknown-op.onnxtxt")]);
    assert.match(typo.stderr, /unknown-op\.onnxtxt:3:7: error: ai\.onnx has no operator 'Rleu'; did you mean 'Relu'\? \[unknown-op\]/);
    // A contradicted declaration is reported where it is written; the producing node follows as a note.
    const declared = runCli(["check", path.join(DIR, "declared-type-mismatch.onnxtxt")]);
    assert.match(
      declared.stderr,
      /declared-type-mismatch\.onnxtxt:2:22: error: 'y' is declared as float\[3,3\] but the operator produces float\[2,3\] \(dimension 0 is 2, not 3\) \[declared-type-mismatch\]\n.*declared-type-mismatch\.onnxtxt:3:3: note: 'y' is produced here by Relu\n/,
    );
    const json = JSON.parse(runCli(["check", "--format", "json", path.join(DIR, "declared-type-mismatch.onnxtxt")]).stdout) as { related?: unknown }[];
    assert.deepEqual(json[0]?.related, [{ message: "'y' is produced here by Relu", line: 3, column: 3, endLine: 3, endColumn: 4 }]);
    const good = runCli(["check", path.join(DIR, "valid-shapes.onnxtxt")]);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(good.stderr, "");
  });

  it("onnxtxt check reports binary models as FILE: error: WHERE: MESSAGE [code]", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-check-"));
    try {
      const file = path.join(dir, "bad.onnx");
      fs.writeFileSync(
        file,
        encodeModel(model({ inputs: ["x: float[2]", "n: int64[2]"], outputs: ["y"], nodes: [node("Add", ["x", "n"], ["y"], {}, { name: "add" })] })),
      );
      const r = runCli(["check", file]);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `${file}: error: graph 'g' > node 'add' (Add): Add needs inputs 0 and 1 to have the same type T, but 'x' is float[2] and 'n' is int64[2] [type-mismatch]\n`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
