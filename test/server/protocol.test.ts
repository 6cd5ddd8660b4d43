// The server as an editor sees it: a child process speaking JSON-RPC over stdio.
import * as assert from "node:assert/strict";
import { largeDocument } from "../../bench/lsp-document.js";
import { LspClient, RpcError } from "./lsp-client.js";
import {
  close,
  expectCompletion,
  expectDefinition,
  expectDiagnostics,
  expectHighlights,
  expectHover,
  expectReferences,
  expectRename,
  expectRenameRefused,
  expectSignature,
  type LspDiagnostic,
  open,
  useServer,
} from "./lsp-helpers.js";

const MLP = `<ir_version: 10, opset_import: ["" : 21]>
mlp (float[N, 4] x) => (float[N, 2] y)
<float[4, 2] W = {1, 2, 3, 4, 5, 6, 7, 8}>
{
  h = MatMul (x, W)
  y = Relu (h)
}
`;

describe("language server over stdio", function () {
  let client: LspClient;
  useServer((c) => (client = c), { cleanExit: true });

  it("announces its capabilities", async () => {
    const probe = new LspClient();
    const init = await probe.initialize();
    await probe.shutdown();
    const caps = init.capabilities;
    for (const c of [
      "hoverProvider",
      "definitionProvider",
      "referencesProvider",
      "renameProvider",
      "completionProvider",
      "signatureHelpProvider",
      "documentSymbolProvider",
      "semanticTokensProvider",
      "foldingRangeProvider",
      "inlayHintProvider",
      "codeLensProvider",
      "executeCommandProvider",
    ])
      assert.ok(caps[c], `missing ${c}`);
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2 });
  });

  it("publishes no errors for a valid file", async () => {
    await expectDiagnostics(client, MLP, []);
  });

  it("reports a syntax error on the line where it is", async () => {
    const broken = MLP.replace("y = Relu (h)", "y = Relu (h");
    const diags = await expectDiagnostics(client, broken, [{ line: 6 }]);
    assert.ok(diags[0]!.message.length > 0);
  });

  it("hovers a value with its declared type and shape", async () => {
    await expectHover(client, MLP.replace("MatMul (x, W)", "MatMul (x, $0W)"), ["float[4, 2] W", "initializer"]);
    await expectHover(client, MLP.replace("h = MatMul", "h = MatMul").replace("Relu (h)", "Relu ($0h)"), ["produced by `MatMul`"]);
  });

  it("hovers an operator with its signature at the imported opset", async () => {
    const md = await expectHover(client, MLP.replace("Relu (h)", "Re$0lu (h)"), ["Relu(X: T) => (Y: T)", "since opset 14", "imported: 21"]);
    assert.match(md, /\(https?:\/\/[^)]+Relu[^)]*\)/);
  });

  it("goes to the definition of a value", async () => {
    await expectDefinition(client, MLP.replace("Relu (h)", "Relu ($0h)").replace("  h = MatMul", "  $0h$0 = MatMul"), "last");
  });

  it("finds references and highlights", async () => {
    await expectReferences(client, MLP.replace("Relu (h)", "Relu ($0h)"), ["5:h", "6:h"]);
    await expectHighlights(client, MLP.replace("(x, W)", "($0x, W)"), 2);
  });

  it("renames exactly the definition and the uses", async () => {
    await expectRename(
      client,
      MLP.replace("Relu (h)", "Relu ($0h)"),
      "hidden",
      MLP.replace("h = MatMul", "hidden = MatMul").replace("Relu (h)", "Relu (hidden)"),
    );
    await expectRename(
      client,
      MLP.replace("(float[N, 4] x)", "(float[N, 4] $0x)"),
      "layer.0/in",
      MLP.replace("(float[N, 4] x)", '(float[N, 4] "layer.0/in")').replace("MatMul (x, W)", 'MatMul ("layer.0/in", W)'),
    );
    await expectRenameRefused(client, MLP.replace("Relu (h)", "Re$0lu (h)"));
  });

  it("completes operators after =", async () => {
    const items = await expectCompletion(client, MLP.replace("y = Relu (h)", "y = Rel$0"), ["Relu", "MatMul", "Conv"]);
    const relu = items.find((i) => i.label === "Relu")!;
    // This client declared no snippet support: plain text, not `Relu (${1:X})`.
    assert.equal(relu.textEdit.newText, "Relu (X)");
  });

  it("sends snippets to a client that supports them", async () => {
    const snippets = new LspClient();
    try {
      await snippets.request("initialize", {
        processId: process.pid,
        rootUri: null,
        capabilities: { textDocument: { completion: { completionItem: { snippetSupport: true } } } },
      });
      snippets.notify("initialized", {});
      const text = MLP.replace("y = Relu (h)", "y = Rel");
      const uri = "file:///snippets.onnxtxt";
      snippets.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const lines = text.split("\n");
      const line = lines.findIndex((l) => l.includes("y = Rel"));
      const r = await snippets.request<{ items: { label: string; insertTextFormat: number; textEdit: { newText: string } }[] }>("textDocument/completion", {
        textDocument: { uri },
        position: { line, character: lines[line]!.length },
      });
      const relu = r.items.find((i) => i.label === "Relu")!;
      assert.equal(relu.textEdit.newText, "Relu (${1:X})");
      assert.equal(relu.insertTextFormat, 2);
    } finally {
      await snippets.shutdown();
    }
  });

  it("shows a contradicted declaration at the declaration, the producing node as related information or in the message", async () => {
    const text = `<ir_version: 8, opset_import: ["" : 18]>\ng (float[2,3] x) => (float[3,3] y) {\n  y = Relu (x)\n}\n`;
    const mismatch = async (c: LspClient, uri: string) => {
      const published = c.waitFor("textDocument/publishDiagnostics", (p) => {
        const d = p as { uri: string; diagnostics: LspDiagnostic[] };
        return d.uri === uri && d.diagnostics.some((x) => x.code === "declared-type-mismatch");
      });
      c.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const { diagnostics } = (await published) as { diagnostics: (LspDiagnostic & { relatedInformation?: unknown })[] };
      return diagnostics.find((x) => x.code === "declared-type-mismatch")!;
    };
    const declaration = { start: { line: 1, character: 21 }, end: { line: 1, character: 31 } };
    const plain = await mismatch(client, "file:///related-plain.onnxtxt");
    assert.deepEqual(plain.range, declaration);
    assert.equal(plain.relatedInformation, undefined);
    assert.match(plain.message, /^'y' is declared as float\[3,3\] but .*; line 3: 'y' is produced here by Relu$/);
    const rich = new LspClient();
    try {
      await rich.initialize({ textDocument: { publishDiagnostics: { relatedInformation: true } } });
      const uri = "file:///related-rich.onnxtxt";
      const d = await mismatch(rich, uri);
      assert.deepEqual(d.range, declaration);
      assert.doesNotMatch(d.message, /line 3/);
      assert.deepEqual(d.relatedInformation, [
        { location: { uri, range: { start: { line: 2, character: 2 }, end: { line: 2, character: 3 } } }, message: "'y' is produced here by Relu" },
      ]);
    } finally {
      await rich.shutdown();
    }
  });

  it("answers code lenses on opening a document from its parse, before the model checks are out", async () => {
    // 5,000 nodes and, at the end, an op the checker rejects: the diagnostic comes after lowering and inference.
    const text = largeDocument(5000).replace("y = Identity (", "y = Identiti (");
    const uri = "file:///lens-first.onnxtxt";
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
    const lenses = await client.request<{ command: { title: string } }[]>("textDocument/codeLens", { textDocument: { uri } });
    const checked = () =>
      client.notifications.some((n) => {
        const p = n.params as { uri?: string; diagnostics?: LspDiagnostic[] };
        return n.method === "textDocument/publishDiagnostics" && p.uri === uri && (p.diagnostics ?? []).some((d) => d.code === "unknown-op");
      });
    assert.equal(checked(), false, "the lens waited for the checks");
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      ["▶ Run"],
    );
    await client.waitFor("textDocument/publishDiagnostics", () => checked());
    close(client, uri);
  });

  it("gives signature help inside an input list", async () => {
    await expectSignature(client, MLP.replace("MatMul (x, W)", "MatMul (x, $0W)"), "B: T");
  });

  it("survives a failing request and keeps answering", async () => {
    await assert.rejects(
      client.request("textDocument/hover", { textDocument: { uri: "file:///nowhere.onnxtxt" }, position: { line: 0, character: 0 } }),
      (e: unknown) => e instanceof RpcError,
    );
    const { uri } = await open(client, MLP);
    const symbols = await client.request<{ name: string; children: { name: string }[] }[]>("textDocument/documentSymbol", { textDocument: { uri } });
    close(client, uri);
    assert.equal(symbols[0]!.name, "mlp");
    assert.deepEqual(
      symbols[0]!.children.map((c) => c.name),
      ["x", "W", "y", "h", "y"],
    );
  });

  it("re-publishes fresh diagnostics after an incremental edit", async () => {
    const { uri } = await open(client, MLP);
    const fresh = client.waitFor("textDocument/publishDiagnostics", (p) => {
      const d = p as { uri: string; diagnostics: unknown[] };
      return d.uri === uri && d.diagnostics.length > 0;
    });
    // Delete the `)` of `Relu (h)` on line 6.
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 5, character: 13 }, end: { line: 5, character: 14 } }, text: "" }],
    });
    const d = (await fresh) as { diagnostics: { range: { start: { line: number } } }[] };
    assert.equal(d.diagnostics[0]!.range.start.line, 5);
    close(client, uri);
  });
});

describe("language server: diagnostics across edits", function () {
  let client: LspClient;
  useServer((c) => (client = c));

  it("publishes semantic errors, carries them across an unrelated edit, then recomputes", async () => {
    const text = MLP.replace("Relu (h)", "Relu (q)");
    const { uri, diagnostics } = await open(client, text);
    // The first publication may be the syntax-only one; wait for the full set.
    const full =
      diagnostics.length > 0
        ? diagnostics
        : (
            (await client.waitFor("textDocument/publishDiagnostics", (p) => {
              const d = p as { uri: string; diagnostics: unknown[] };
              return d.uri === uri && d.diagnostics.length > 0;
            })) as { diagnostics: { code?: string; range: { start: { line: number } } }[] }
          ).diagnostics;
    assert.ok(
      full.some((d) => d.code === "undefined-value" && d.range.start.line === 5),
      JSON.stringify(full),
    );
    const versions: { version: number; codes: string[] }[] = [];
    const done = client.waitFor("textDocument/publishDiagnostics", (p) => {
      const d = p as { uri: string; version: number; diagnostics: { code: string }[] };
      if (d.uri !== uri || d.version !== 2) return false;
      versions.push({ version: d.version, codes: d.diagnostics.map((x) => x.code) });
      return versions.length === 2;
    });
    // Insert a blank line at the top: every diagnostic moves down one line.
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: "\n" }],
    });
    await done;
    assert.deepEqual(
      versions.map((v) => v.version),
      [2, 2],
    );
    for (const v of versions) assert.ok(v.codes.includes("undefined-value"), JSON.stringify(versions));
    close(client, uri);
  });
});
