// Syntax errors: one message per broken statement, each on its own line, in plain words, and
// parsing goes on with the next statement. A parse never throws.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { LineIndex, MAX_NESTING, parseModel, type Diagnostic } from "../../grammar/src/index.js";
import { PRINTED } from "../helpers/paths.js";

function where(text: string, diags: readonly Diagnostic[]): string[] {
  const index = new LineIndex(text);
  return diags.map((d) => `${index.lineCol(d.span!.start)} ${d.message}`);
}

describe("parser: error recovery and messages", () => {
  it("reports three errors in three statements, each on its line, and keeps the rest", () => {
    const text = `<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) {
  a = Relu (x
  b = Add (a a)
  c = Mul <alpha = > (b, b)
  y = Identity (c)
}`;
    const r = parseModel(text);
    assert.deepEqual(where(text, r.diagnostics), [
      "3:14 expected ',' or ')' after an input name, found 'b' on line 4",
      "4:14 expected ',' or ')' after an input name, found 'a'",
      "5:20 expected an attribute value (a number, a string, a type, a tensor, a graph, '@name' or a '[...]' list), found '>'",
    ]);
    assert.ok(r.diagnostics.every((d) => d.code === "syntax" && d.severity === "error"));
    const nodes = r.ast!.graph!.body!.nodes;
    assert.deepEqual(
      nodes.map((n) => n.op?.opType?.value),
      ["Relu", "Add", "Mul", "Identity"],
      "broken nodes keep what was read",
    );
  });

  const cases: [string, string, string[]][] = [
    ["missing '}'", "g (x) => (y) {\n  y = Relu (x)\n", ["2:15 expected '}' to close the graph body opened on line 1, found the end of the input"]],
    [
      "trailing comma in a header",
      "<ir_version: 7,> g () => () {}",
      [
        "1:16 expected a model header key (ir_version, opset_import, producer_name, producer_version, domain, model_version, doc_string, metadata_props), found '>'",
      ],
    ],
    [
      "empty header",
      "<> g () => () {}",
      [
        "1:2 expected a model header key (ir_version, opset_import, producer_name, producer_version, domain, model_version, doc_string, metadata_props), found '>'",
      ],
    ],
    ["string for an int key", '<ir_version: "7"> g () => () {}', ["1:14 expected an integer for 'ir_version', found the string \"7\""]],
    ["single quotes", "<opset_import: ['' : 15]> g () => () {}", ['1:17 unexpected character "\'" (strings are written in double quotes)']],
    ["a semicolon", "g (x) => (y) {\n  y = Relu(x);\n}", ["2:14 unexpected character ';'"]],
    ["a leading plus", "g (x) => (y) {\n  y = Op <a = +1> (x)\n}", ["2:15 unexpected character '+'"]],
    [
      "untyped tensor data",
      "g (x) => (y) {\n  y = Op <a = {1}> (x)\n}",
      ["2:15 expected an attribute value; tensor data needs its type first, e.g. float[2] {1, 2}, found a list of numbers"],
    ],
    ["empty attribute list", "g (x) => (y) {\n  y = Op <> (x)\n}", ["2:11 expected an attribute name, found '>'"]],
    [
      "unknown attribute type",
      "g (x) => (y) {\n  y = Op <a: foo = 1> (x)\n}",
      [
        "2:14 expected an attribute type (float, int, string, tensor, graph, floats, ints, strings, tensors, graphs, sparse_tensor, sparse_tensors, type_proto, type_protos) after ':', found 'foo'",
      ],
    ],
    ["unterminated string", 'g (x) => (y) {\n  y = Op <a = "abc> (x)\n}', ["2:15 this string has no closing quote"]],
    ["missing comma in inputs", "g (float[N] x y) => (y) {}", ["1:15 expected ',' or ')' after a graph input, found 'y'"]],
    ["unclosed shape", "g (float[N x) => (y) {}", ["1:12 expected ',' or ']' in the shape, found 'x'"]],
    ["spaced minus", "g () => (y) <float[2] w = {1, - 2}> {}", ["1:31 expected a number right after '-' (write -5, not - 5), found '-'"]],
    ["trailing comma in data", "g () => (y) <float[2] w = {1, 2,}> {}", ["1:33 expected a number or a quoted string in the tensor data, found '}'"]],
    ["missing arrow", "g (x) (y) {}", ["1:7 expected '=>' after the graph inputs, found '('"]],
    ["missing graph name", "(x) => (y) {}", ["1:1 expected a graph name, found '('"]],
    ["two attribute lists", "g (x) => (y) {\n  y = Op <a = 1> (x) <b = 2>\n}", ["2:22 expected a node (outputs = Op (inputs)) or '}', found '<'"]],
    ["no-break space", "g (x) => (y) {\n  y = Op(x)\u00a0\n}", ["2:12 unexpected character a no-break space (U+00A0)"]],
    ["map without key", "g (map(float) x) => (y) {}", ["1:13 expected ',' after the map key type, found ')'"]],
    ["empty text", "", ["1:1 expected a graph name, found the end of the input"]],
    ["a stray '}'", "g (x) => (y) {\n  y = Op(x)\n} }", ["3:3 expected a function definition or the end of the input after the main graph, found '}'"]],
    [
      "error inside a subgraph",
      "g (c) => (y) {\n  y = If (c) <then_branch = t () => (o) {\n    o = Bad(\n  }>\n  z = Add(x, x)\n  w = (\n}",
      ["3:13 expected an input name or ')', found '}' on line 4", "6:8 expected an input name or ')', found '}' on line 7"],
    ],
  ];
  for (const [name, text, expected] of cases) {
    it(`says what was expected and found: ${name}`, () => {
      assert.deepEqual(where(text, parseModel(text).diagnostics), expected);
    });
  }

  it(`refuses nesting deeper than ${MAX_NESTING} levels with one message, without overflowing the stack`, () => {
    const deepType = `g (${"seq(".repeat(10000)}float${")".repeat(10000)} x) => (y) {}`;
    const r = parseModel(deepType);
    assert.deepEqual(
      r.diagnostics.map((d) => d.message),
      [`nesting is deeper than ${MAX_NESTING} levels`],
    );
    const deepGraph = "g () => (y) {\n" + "y = If (c) <b = g () => (y) {\n".repeat(5000) + "}>\n".repeat(5000) + "}";
    const r2 = parseModel(deepGraph);
    assert.equal(r2.diagnostics[0]?.message, `nesting is deeper than ${MAX_NESTING} levels`);
  });

  it("never throws on truncated or damaged real texts, and always reports something", () => {
    const files = fs
      .readdirSync(PRINTED)
      .filter((f) => f.endsWith(".onnxtxt"))
      .sort()
      .filter((_, i) => i % 60 === 0);
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (const f of files) {
      const text = fs.readFileSync(path.join(PRINTED, f), "utf8");
      for (let k = 0; k < 8; k++) {
        const cut = text.slice(0, random(text.length));
        const r = parseModel(cut);
        assert.ok(r.diagnostics.length > 0 || cut.trimEnd().endsWith("}"), `${f} cut at ${cut.length}`);
        const at = random(text.length);
        const damaged = text.slice(0, at) + '})<,=["'.charAt(random(7)) + text.slice(at);
        const internal = [...r.diagnostics, ...parseModel(damaged).diagnostics].filter((d) => d.code === "internal");
        assert.deepEqual(internal, [], `${f}: the parser failed internally`);
      }
    }
  });
});
