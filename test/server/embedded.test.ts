// The language server on host files: a Python test file, a C++ function body and a Markdown
// fence, driven over stdio as an editor would. Positions are worked out from the host text here.
import * as assert from "node:assert/strict";
import type { LspClient } from "./lsp-client.js";
import { useServer, type LspDiagnostic } from "./lsp-helpers.js";

const PY = `import onnx
from onnx import parser as P


class ShapeTest:
    def test_relu(self):
        x = compute("""not onnx""")
        model = P.parse_model(
            """
            <ir_version: 8, opset_import: ["" : 18]>
            agraph (float[N, 4] X) => (float[N, 4] Y)
            {
                T = Relu(X)
                Y = Sigmoidd(T)
            }
            """
        )
        return model
`;

const CPP = `ONNX_OPERATOR_SET_SCHEMA(
    Shrinkish,
    18,
    OpSchema()
        .FunctionBody(R"ONNX(
          {
            Lambd = Constant <value_float: float = @lambd>()
            LambdCast = CastLike (Lambd, input)
            output = Subb (input, LambdCast)
          }
        )ONNX"));
`;

const MD = `# Example

Some text with a \`parse_model\` mention.

\`\`\`onnx
<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  y = Neg(x)
}
\`\`\`
`;

/** Line and character of the n-th occurrence (from 0) of `needle` in `text`. */
function at(text: string, needle: string, n = 0, delta = 0): { line: number; character: number } {
  let i = -1;
  for (let k = 0; k <= n; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  const before = text.slice(0, i + delta).split("\n");
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

async function openHost(client: LspClient, uri: string, languageId: string, text: string): Promise<LspDiagnostic[]> {
  const published = client.waitFor(
    "textDocument/publishDiagnostics",
    (p) => (p as { uri: string; diagnostics: unknown[] }).uri === uri && (p as { diagnostics: unknown[] }).diagnostics.length > 0,
  );
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  return ((await published) as { diagnostics: LspDiagnostic[] }).diagnostics;
}

describe("language server: ONNX text in Python, C++ and Markdown files", function () {
  let client: LspClient;
  useServer((c) => {
    client = c;
  });

  it("reports a misspelt op inside a Python string at its place in the file", async () => {
    const diagnostics = await openHost(client, "file:///t/test_shapes.py", "python", PY);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start]),
      [["unknown-op", at(PY, "Sigmoidd")]],
    );
  });

  it("answers hover, definition and completion inside the string, nothing outside", async () => {
    const uri = "file:///t/test_shapes.py";
    const hover = await client.request<{ contents: { value: string }; range: { start: unknown } } | null>("textDocument/hover", {
      textDocument: { uri },
      position: at(PY, "T = Relu"),
    });
    assert.ok(hover, "a hover on T");
    assert.match(hover.contents.value, /float\[N, ?4\]/);
    assert.deepEqual(hover.range.start, at(PY, "T = Relu"));
    const outside = await client.request("textDocument/hover", { textDocument: { uri }, position: at(PY, "compute") });
    assert.equal(outside, null);
    const def = await client.request<{ uri: string; range: { start: unknown } } | { uri: string; range: { start: unknown } }[]>("textDocument/definition", {
      textDocument: { uri },
      position: at(PY, "Sigmoidd(T)", 0, "Sigmoidd(".length),
    });
    const first = Array.isArray(def) ? def[0]! : def;
    assert.equal(first.uri, uri);
    assert.deepEqual(first.range.start, at(PY, "T = Relu"));
  });

  it("formats the string in place with the file's indentation", async () => {
    const uri = "file:///t/test_shapes.py";
    const edits = await client.request<{ range: { start: unknown; end: unknown }; newText: string }[]>("textDocument/formatting", {
      textDocument: { uri },
      options: { tabSize: 4, insertSpaces: true },
    });
    assert.equal(edits.length, 1);
    assert.ok(edits[0]!.newText.includes("\n            agraph (float[N, 4] X) => (float[N, 4] Y) {\n              T = Relu (X)\n"), edits[0]!.newText);
    assert.deepEqual(edits[0]!.range.start, at(PY, '"""\n            <ir', 0, 3));
  });

  it("gives semantic tokens only on the string's lines", async () => {
    const uri = "file:///t/test_shapes.py";
    const tokens = await client.request<{ data: number[] }>("textDocument/semanticTokens/full", { textDocument: { uri } });
    const lines: number[] = [];
    let line = 0;
    for (let i = 0; i < tokens.data.length; i += 5) lines.push((line += tokens.data[i]!));
    assert.ok(lines.length > 5);
    assert.ok(
      lines.every((l) => l >= at(PY, "<ir_version").line && l <= at(PY, "Y = Sigmoidd").line),
      String(lines),
    );
  });

  it("takes names from outside a C++ function body as given, and finds a misspelt op", async () => {
    // `input` and `@lambd` come from the schema around the string: no error for them
    const diagnostics = await openHost(client, "file:///t/defs.cc", "cpp", CPP);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start]),
      [["unknown-op", at(CPP, "Subb")]],
    );
  });

  it("outlines and folds a C++ function body as its nodes, without the function it is read in", async () => {
    const uri = "file:///t/defs.cc";
    const symbols = await client.request<{ name: string; selectionRange: { start: { line: number } } }[]>("textDocument/documentSymbol", {
      textDocument: { uri },
    });
    assert.deepEqual(
      symbols.map((s) => [s.name, s.selectionRange.start.line]),
      [
        ["Lambd", at(CPP, "Lambd =").line],
        ["LambdCast", at(CPP, "LambdCast =").line],
        ["output", at(CPP, "output =").line],
      ],
    );
    const folds = await client.request<{ startLine: number; endLine: number }[]>("textDocument/foldingRange", { textDocument: { uri } });
    assert.deepEqual(
      folds.map((f) => [f.startLine, f.endLine]),
      [[at(CPP, "{").line, at(CPP, "output =").line]],
    );
  });

  it("moves diagnostics with an edit above the string and drops them when it is fixed", async () => {
    const uri = "file:///t/test_shapes.py";
    const moved = client.waitFor(
      "textDocument/publishDiagnostics",
      (p) => (p as { uri: string; version?: number }).uri === uri && (p as { version?: number }).version === 2,
    );
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# a comment\n" }],
    });
    const shifted = PY.replace("import onnx", "# a comment\nimport onnx");
    const m = (await moved) as { diagnostics: LspDiagnostic[] };
    assert.deepEqual(m.diagnostics[0]?.range.start, at(shifted, "Sigmoidd"));
    const pos = at(shifted, "Sigmoidd");
    const fixed = client.waitFor(
      "textDocument/publishDiagnostics",
      (p) => (p as { uri: string; diagnostics: unknown[] }).uri === uri && (p as { diagnostics: unknown[] }).diagnostics.length === 0,
    );
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 3 },
      contentChanges: [{ range: { start: { line: pos.line, character: pos.character + 7 }, end: { line: pos.line, character: pos.character + 8 } }, text: "" }],
    });
    await fixed;
  });

  it("keeps a string's other problems shown while an edit elsewhere in it is analysed", async () => {
    const uri = "file:///t/keep.py";
    await openHost(client, uri, "python", PY);
    const pos = at(PY, "T = Relu(X)", 0, "T = Relu(X)".length);
    client.clearNotifications();
    // the first publication for the edit (sent before any analysis) still has the misspelt op, moved with the text
    const first = client.waitFor(
      "textDocument/publishDiagnostics",
      (p) => (p as { uri: string; version?: number }).uri === uri && (p as { version?: number }).version === 2,
    );
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: pos.line, character: 12 }, end: { line: pos.line, character: 12 } }, text: "  " }],
    });
    const edited = PY.replace("                T = Relu(X)", "                  T = Relu(X)");
    const published = (await first) as { diagnostics: LspDiagnostic[] };
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.range.start]),
      [["unknown-op", at(edited, "Sigmoidd")]],
    );
  });

  it("reads a Markdown fence", async () => {
    const uri = "file:///t/README.md";
    const published = client.waitFor("textDocument/publishDiagnostics", (p) => (p as { uri: string }).uri === uri);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text: MD } });
    assert.deepEqual(published && ((await published) as { diagnostics: unknown[] }).diagnostics, []);
    const hover = await client.request<{ contents: { value: string } } | null>("textDocument/hover", { textDocument: { uri }, position: at(MD, "y = Neg") });
    assert.match(hover?.contents.value ?? "", /float\[2\]/);
  });

  it("runs a fence's model from its Run lens", async () => {
    const uri = "file:///t/README.md";
    const lenses = await client.request<{ range: { start: unknown }; command: { command: string; arguments: unknown[] } }[]>("textDocument/codeLens", {
      textDocument: { uri },
    });
    assert.equal(lenses.length, 1);
    assert.deepEqual(lenses[0]!.range.start, at(MD, "g (float[2] x)"));
    const r = await client.request<{ outputs: { name: string; text: string }[] }>("workspace/executeCommand", {
      command: lenses[0]!.command.command,
      arguments: lenses[0]!.command.arguments,
    });
    assert.deepEqual(
      r.outputs.map((o) => o.name),
      ["y"],
    );
    assert.match(r.outputs[0]!.text, /^float\[2\] \{/);
  });
});
