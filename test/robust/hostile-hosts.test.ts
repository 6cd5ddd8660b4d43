// Hostile host files (issue #30): unterminated strings and fences, bytes that are not UTF-8,
// a 50 MB Python file with no ONNX, 100k nested brackets inside a parse_model string, 100k lines
// of C++ with no ONNX. Each gets a clear answer: no throw, no hang, every location in the file.
import { strict as assert } from "node:assert";
import { checkEmbedded, findRegions, formatEmbedded, SKIPPED_CODE, type HostLanguage } from "../../core/src/embedded/index.js";
import { hostProblems } from "./harness/host-fuzz.js";

function skippedReasons(text: string, language: HostLanguage): string[] {
  const c = checkEmbedded(text, language);
  assert.deepEqual(hostProblems({ text, language }), []);
  assert.ok(c.diagnostics.every((d) => d.code === SKIPPED_CODE));
  return c.scan.skipped.map((s) => s.reason);
}

describe("hostile host files", () => {
  it("unterminated strings, raw strings, fences and templates are skipped with the reason", () => {
    assert.deepEqual(skippedReasons('from onnx import parser\nparser.parse_model("""\n<ir_version: 8>\ng () => () {}\n', "python"), [
      "the string is not terminated",
    ]);
    assert.deepEqual(skippedReasons("parser.parse_node('y = Relu (x)\nz = 1\n", "python"), ["the string is not terminated"]);
    assert.deepEqual(skippedReasons('auto s = R"ONNX(\ng () => () {}\n', "cpp"), ["the string is not terminated"]);
    assert.deepEqual(skippedReasons('builder.Add("y = Relu (x)\n);\n', "cpp"), ["the string is not terminated"]);
    assert.deepEqual(skippedReasons("text\n~~~onnx\ng () => () {}\n```\n", "markdown"), ["the fence is never closed"]);
    assert.deepEqual(skippedReasons("const m = onnx.graph`g () => () {}\n", "javascript"), ["the template is not terminated"]);
  });

  it("bytes that are not UTF-8 are read as replacement characters, reported where they are", () => {
    const bytes = Buffer.concat([
      Buffer.from('parser.parse_graph("""\ng (float x) => (float y) {\n  y = Relu(x) '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('\n}\n""")\n'),
    ]);
    const text = new TextDecoder("utf-8").decode(bytes);
    assert.ok(text.includes("\uFFFD"));
    const c = checkEmbedded(text, "python");
    assert.deepEqual(hostProblems({ text, language: "python" }), []);
    assert.equal(c.scan.regions.length, 1);
    const errors = c.diagnostics.filter((d) => d.severity === "error");
    assert.ok(errors.length > 0);
    assert.equal(text[errors[0]!.span!.start], "\uFFFD");
    assert.equal(formatEmbedded(text, "python").changed, 0);
  });

  it("a 50 MB Python file with no ONNX in it (but naming parse_model in a comment): no regions", function () {
    this.timeout(60_000);
    const line = 'def f(self, x):\n    return self.call("a string", x[1], {"k": 2})  # a comment\n';
    const text = `# the models are made with onnx.parser.parse_model elsewhere\n${line.repeat(Math.ceil(50e6 / line.length))}`;
    assert.ok(text.length >= 50e6);
    const scan = findRegions(text, "python");
    assert.deepEqual([scan.regions.length, scan.skipped.length], [0, 0]);
  });

  it("100k nested brackets inside a parse_model string: a located syntax error, no stack overflow", () => {
    for (const inner of ["(".repeat(100_000), `g (float x) => (float y) { y = Add${"(".repeat(100_000)}x${")".repeat(100_000)} }`, "{".repeat(100_000)]) {
      const text = `from onnx import parser\nparser.parse_model("""${inner}""")\n`;
      const c = checkEmbedded(text, "python");
      assert.equal(c.scan.regions.length, 1);
      assert.deepEqual(hostProblems({ text, language: "python" }), []);
      const first = c.diagnostics.find((d) => d.severity === "error");
      assert.equal(first?.code, "syntax");
      assert.ok(first.span!.start >= text.indexOf('"""'), "inside the string");
    }
  });

  it("100k lines of C++ with no ONNX (but many .Add calls): no regions", () => {
    const text = '  items.Add("item", i);\n  total = total + 1;  // a comment\n'.repeat(50_000);
    const scan = findRegions(text, "cpp");
    assert.deepEqual([scan.regions.length, scan.skipped.length], [0, 0]);
  });

  it("a 100k-line Markdown file with one unclosed non-ONNX fence: no regions, nothing skipped", () => {
    const text = `\`\`\`python\n${"x = 1\n".repeat(100_000)}`;
    const scan = findRegions(text, "markdown");
    assert.deepEqual([scan.regions.length, scan.skipped.length], [0, 0]);
  });
});
