import * as assert from "node:assert/strict";
import { analyze } from "../../core/src/ide/analyze.js";
import { codeLenses } from "../../core/src/ide/code-lens.js";
import { foldingRanges } from "../../core/src/ide/folding.js";
import { inlayHints } from "../../core/src/ide/inlay-hints.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { semanticTokens } from "../../core/src/ide/semantic-tokens.js";
import { signatureHelp } from "../../core/src/ide/signature-help.js";
import { latestOpsetVersion } from "../../core/src/schema/index.js";
import { checkCodeAction, checkCompletion, checkHover, load } from "./check.js";

const MLP = `<ir_version: 10, opset_import: ["" : 21]>
mlp (float[N, 4] x) => (y)
<float[4, 2] W = {1, 2, 3, 4, 5, 6, 7, 8}>
{
  # hidden layer
  # (no bias)
  h = MatMul (x, W)
  y = Relu (h)
}
`;

describe("ide: code actions", () => {
  it("adds a missing opset_import", () => {
    const text = MLP.replace("y = Relu (h)", "y = com.microsoft.Gelu (h)");
    checkCodeAction(
      text.replace("com.microsoft.Gelu", "$0com.microsoft.Gelu"),
      'Add opset_import for domain "com.microsoft"',
      text.replace('["" : 21]', '["" : 21, "com.microsoft" : 1]'),
    );
    const bare = MLP.replace('<ir_version: 10, opset_import: ["" : 21]>\n', "");
    checkCodeAction(bare.replace("Relu", "$0Relu"), 'Add opset_import for domain ""', `<ir_version: 10, opset_import: ["" : ${latestDefault()}]>\n${bare}`);
  });

  it("raises the opset for an op that arrived later", () => {
    const text = MLP.replace('"" : 21', '"" : 13').replace("y = Relu (h)", "y = Gelu (h)");
    checkCodeAction(text.replace("Gelu", "$0Gelu"), 'Raise opset_import of "" to 20 (Gelu arrived then)', text.replace('"" : 13', '"" : 20'));
  });

  it("changes an undefined name to a close one", () => {
    const text = MLP.replace("Relu (h)", "Relu ($0hh)");
    checkCodeAction(text, "Change 'hh' to 'h'", MLP);
  });

  it("quotes a name the syntax cannot take bare", () => {
    const text = MLP.replace("h = MatMul", '"layer-1" = MatMul').replace("Relu (h)", "Relu ($0layer-1)");
    checkCodeAction(text, 'Quote the name "layer-1"', text.replace("$0", "").replace("Relu (layer-1)", 'Relu ("layer-1")'));
  });

  it("declares a graph output's inferred type", () => {
    checkCodeAction(MLP.replace("=> (y)", "=> ($0y)"), "Declare the inferred type float[N, 2] of output 'y'", MLP.replace("=> (y)", "=> (float[N, 2] y)"));
  });
});

function latestDefault(): number {
  return latestOpsetVersion("")!;
}

describe("ide: completion", () => {
  it("offers operators valid at the imported opset after =", () => {
    checkCompletion(MLP.replace("y = Relu (h)", "y = $0"), ["Relu", "Gelu", "MatMul"], ["Attention"]);
    // Gelu arrived in opset 20; at opset 13 it is not offered.
    checkCompletion(MLP.replace('"" : 21', '"" : 13').replace("y = Relu (h)", "y = $0"), ["Relu"], ["Gelu"]);
  });

  it("offers the attributes of the op at hand, then typical values", () => {
    checkCompletion(MLP.replace("y = Relu (h)", "y = Conv <$0> (h)"), ["kernel_shape", "group", "auto_pad"]);
    checkCompletion(MLP.replace("y = Relu (h)", "y = Conv <group = 2, $0> (h)"), ["pads"], ["group"]);
    checkCompletion(MLP.replace("y = Relu (h)", "y = Conv <group = $0> (h)"), ["1"]);
  });

  it("offers the values in scope inside an input list", () => {
    checkCompletion(MLP.replace("Relu (h)", "Relu ($0)"), ["h", "x", "W"], ["y"]);
  });

  it("offers types in signatures and keys in the header", () => {
    checkCompletion(MLP.replace("(float[N, 4] x)", "($0)"), ["float", "int64", "seq"]);
    checkCompletion(MLP.replace("<ir_version: 10,", "<$0ir_version: 10,"), ["ir_version", "opset_import", "producer_name"]);
  });
});

describe("ide: hover", () => {
  it("shows an inferred type for a node output", () => {
    checkHover(MLP.replace("Relu (h)", "Relu ($0h)"), ["float[N, 2] h", "inferred type", "produced by `MatMul`"]);
  });

  it("shows an attribute's type and default", () => {
    checkHover(MLP.replace("y = Relu (h)", "y = LeakyRelu <al$0pha = 0.1> (h)"), ["alpha: float = 0.01", "LeakyRelu"]);
  });

  it("marks an undefined value", () => {
    checkHover(MLP.replace("Relu (h)", "Relu ($0q)"), ["undefined"]);
  });
});

describe("ide: navigation aids", () => {
  const a = analyze(MLP);

  it("outlines the graph with inputs, initializers, outputs and nodes", () => {
    const [g] = documentOutline(a);
    assert.equal(g!.name, "mlp");
    assert.deepEqual(
      g!.children.map((c) => `${c.kind}:${c.name}`),
      ["input:x", "initializer:W", "output:y", "node:h", "node:y"],
    );
  });

  it("keeps the outline within a number of items and says how many were left out", () => {
    const [g] = documentOutline(a, 4);
    assert.deepEqual(
      g!.children.map((c) => `${c.kind}:${c.name}`),
      ["input:x", "initializer:W", "output:y"],
    );
    assert.equal(g!.detail, "3 of 5 items shown");
    assert.equal(documentOutline(a, 6)[0]!.detail, undefined);
  });

  it("classifies tokens by role", () => {
    const tokens = semanticTokens(a).map(
      (t) => `${a.text.slice(t.start, t.start + t.length)}:${t.type}${t.modifiers.length ? "+" + t.modifiers.join("+") : ""}`,
    );
    for (const t of [
      "MatMul:function+defaultLibrary",
      "ir_version:keyword",
      "float:type",
      "N:typeParameter",
      "W:variable+declaration+readonly",
      "h:variable+declaration",
      "# hidden layer:comment",
    ]) {
      assert.ok(tokens.includes(t), `missing ${t} in ${tokens.join(" ")}`);
    }
  });

  it("folds the graph, the body and comment blocks", () => {
    const folds = foldingRanges(a).map((f) => `${f.kind}:${a.lines.position(f.span.start).line}-${a.lines.position(f.span.end).line}`);
    assert.ok(folds.includes("comment:4-5"), folds.join(" "));
    assert.ok(folds.includes("region:3-8"), folds.join(" "));
  });

  it("hints the inferred type of each node output", () => {
    const hints = inlayHints(a, 0, a.text.length).map((h) => `${a.lines.lineCol(h.offset)}${h.label}`);
    assert.deepEqual(hints, ["7:4: float[N, 2]", "8:4: float[N, 2]"]);
  });

  it("puts a Run lens on the graph", () => {
    assert.deepEqual(
      codeLenses(a).map((l) => l.graph),
      ["mlp"],
    );
  });

  it("gives signature help with the active input", () => {
    const { a: b, fx } = load(MLP.replace("MatMul (x, W)", "MatMul (x, $0W)"));
    const s = signatureHelp(b, fx.cursor)!;
    const [st, en] = s.parameters[s.activeParameter]!.label;
    assert.equal(s.label.slice(st, en), "B: T");
  });
});

describe("ide: completion for model-local functions", () => {
  const FN = `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[N] x) => (float[N] y) {
  y = local.Scale (x)
}

<domain: "local", opset_import: ["" : 21]>
Scale <alpha: float = 0.5, mode> (x) => (y) {
  s = Constant <value_float: float = @alpha> ()
  y = Mul (x, s)
}
`;

  it("offers the function after = and its attributes with their defaults", () => {
    checkCompletion(FN.replace("y = local.Scale (x)", "y = $0"), ["local.Scale", "Relu"]);
    checkCompletion(FN.replace("local.Scale (x)", "local.Scale <$0> (x)"), ["alpha", "mode"]);
    checkCompletion(FN.replace("local.Scale (x)", "local.Scale <alpha = $0> (x)"), ["0.5", "1.0"]);
  });

  it("offers @references to the function's attributes inside its body", () => {
    checkCompletion(FN.replace("value_float: float = @alpha", "value_float: float = $0"), ["@alpha", "@mode"]);
  });
});
