// The injection grammars: ONNX text inside Python strings, C++ raw strings and Markdown fences is
// coloured with the .onnxtxt scopes, tokenized with VS Code's own grammars for the hosts
// (tm-grammars) plus our injections as the manifest contributes them; outside a region the
// host's scopes stay as they are.
import * as assert from "node:assert/strict";
import { type Highlighted, highlight } from "./textmate-helper.js";

const OP = "entity.name.function.operator.onnxtxt";
const COMMENT = "comment.line.number-sign.onnxtxt";
const EMBEDDED = /^meta\.embedded\.(block|line)\.onnxtxt$/;

function assertOnnx(h: Highlighted, needle: string, scope: string, occurrence = 0): void {
  const scopes = h.scopesOf(needle, occurrence);
  assert.ok(scopes.includes(scope), `'${needle}' #${occurrence}: expected ${scope}, got ${scopes.join(" ")}`);
  assert.ok(
    scopes.some((s) => EMBEDDED.test(s)),
    `'${needle}' #${occurrence} is not in an embedded region: ${scopes.join(" ")}`,
  );
}

function assertHost(h: Highlighted, needle: string, expected: string | RegExp, occurrence = 0): void {
  const scopes = h.scopesOf(needle, occurrence);
  assert.ok(!scopes.some((s) => s.endsWith(".onnxtxt")), `'${needle}' #${occurrence} is coloured as ONNX: ${scopes.join(" ")}`);
  const found = scopes.some((s) => (typeof expected === "string" ? s === expected : expected.test(s)));
  assert.ok(found, `'${needle}' #${occurrence}: expected ${String(expected)}, got ${scopes.join(" ")}`);
}

const PYTHON = `import onnx
import onnx.parser
from onnx.parser import parse_graph as pg
from onnx_ir import from_onnx_text


def make_model():
    model = onnx.parser.parse_model(
        """
        <ir_version: 10, opset_import: ["" : 21]>
        agraph (float[N] x) => (float[N] y) {
            # ONNX comment in a model
            y = Relu (x)
        }
        """
    )
    return model


graph = onnx.parser.parse_graph('agraph (float x) => (float y) { y = Sigmoid (x) }')
node = onnx.parser.parse_node(r"y = Softplus <alpha = 1.0> (x)")
fn = parser.parse_function("""<domain: "local", opset_import: ["" : 21]>
f (x) => (y) { y = Selu (x) }""", check=True)
ir = from_onnx_text("""<ir_version: 10, opset_import: ["" : 21]> g (float x) => (float y) { y = Elu (x) }""")
templ = onnx.parser.parse_model(f"""<ir_version: {IR}> g (float x) => (float y) {{ y = Tanh (x) }}""")
other = parse_model(text)
plain = "y = Floor (x)"  # not a region: no call, no marker

# onnxtxt: graph
BODY = """
g (float x) => (float y) {
    y = Ceil (x)  # a comment about Ceil
}
"""

# onnxtxt: node
"y = Abs (x)"

# onnxtxt: nodes
x = compute()
after_marker = "y = Round (x)"


def tail():
    return 42  # a Python comment
`;

describe("TextMate injection: Python", () => {
  let h: Highlighted;
  before(async () => {
    h = await highlight(PYTHON, "source.python");
  });

  it("colours a parse_model string that starts on the line after the call", () => {
    assertOnnx(h, "Relu", OP);
    assertOnnx(h, "# ONNX comment", COMMENT);
    assertOnnx(h, "ir_version", "keyword.other.header.onnxtxt");
    assertOnnx(h, "agraph", "entity.name.type.graph.onnxtxt");
  });

  it("keeps Python string punctuation on the delimiters and Python scopes around the call", () => {
    assertHost(h, '"""\n        <ir', "punctuation.definition.string.begin.python");
    assertHost(h, '"""\n    )', "punctuation.definition.string.end.python");
    assertHost(h, "parse_model(\n", /^meta\.function-call/);
    assertHost(h, "return model", "keyword.control.flow.python");
    assertHost(h, "def make_model", "storage.type.function.python");
  });

  it("colours single-quoted, raw, keyword-argument and from_onnx_text calls", () => {
    assertOnnx(h, "Sigmoid", OP);
    assertOnnx(h, "Softplus", OP);
    assertOnnx(h, "alpha", "entity.other.attribute-name.onnxtxt");
    assertOnnx(h, "Selu", OP);
    assertOnnx(h, "Elu", OP);
    assertHost(h, "True", "constant.language.python");
  });

  it("leaves f-strings, variables and unmarked strings to Python", () => {
    assertHost(h, "Tanh", /^string\.(quoted|interpolated)/);
    assertHost(h, "{IR}", /meta\.fstring\.python|constant\.character\.format/);
    assertHost(h, "text)", /.*/);
    assertHost(h, "Floor", /^string\.quoted\.single\.python$/);
  });

  it("colours the string after a `# onnxtxt:` marker, alone or assigned", () => {
    assertOnnx(h, "Ceil", OP);
    assertOnnx(h, "# a comment about Ceil", COMMENT);
    assertOnnx(h, "Abs", OP);
    assertHost(h, "BODY", /.*/);
    assertHost(h, "# onnxtxt: graph", /^comment\.line\.number-sign\.python$/);
  });

  it("a marker followed by code marks nothing further down", () => {
    assertHost(h, "compute()", /meta\.function-call/);
    assertHost(h, "Round", /^string\.quoted\.single\.python$/);
  });

  it("Python resumes after the last region", () => {
    assertHost(h, "return 42", "keyword.control.flow.python");
    assertHost(h, "# a Python comment", /^comment\.line\.number-sign\.python$/);
  });
});

describe("TextMate injection: Python, damaged regions", () => {
  it("an unbalanced `{` inside a string ends with the string", async () => {
    const h = await highlight(`m = onnx.parser.parse_model("""g (float x) => (float y) { y = Relu (x <a = "z" """)\nz = 1  # after\n`, "source.python");
    assertOnnx(h, "Relu", OP);
    assertHost(h, '""")', "punctuation.definition.string.end.python");
    assertHost(h, "# after", /^comment\.line\.number-sign\.python$/);
  });

  it("a one-line string left open ends at the end of its line, as Python's does", async () => {
    const h = await highlight(`n = onnx.parser.parse_node("y = Relu <a = {1, 2 (x)\ndef f():\n    pass\n`, "source.python");
    assertOnnx(h, "Relu", OP);
    assertHost(h, "def f", "storage.type.function.python");
  });

  it("a triple-quoted string left open runs to the end of the file, as it does for Python", async () => {
    const text = `m = parse_model("""\n  g (float x) => (float y) { y = Relu (x) }\nz = 1\n`;
    const h = await highlight(text, "source.python");
    assertOnnx(h, "Relu", OP);
    assert.ok(h.scopesOf("z = 1").includes("meta.embedded.block.onnxtxt"));
    const plain = await highlight(text.replace("parse_model", "something"), "source.python");
    assert.ok(plain.scopesOf("z = 1").includes("string.quoted.multi.python"));
  });

  it("escaped quotes in a double-quoted string are ONNX strings, not the string's end", async () => {
    const h = await highlight(`n = parse_node("y = Foo <s = \\"a b\\", t = 1> (x)")\nk = 2  # after\n`, "source.python");
    assertOnnx(h, "a b", "string.quoted.double.onnxtxt");
    assertOnnx(h, "t = 1", "entity.other.attribute-name.onnxtxt");
    assertHost(h, "# after", /^comment\.line\.number-sign\.python$/);
  });
});

const CPP = `#include "onnx/defs/function.h"

static const char* kModel = R"ONNX(
  <ir_version: 10, opset_import: ["" : 21]>
  agraph (float[N] x) => (float[N] y) {
    # ONNX comment in C++
    y = Relu (x)
  }
)ONNX";
int after_raw = 1;  // C++ again

bool BuildFunction(FunctionProto& proto) {
  FunctionBuilder builder(proto);
  builder.Add("y = Exp (x)")
      .Add(R"(z = Log (y))")
      .Add("w = Constant <value = float[1] {1.5}> ()");
  const char* s = "y = Sqrt (x)";
  auto lower = R"onnx(q = Neg (p))onnx";
  auto other = R"(y = Ceil (x))";
  return true;
}
`;

describe("TextMate injection: C++", () => {
  let h: Highlighted;
  before(async () => {
    h = await highlight(CPP, "source.cpp");
  });

  it('colours a multi-line R"ONNX( raw string and returns to C++ after )ONNX"', () => {
    assertOnnx(h, "Relu", OP);
    assertOnnx(h, "# ONNX comment", COMMENT);
    assertOnnx(h, "agraph", "entity.name.type.graph.onnxtxt");
    assertHost(h, 'R"ONNX(', "punctuation.definition.string.begin.cpp");
    assertHost(h, ')ONNX"', "punctuation.definition.string.end.cpp");
    assertHost(h, "int after_raw", "storage.type.primitive.cpp");
    assertHost(h, "// C++ again", /^comment\.line\.double-slash/);
  });

  it('colours FunctionBuilder nodes in .Add("...") and .Add(R"(...)")', () => {
    assertOnnx(h, "Exp", OP);
    assertOnnx(h, "Log", OP);
    assertOnnx(h, "Constant", OP);
    assertOnnx(h, "1.5", "constant.numeric.float.onnxtxt");
    assertOnnx(h, "Neg", OP);
  });

  it("leaves other strings to C++", () => {
    assertHost(h, "Sqrt", /^string\.quoted\.double/);
    assertHost(h, "Ceil", /^string\.quoted\.double\.raw/);
    assertHost(h, "return true", /keyword\.control/);
  });

  it("works in C files too", async () => {
    const c = await highlight(`const char* m = R"ONNX(y = Relu (x))ONNX";\nint k = 0;\n`, "source.c");
    assertOnnx(c, "Relu", OP);
    assertHost(c, "int k", "storage.type.built-in.primitive.c");
  });

  it("an unbalanced `<` inside a raw string ends with the string", async () => {
    const d = await highlight(`auto m = R"ONNX(\n  g (float x) => (float y) {\n    y = Relu <a = [1, 2 (x)\n)ONNX";\nint k = 0;\n`, "source.cpp");
    assertOnnx(d, "Relu", OP);
    assertHost(d, "int k", "storage.type.primitive.cpp");
  });
});

const MARKDOWN = `# Models

A model:

\`\`\`onnx
<ir_version: 10, opset_import: ["" : 21]>
agraph (float[N] x) => (float[N] y) {
    # ONNX comment in Markdown
    y = Relu (x)
}
\`\`\`

Some *text* after.

~~~onnxtxt
g (float x) => (float y) { y = Sigmoid (x) }
~~~

   \`\`\`onnx-text {.numberLines}
   y = Tanh (x)
   \`\`\`

\`\`\`python
m = "y = Floor (x)"
\`\`\`

\`\`\`onnx
g (float x) => (float y) {
  y = Ceil <a = {1, 2 (x)
\`\`\`

Still *Markdown*.
`;

describe("TextMate injection: Markdown", () => {
  let h: Highlighted;
  before(async () => {
    h = await highlight(MARKDOWN, "text.html.markdown");
  });

  it("colours onnx, onnxtxt and onnx-text fences", () => {
    assertOnnx(h, "Relu", OP);
    assertOnnx(h, "# ONNX comment", COMMENT);
    assertOnnx(h, "Sigmoid", OP);
    assertOnnx(h, "Tanh", OP);
    assert.ok(h.scopesOf("Relu").includes("markup.fenced_code.block.markdown"));
    assertHost(h, "onnx\n<ir", "fenced_code.block.language.markdown");
  });

  it("leaves other fences and the prose to Markdown", () => {
    assertHost(h, "Floor", /^string\.quoted\.single\.python$/);
    assertHost(h, "text*", /markup\.italic/);
    assertHost(h, "# Models", /heading/);
  });

  it("a fence closes whatever the ONNX inside left open", () => {
    assertOnnx(h, "Ceil", OP);
    assertHost(h, "Markdown*", /markup\.italic/);
  });

  it("a fence left open runs to the end of the file, as Markdown's own fences do", async () => {
    const open = await highlight("```onnx\ny = Relu (x)\n\nStill *code*\n", "text.html.markdown");
    assertOnnx(open, "Relu", OP);
    assert.ok(open.scopesOf("code*").includes("markup.fenced_code.block.markdown"));
    const text = await highlight("```text\ny = Relu (x)\n\nStill *code*\n", "text.html.markdown");
    assert.ok(text.scopesOf("code*").includes("markup.fenced_code.block.markdown"));
  });
});
