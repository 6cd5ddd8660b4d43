// The remaining features over the protocol: code actions, inlay hints, semantic tokens,
// workspace symbols, code lenses and folding.
import * as assert from "node:assert/strict";
import type { LspClient } from "./lsp-client.js";
import {
  expectCodeAction,
  expectCodeLenses,
  expectFolding,
  expectInlayHints,
  expectSemanticTokens,
  expectWorkspaceSymbols,
  TOKEN_LEGEND,
  useServer,
} from "./lsp-helpers.js";

const MLP = `<ir_version: 10, opset_import: ["" : 21]>
# two layers
# of math
mlp (float[N, 4] x) => (y) <float[4, 2] W = {1, 2, 3, 4, 5, 6, 7, 8}> {
  h = MatMul (x, W)
  y = Relu (h)
}
`;

describe("language server: code actions and navigation aids", function () {
  let client: LspClient;
  useServer((c, init) => {
    client = c;
    const legend = (init.capabilities.semanticTokensProvider as { legend: { tokenTypes: string[] } }).legend.tokenTypes;
    assert.deepEqual(legend, TOKEN_LEGEND);
  });

  it("offers quick fixes that edit the document", async () => {
    await expectCodeAction(client, MLP.replace("Relu (h)", "Relu ($0hh)"), "Change 'hh' to 'h'", MLP);
    await expectCodeAction(
      client,
      MLP.replace("=> (y)", "=> ($0y)"),
      "Declare the inferred type float[N, 2] of output 'y'",
      MLP.replace("=> (y)", "=> (float[N, 2] y)"),
    );
    const gelu = MLP.replace("Relu (h)", "com.microsoft.Gelu (h)");
    await expectCodeAction(
      client,
      gelu.replace("com.", "$0com."),
      'Add opset_import for domain "com.microsoft"',
      gelu.replace('["" : 21]', '["" : 21, "com.microsoft" : 1]'),
    );
  });

  it("hints inferred types after node outputs", async () => {
    await expectInlayHints(client, MLP, ["5: float[N, 2]", "6: float[N, 2]"]);
  });

  it("classifies tokens", async () => {
    await expectSemanticTokens(client, MLP, [
      "MatMul:function",
      "ir_version:keyword",
      "N:typeParameter",
      "W:variable",
      "# two layers:comment",
      "mlp:namespace",
    ]);
  });

  it("lists workspace symbols across open documents", async () => {
    await expectWorkspaceSymbols(client, [MLP, MLP.replace("mlp (", "other (")], "", ["/mlp", "/other", "mlp/h", "mlp/y", "other/h", "other/y"]);
  });

  it("puts a Run lens on the graph and on functions", async () => {
    const withFn = `${MLP}\n<domain: "local", opset_import: ["" : 21]>\nTwice (x) => (y) {\n  y = Add (x, x)\n}\n`;
    await expectCodeLenses(client, withFn, [
      { line: 4, graph: "mlp" },
      { line: 10, graph: "Twice" },
    ]);
  });

  it("folds bodies and comment blocks", async () => {
    await expectFolding(client, MLP, ["comment:2-3", "region:4-6"]);
  });
});
