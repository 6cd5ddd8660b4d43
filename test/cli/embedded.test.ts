// The CLI on host files: check, format, print --region and graph --region on Python, C++ and
// Markdown files, with positions counted in the host file by the test itself.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { FIXTURES } from "../embedded/fixtures.js";

const PY = `import onnx


class T:
    def test_relu(self):
        model = onnx.parser.parse_model(
            """
            <ir_version: 8, opset_import: ["" : 18]>
            agraph (float[N, 4] X) => (float[N, 4] Y)
            {
                T = Relu(X)
                Y = Sigmoidd(T)
            }
            """
        )
`;

/** FILE:LINE:COL of the first `needle` in `text`. */
function place(file: string, text: string, needle: string): string {
  const before = text.slice(0, text.indexOf(needle)).split("\n");
  return `${file}:${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe("CLI on Python, C++ and Markdown files", () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-cli-embedded-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("check reports a misspelt op at its line and column in the host file, exit 1, in text, JSON and SARIF", () => {
    const file = path.join(dir, "test_relu.py");
    fs.writeFileSync(file, PY);
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `${place(file, PY, "Sigmoidd")}: error: ai.onnx has no operator 'Sigmoidd'; did you mean 'Sigmoid'? [unknown-op]\n`);
    const json = runCli(["check", "--format", "json", file]);
    const items = JSON.parse(json.stdout) as { line: number; column: number; code: string }[];
    assert.deepEqual(
      items.map((d) => `${file}:${d.line}:${d.column}`),
      [place(file, PY, "Sigmoidd")],
    );
    const sarif = JSON.parse(runCli(["check", "--format", "sarif", file]).stdout) as { runs: { results: { ruleId: string }[] }[] };
    assert.deepEqual(
      sarif.runs[0]!.results.map((x) => x.ruleId),
      ["unknown-op"],
    );
  });

  it("check is silent with exit 0 on the clean fixtures of every host", () => {
    const files = ["clean.py", "clean.cc", "clean.md", "templates.mjs"].map((f) => path.join(FIXTURES, f));
    const r = runCli(["check", "--severity", "error", ...files]);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 0);
  });

  it("format --check names a file whose text is not formatted; --write formats the string and nothing else", () => {
    const file = path.join(dir, "fmt.py");
    const fixed = PY.replace("Sigmoidd", "Sigmoid");
    fs.writeFileSync(file, fixed);
    const check = runCli(["format", "--check", file]);
    assert.equal(check.code, 1);
    assert.match(check.stderr, /fmt\.py: not formatted \(1 ONNX text\)/);
    assert.equal(runCli(["format", "--write", file]).code, 0);
    const written = fs.readFileSync(file, "utf8");
    assert.ok(
      written.includes("            agraph (float[N, 4] X) => (float[N, 4] Y) {\n              T = Relu (X)\n              Y = Sigmoid (T)\n            }\n"),
      written,
    );
    const outside = (t: string) => [t.slice(0, t.indexOf('"""')), t.slice(t.lastIndexOf('"""'))];
    assert.deepEqual(outside(written), outside(fixed));
    assert.equal(runCli(["format", "--check", file]).code, 0);
  });

  it("format --write leaves a file with an erroneous text untouched, exit 1", () => {
    const file = path.join(dir, "broken.py");
    const broken = PY.replace("T = Relu(X)", "T = Relu(X");
    fs.writeFileSync(file, broken);
    const r = runCli(["format", "--write", file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken\.py:\d+:\d+: error: /);
    assert.equal(fs.readFileSync(file, "utf8"), broken);
  });

  it("print --region prints a C++ function body as the model it is read in, at its schema's opset", () => {
    const file = path.join(dir, "defs.cc");
    fs.writeFileSync(
      file,
      `ONNX_OPERATOR_SET_SCHEMA(Shrinkish, 13, OpSchema()
    .FunctionBody(R"ONNX(
      {
        Lambd = Constant <value_float: float = @lambd>()
        output = Sub (input, Lambd)
      }
    )ONNX"));
`,
    );
    const r = runCli(["print", "--region", "1", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /opset_import: \["" : 13\]>\nembedded_body <lambd> \(input\) => \(output\) \{\n {2}Lambd = Constant <value_float: float = @lambd> \(\)\n {2}output = Sub \(input, Lambd\)\n\}/,
    );
    const missing = runCli(["print", "--region", "2", file]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /there is no region 2: the file has 1 ONNX text:\n {2}1: line 2, nodes \(FunctionBody\)/);
  });

  it("graph --region draws a Markdown fence's graph", () => {
    const r = runCli(["graph", "--region", "1", "--format", "json", path.join(FIXTURES, "clean.md")]);
    assert.equal(r.code, 0, r.stderr);
    const graph = (JSON.parse(r.stdout) as { graph: { nodes: { kind: string; label: string }[] } }).graph;
    // the first fence: x -> Relu -> y
    assert.deepEqual(
      graph.nodes.map((n) => [n.kind, n.label]),
      [
        ["input", "x"],
        ["op", "Relu"],
        ["output", "y"],
      ],
    );
  });
});
