// Which texts the finders report in each host fixture: how many, of which kind, recognised by
// what, with which context; and the texts made at run time, skipped with their reasons.
import { strict as assert } from "node:assert";
import { checkEmbedded, findRegions, SKIPPED_CODE, type EmbeddedRegion } from "../../core/src/embedded/index.js";
import { fixture } from "./fixtures.js";

/** `kind origin` per region, in file order. */
function summary(regions: readonly EmbeddedRegion[]): string[] {
  return regions.map((r) => `${r.kind} ${r.origin}`);
}

/** The region whose host text holds `needle`. */
function regionWith(host: string, regions: readonly EmbeddedRegion[], needle: string): EmbeddedRegion {
  const at = host.indexOf(needle);
  assert.ok(at >= 0, needle);
  const r = regions.find((x) => x.literal.content.start <= at && at < x.literal.content.end);
  assert.ok(r, `no region holds ${needle}`);
  return r;
}

describe("embedded: regions found in each host", () => {
  it("Python: every call under every alias, names, dedent, escapes, f-strings, pieces and markers", () => {
    const f = fixture("clean.py", "python");
    const scan = findRegions(f.text, "python");
    assert.deepEqual(summary(scan.regions), [
      "model parse_model", // onnx.parser.parse_model
      "graph parse_graph", // parser.parse_graph (from onnx import parser), '''
      "model parse_model", // P.parse_model, r"""
      "model parse_model", // pm = parse_model
      "graph parse_graph", // pg(GRAPH_TEXT)
      "graph parse_graph", // parse_graph(ANNOTATED)
      "model parse_model", // indented in a method
      "model parse_model", // textwrap.dedent
      "model parse_model", // escapes
      "graph parse_graph", // line continuation
      "graph parse_graph", // f-string without fields
      "graph parse_graph", // implicit concatenation
      "model from_onnx_text",
      "model from_onnx_text",
      "node parse_node",
      "graph parse_graph", // one line
      "function parse_function",
      "nodes # onnxtxt: nodes",
      "nodes # onnxtxt: nodes",
    ]);
    assert.deepEqual(scan.skipped, []);
    assert.deepEqual(
      scan.regions.map((r) => r.index),
      scan.regions.map((_, i) => i),
    );
    // what was decoded
    assert.match(
      regionWith(f.text, scan.regions, "escaped (").text,
      /^<ir_version: 8, opset_import: \["" : 18\]>\nescaped \(float\[2\] A\) => \(float\[2\] y\) \{\n\ty = Floor\(A\)\n\}$/,
    );
    assert.equal(regionWith(f.text, scan.regions, "continued (").text, "continued (float[2] x) => (float[2] y) { y = Ceil(x) }");
    assert.match(regionWith(f.text, scan.regions, "fstring_no_fields").text, /y\) \{\n {4}y = Reciprocal\(x\)\n\}\n$/);
    assert.equal(regionWith(f.text, scan.regions, "implicit (").text, "implicit (float[2] x) => (float[2] y) { y = Sign(x) }");
    assert.match(regionWith(f.text, scan.regions, "dedented (").text, /^ {16}<ir_version/, "the line continuation after the quotes is dropped");
    assert.match(regionWith(f.text, scan.regions, "backslash").text, /backslash \\n that/, "a raw string keeps its backslashes");
    assert.equal(regionWith(f.text, scan.regions, "@alpha").kindSource, "marker");
    assert.equal(regionWith(f.text, scan.regions, "plain (").kindSource, "call");
  });

  it("Python: texts made at run time are skipped with the reason, never read", () => {
    const f = fixture("skipped.py", "python");
    const scan = findRegions(f.text, "python");
    assert.deepEqual(scan.regions, []);
    assert.deepEqual(
      scan.skipped.map((s) => s.reason),
      [
        "an f-string with fields: its text is made at run time",
        "a % template: its text is made at run time",
        "a .format template: its text is made at run time",
        "the string is concatenated at run time",
        "the string is not terminated",
      ],
    );
    // each skipped span starts at its literal
    for (const [s, start] of scan.skipped.map((s, i) => [s, ['f"""\n<ir_version', '"""\npercent', '"""\nformatted', '"plus', '"y = Relu'][i]!] as const))
      assert.ok(f.text.startsWith(start, s.span.start), start);
    const check = checkEmbedded(f.text, "python");
    assert.deepEqual(
      check.diagnostics.map((d) => `${d.severity} ${d.code}`),
      Array(5).fill(`info ${SKIPPED_CODE}`),
    );
  });

  it("C++: raw strings, FunctionBody with its opset, FunctionBuilder.Add and OnnxParser(variable)", () => {
    const f = fixture("clean.cc", "cpp");
    const scan = findRegions(f.text, "cpp");
    assert.deepEqual(summary(scan.regions), [
      'model R"ONNX(',
      'graph R"onnx(',
      "nodes FunctionBody",
      "nodes FunctionBody",
      "nodes FunctionBuilder.Add",
      "nodes FunctionBuilder.Add",
      "nodes FunctionBuilder.Add",
      "nodes FunctionBuilder.Add",
      "nodes FunctionBuilder.Add",
      "nodes FunctionBuilder.Add",
      "model OnnxParser",
    ]);
    assert.deepEqual(scan.skipped, []);
    assert.deepEqual(regionWith(f.text, scan.regions, "OneAddAbsInput").context, { opset: 13 }, "the schema's version");
    assert.deepEqual(regionWith(f.text, scan.regions, "Neg1").context, { opset: 18 }, "the explicit version");
    assert.deepEqual(regionWith(f.text, scan.regions, "Y64 =").context, { attributesFromOutside: true });
    assert.deepEqual(regionWith(f.text, scan.regions, "ZeroCast = ").context, {});
    assert.equal(regionWith(f.text, scan.regions, "Tabbed").text, "Tabbed = Mul (X,\tZeroCast)");
    assert.equal(regionWith(f.text, scan.regions, "Identity").text, "A = Identity (X)");
    assert.equal(regionWith(f.text, scan.regions, "Z = Max").text, "Z = Max (X, ZeroCast)");
    assert.match(regionWith(f.text, scan.regions, "from_variable").text, /^\n {4}<ir_version/);
  });

  it("C++: + concatenation and an unterminated raw string are skipped with the reason", () => {
    const f = fixture("skipped.cc", "cpp");
    const scan = findRegions(f.text, "cpp");
    assert.deepEqual(scan.regions, []);
    assert.deepEqual(
      scan.skipped.map((s) => [f.text.slice(s.span.start, s.span.start + 7), s.reason]),
      [
        ['"Y = " ', "the string is concatenated at run time"],
        ['R"ONNX(', "the string is concatenated at run time"],
        ['R"ONNX(', "the string is not terminated"],
      ],
    );
  });

  it("Markdown: ``` and ~~~ fences, indented, onnx/onnxtxt/onnx-text with a kind word; other fences are not ONNX", () => {
    const f = fixture("clean.md", "markdown");
    const scan = findRegions(f.text, "markdown");
    assert.deepEqual(
      scan.regions.map((r) => `${r.kind} ${r.kindSource} ${r.origin}`),
      ["model content ```onnx", "graph fence ```onnxtxt", "nodes fence ```onnx-text", "function fence ```onnx"],
    );
    assert.equal(regionWith(f.text, scan.regions, "out = Add").text, "t = Mul (x, scale)\nout = Add (t, bias)\n", "the fence's indentation is removed");
    assert.ok(!scan.regions.some((r) => r.text.includes("parse_model")), "the python fence is no region");
    assert.deepEqual(scan.skipped, []);
  });

  it("Markdown: an unclosed fence is skipped, not read to the end of the file", () => {
    const f = fixture("skipped.md", "markdown");
    const scan = findRegions(f.text, "markdown");
    assert.deepEqual(scan.regions, []);
    assert.deepEqual(
      scan.skipped.map((s) => [s.reason, f.text.slice(s.span.start, s.span.start + 7)]),
      [["the fence is never closed", "```onnx"]],
    );
  });

  it("JavaScript: onnx`` templates by tag; ${} holes skipped; a tag in a comment is no region", () => {
    const f = fixture("templates.mjs", "javascript");
    const scan = findRegions(f.text, "javascript");
    assert.deepEqual(
      scan.regions.map((r) => `${r.kind} ${r.kindSource} ${r.origin}`),
      ["model call onnx`", "graph call onnx.graph`", "nodes call onnx.nodes`"],
    );
    assert.deepEqual(
      scan.skipped.map((s) => s.reason),
      ["a template with ${...} holes: its text is made at run time"],
    );
  });
});
