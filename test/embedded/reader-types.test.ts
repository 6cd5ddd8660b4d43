// What a text is, from the code that reads it: the type a C++ test parses into, and which
// assignment a Python call's variable names (the one in its own function, or a module constant).
import * as assert from "node:assert/strict";
import { findRegions } from "../../core/src/embedded/index.js";

const CPP = `TEST(ParserTest, AttrTest) {
  AttributeProto attr;
  Parse(attr, R"ONNX(
    body = somegraph (float[N] y) => (float[N] w) { w = Neg (y) }
)ONNX");
}

TEST(ParserTest, NodeListTest) {
  const char* code = R"ONNX(
{
    x = Neg(y)
}
)ONNX";
  GraphProto graph;
  Parse(*graph.mutable_node(), code);
}

TEST(ParserTest, ModelCheckTest) {
  const char* code = R"ONNX(
<ir_version: 7, opset_import: [ "" : 10 ]>
agraph (float[N] X) => (float[N] C) { C = Neg(X) }
)ONNX";
  CheckModel(code);
}

TEST(ParserTest, GraphTest) {
  const char* code = R"ONNX(
"a graph" (float[N] X) => (float[N] C) { C = Neg(X) }
)ONNX";
  GraphProto graph;
  Parse(graph, code);
}

TEST(ParserTest, NodeTest) {
  NodeProto n;
  Parse(n, "x = Neg (y)");
  std::string s;
  OnnxParser parser(R"("a string")");
  parser.ParserBase::Parse(s);
}
`;

const PY = `import onnx

MODEL = """<ir_version: 8, opset_import: ["" : 18]> g (float x) => (float y) { y = Neg(x) }"""


class T:
    def test_textproto(self):
        model_text = """ir_version: 8 graph { }"""
        return text_format.Parse(model_text, onnx.ModelProto())

    def test_text(self):
        model_text = """<ir_version: 8, opset_import: ["" : 18]> h (float x) => (float y) { y = Abs(x) }"""
        return onnx.parser.parse_model(model_text)

    def test_other(self):
        return onnx.parser.parse_model(model_text)

    def test_constant(self):
        return onnx.parser.parse_model(MODEL)
`;

describe("embedded texts: kinds from the code that reads them", () => {
  it("reads C++ texts as the proto type they are parsed into, and skips attribute texts", () => {
    const scan = findRegions(CPP, "cpp");
    assert.deepEqual(
      scan.regions.map((r) => [r.kind, r.text.trim().slice(0, 12)]),
      [
        ["nodes", "{\n    x = Ne"],
        ["model", "<ir_version:"],
        ["graph", '"a graph" (f'],
        ["node", "x = Neg (y)"],
      ],
    );
    assert.deepEqual(
      scan.skipped.map((s) => s.reason),
      ["parsed into AttributeProto, not a model, graph, function or node list", "parsed into string, not a model, graph, function or node list"],
    );
  });

  it("follows a Python call's variable to the assignment in its own function or a module constant", () => {
    const scan = findRegions(PY, "python");
    assert.deepEqual(
      scan.regions.map((r) => r.text.match(/\{ y = (\w+)/)?.[1]),
      ["Neg", "Abs"],
    );
    // test_other's model_text is assigned in no scope it can see: no region; the textproto is none either
    assert.ok(!scan.regions.some((r) => r.text.includes("graph {")));
  });
});
