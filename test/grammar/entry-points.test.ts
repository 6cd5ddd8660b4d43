// The public entry points of grammar/ and core/src/lower: each parses its construct alone,
// reports trailing text, and lowers to the matching message. Spans always point at the text.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseFunction, parseGraph, parseModel, parseNode, parseTensorConstant, parseTypeExpr, type AstNode, type Span } from "../../grammar/src/index.js";
import { lowerFunction, lowerGraph, lowerNode, lowerTensorConstant, lowerType } from "../../core/src/lower/index.js";
import { modelFromText } from "../../core/src/text.js";
import { validateTokenTable } from "../../grammar/src/reference-lexer.js";
import { TOKENS } from "../../grammar/src/tokens.js";
import { OnnxTextParser } from "../../grammar/src/parser.js";
import { PRINTED } from "../helpers/paths.js";

/** Every AST node below `root`, with its parent's span. */
function* walk(node: unknown, parent?: Span): Generator<[AstNode, Span | undefined]> {
  if (Array.isArray(node)) {
    for (const n of node) yield* walk(n, parent);
    return;
  }
  if (typeof node !== "object" || node === null || !("kind" in node)) return;
  const n = node as AstNode;
  yield [n, parent];
  for (const [k, v] of Object.entries(n)) if (k !== "span" && k !== "values") yield* walk(v, n.span);
}

describe("grammar entry points", () => {
  it("builds the Chevrotain parser with Chevrotain's grammar validations on (the tools skip them)", () => {
    const parser = new OnnxTextParser(true);
    const rules = parser.getGAstProductions();
    for (const rule of ["model", "graph", "functionDef", "node", "typeExpr", "tensorConstant", "tensorData", "attributeList"]) assert.ok(rules[rule], rule);
  });

  it("validates the token table with Chevrotain's checks", () => {
    assert.doesNotThrow(() => validateTokenTable());
    assert.ok(TOKENS.length > 10);
  });

  it("parses a node, a graph, a function, a type and a tensor constant alone", () => {
    const node = parseNode("[n] y = com.x.Op:ov <a = 1> (x, , z)");
    assert.deepEqual(node.diagnostics, []);
    assert.equal(node.ast?.op?.opType?.value, "Op");
    const n = lowerNode(node.ast!).result;
    assert.deepEqual([n.name, n.domain, n.opType, n.overload, n.input], ["n", "com.x", "Op", "ov", ["x", "", "z"]]);

    const graph = parseGraph("g (float[2] x) => (y) { y = Relu (x) }");
    assert.deepEqual(graph.diagnostics, []);
    assert.equal(lowerGraph(graph.ast!).result.node.length, 1);

    const fn = parseFunction('<domain: "d", opset_import: ["" : 18]> F <a> (x) => (y) { y = Relu (x) }');
    assert.deepEqual(fn.diagnostics, []);
    const f = lowerFunction(fn.ast!).result;
    assert.deepEqual([f.domain, f.name, f.attribute], ["d", "F", ["a"]]);

    const type = parseTypeExpr("map(string, seq(float[N]))");
    assert.deepEqual(type.diagnostics, []);
    assert.equal(lowerType(type.ast!).result.value.case, "mapType");

    const tensor = parseTensorConstant("float[2] {1, 2.5}");
    assert.deepEqual(tensor.diagnostics, []);
    assert.deepEqual(lowerTensorConstant(tensor.ast!, "float[2] {1, 2.5}").result?.floatData, [1, 2.5]);
    const named = parseTensorConstant('int64[2, 1] "w" = {3, 4}');
    assert.deepEqual(lowerTensorConstant(named.ast!).result?.int64Data, [3n, 4n]);
  });

  it("reports text after the construct", () => {
    assert.deepEqual(
      parseNode("y = Relu (x) extra").diagnostics.map((d) => d.message),
      ["expected the end of the input after the node, found 'extra'"],
    );
    assert.deepEqual(
      parseTypeExpr("float[2] x").diagnostics.map((d) => d.message),
      ["expected the end of the input after the type, found 'x'"],
    );
  });

  it("keeps comments with exact spans and reads packed numbers", () => {
    const text = "# head\ng () => (y) <float[3] w = {1, 2, 3}> { # body\n  y = Identity (w) # tail\n}";
    const r = parseModel(text);
    assert.deepEqual(
      r.comments.map((c) => [c.text, text.slice(c.span.start, c.span.end)]),
      [
        [" head", "# head"],
        [" body", "# body"],
        [" tail", "# tail"],
      ],
    );
    const init = r.ast!.graph!.valueInfos!.items[0]!.init!;
    assert.equal(init.kind === "InlineData" && "kind" in init.elements && init.elements.kind, "PackedNumbers");
    assert.equal(text.slice(init.span.start, init.span.end), "{1, 2, 3}");
  });

  it("reads lists with comments or strings through the ordinary path, with the same values", () => {
    const packed = lowerTensorConstant(parseTensorConstant("float[3] {1, 2.5, -3}").ast!).result!;
    const withComment = parseTensorConstant("float[3] {1, # one\n 2.5, -3}");
    assert.deepEqual(withComment.diagnostics, []);
    const data = withComment.ast!.data!;
    assert.ok(data.kind === "InlineData" && Array.isArray(data.elements), "a comment inside the list leaves the packed path");
    assert.deepEqual(lowerTensorConstant(withComment.ast!).result!.floatData, packed.floatData);
  });

  it("gives every node of real texts a span inside its parent and names that match the text", () => {
    const files = fs
      .readdirSync(PRINTED)
      .filter((f) => f.endsWith(".onnxtxt"))
      .sort()
      .filter((_, i) => i % 25 === 0);
    for (const f of files) {
      const text = fs.readFileSync(path.join(PRINTED, f), "utf8");
      const r = parseModel(text);
      for (const [n, parent] of walk(r.ast)) {
        assert.ok(n.span.start <= n.span.end && n.span.end <= text.length, `${f}: ${n.kind} span`);
        if (parent) assert.ok(parent.start <= n.span.start && n.span.end <= parent.end, `${f}: ${n.kind} outside its parent`);
        if (n.kind === "Name") {
          const written = text.slice(n.span.start, n.span.end);
          assert.equal(n.quoted ? JSON.parse(written.replace(/\\(?!["\\])/g, "")) : written, n.value, `${f}: name ${written}`);
        }
      }
    }
  });

  it("maps nodes, values and attributes back to their text", () => {
    const text = "g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.5> (x)\n}";
    const r = modelFromText(text);
    const node = r.model!.graph!.node[0]!;
    const spans = r.sourceMap.get(node)!;
    const at = (s: Span | undefined): string => (s ? text.slice(s.start, s.end) : "");
    assert.equal(at(spans.whole), "y = LeakyRelu <alpha = 0.5> (x)");
    assert.equal(at(spans.op), "LeakyRelu");
    assert.deepEqual(spans.inputs!.map(at), ["x"]);
    assert.deepEqual(spans.outputs!.map(at), ["y"]);
    const attr = r.sourceMap.get(node.attribute[0]!)!;
    assert.deepEqual([at(attr.name), at(attr.value)], ["alpha", "0.5"]);
    const input = r.sourceMap.get(r.model!.graph!.input[0]!)!;
    assert.deepEqual([at(input.name), at(input.type)], ["x", "float[2]"]);
    assert.equal(at(r.sourceMap.get(r.model!.graph!)!.name), "g");
  });
});
