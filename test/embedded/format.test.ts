// Formatting embedded texts in place: the host's indentation and quotes are kept, a second run
// changes nothing, the result still has the same regions and no diagnostics, and literals that
// cannot take the formatted text unchanged are refused with the reason.
import { strict as assert } from "node:assert";
import { checkEmbedded, findRegions, formatEmbedded, SKIPPED_CODE } from "../../core/src/embedded/index.js";
import { CLEAN, fixture } from "./fixtures.js";

/** The host line holding `needle`. */
function lineOf(text: string, needle: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  return text.slice(text.lastIndexOf("\n", at) + 1, text.indexOf("\n", at));
}

describe("embedded: formatting in place", () => {
  for (const f of CLEAN)
    it(`${f.name}: idempotent; the same regions, kinds and no diagnostics afterwards; outside the regions nothing changes`, () => {
      const once = formatEmbedded(f.text, f.language);
      assert.ok(once.changed > 0);
      const twice = formatEmbedded(once.text, f.language);
      assert.equal(twice.changed, 0);
      assert.equal(twice.text, once.text);
      const before = findRegions(f.text, f.language);
      const after = findRegions(once.text, f.language);
      assert.deepEqual(
        after.regions.map((r) => `${r.kind} ${r.origin}`),
        before.regions.map((r) => `${r.kind} ${r.origin}`),
      );
      assert.deepEqual(
        checkEmbedded(once.text, f.language).diagnostics.filter((d) => d.code !== SKIPPED_CODE),
        [],
      );
      // outside the literals' contents the files are the same
      const outside = (text: string, regions: typeof before.regions): string[] => {
        const out: string[] = [];
        let at = 0;
        for (const r of regions) {
          out.push(text.slice(at, r.literal.content.start));
          at = r.literal.content.end;
        }
        out.push(text.slice(at));
        return out;
      };
      assert.deepEqual(outside(once.text, after.regions), outside(f.text, before.regions));
      // formatting changes white space only: the same text without it
      for (const [i, r] of after.regions.entries()) assert.equal(r.text.replace(/\s+/g, ""), before.regions[i]!.text.replace(/\s+/g, ""));
    });

  it("Python: keeps each string's quotes and prefix, and the indentation of a string inside a method", () => {
    const f = fixture("clean.py", "python");
    const out = formatEmbedded(f.text, "python").text;
    assert.equal(lineOf(out, "y = Log"), "              y = Log (t)", "the string's indentation (12) and the formatter's (2)");
    assert.equal(lineOf(out, "indented ("), "            indented (float[N, 3] x) => (float[N, 3] y) {");
    assert.equal(lineOf(out, "y = Abs"), "  y = Abs (x)");
    assert.ok(out.includes("parser.parse_graph('''\nsingle_quotes"), "''' stays");
    assert.ok(out.includes('P.parse_model(r"""\n<ir_version'), 'r""" stays');
    assert.ok(out.includes('pm("""<ir_version'), "text right after the quotes stays there");
    assert.ok(out.includes('  y = Sigmoid (x)\n}""")'), "text right before the quotes stays there");
    assert.equal(lineOf(out, "out = Add"), "    out = Add (t, bias)", "a marker's string keeps its indentation");
    assert.ok(out.includes('parser.parse_node("y = Add (a, b)")'));
  });

  it("Python: refuses escaped strings, joined pieces and a one-line string that would need line breaks, with the reason", () => {
    const f = fixture("clean.py", "python");
    const r = formatEmbedded(f.text, "python");
    const refused = r.refused.map((x) => [x.region.text.match(/\w+ \(/)?.[0] ?? x.region.text, x.reason]);
    const escapes = "the string has escapes or is made of several pieces; formatting it would rewrite them";
    assert.deepEqual(refused, [
      ["dedented (", escapes],
      ["escaped (", escapes],
      ["continued (", escapes],
      ["fstring_no_fields (", escapes],
      ["implicit (", escapes],
      ["one_line (", "the formatted text needs line breaks, which this string cannot hold"],
    ]);
    // and left them exactly as written
    for (const needle of [
      '"<ir_version: 8, opset_import: [\\"\\" : 18]>\\nescaped',
      "{ y = Ceil(x) }",
      '"one_line (float[2] x) => (float[2] y) { y = Relu(x) }"',
    ])
      assert.ok(r.text.includes(needle), needle);
  });

  it("C++: raw strings keep their delimiters and the FunctionBody's indentation; escaped ordinary strings are refused", () => {
    const f = fixture("clean.cc", "cpp");
    const r = formatEmbedded(f.text, "cpp");
    assert.equal(lineOf(r.text, "One = Constant"), "              One = Constant <value = float {1.0}> ()");
    assert.equal(lineOf(r.text, "y = Sigmoid"), "      y = Sigmoid (x)");
    assert.ok(r.text.includes('R"onnx(\nlower_delim'));
    assert.ok(r.text.includes('.Add(R"(Z = Max (X, ZeroCast))")'));
    assert.deepEqual(
      r.refused.map((x) => x.region.text),
      ["Tabbed = Mul (X,\tZeroCast)", "A = Identity (X)"],
    );
  });

  it("Markdown: an indented fence keeps its indentation on every line", () => {
    const f = fixture("clean.md", "markdown");
    const out = formatEmbedded(f.text, "markdown").text;
    assert.ok(out.includes("   ```onnx-text nodes\n   t = Mul (x, scale)\n   out = Add (t, bias)\n   ```\n"), out);
    assert.equal(lineOf(out, "y = Neg"), "  y = Neg (x)");
  });

  it("JavaScript: a one-line template that would need line breaks is refused", () => {
    const f = fixture("templates.mjs", "javascript");
    const r = formatEmbedded(f.text, "javascript");
    assert.deepEqual(
      r.refused.map((x) => x.reason),
      ["the text is on one line of its literal; formatting it would need line breaks"],
    );
    assert.ok(r.text.includes("onnx.graph`tagged_graph (float[N] x) => (float[N] y) { y = Abs(x) }`"));
  });

  it("a text with errors is refused with its diagnostics in host offsets", () => {
    const host = 'parser.parse_graph("""\ng (float x) => (float y) {\n  y = Relu(x\n}\n""")\n';
    const r = formatEmbedded(host, "python");
    assert.equal(r.changed, 0);
    assert.equal(r.text, host);
    assert.equal(r.refused[0]?.reason, "the text has errors");
    const d = r.refused[0]!.diagnostics[0]!;
    assert.ok(d.span && d.span.start > host.indexOf("Relu") && d.span.start <= host.lastIndexOf('"""'), JSON.stringify(d));
  });
});
