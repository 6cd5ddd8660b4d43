// Run-cell and formatting over the protocol, with inputs from every documented source.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { create, toBinary } from "@bufbuild/protobuf";
import { TensorProtoSchema } from "../../proto/src/index.js";
import { LspClient, RpcError } from "./lsp-client.js";
import { close, expectFormatting, open, useServer } from "./lsp-helpers.js";

const ADD = `<ir_version: 10, opset_import: ["" : 21]>
add (float[2] a, float[2] b) => (float[2] s) {
  t = Add (a, b)
  s = Mul (t, t)
}
`;

interface RunResult {
  outputs: { name: string; type: string; text: string }[];
  elapsedMs: number;
  inputSources: Record<string, string>;
}

describe("language server: run-cell and formatting", function () {
  let client: LspClient;
  useServer((c) => (client = c));

  const run = (args: unknown) => client.request<RunResult>("workspace/executeCommand", { command: "onnxtxt.run", arguments: [args] });

  it("runs with inputs from the request and shows intermediate values in hovers", async () => {
    const { uri } = await open(client, ADD);
    const r = await run({ uri, inputs: { a: "float[2] {1, 2}", b: "float[2] {3, 4}" } });
    assert.deepEqual(r.outputs, [{ name: "s", type: "float[2]", text: "float[2] {16, 36}" }]);
    assert.ok(r.elapsedMs >= 0);
    const hover = await client.request<{ contents: { value: string } }>("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 2 } });
    assert.ok(hover.contents.value.includes("float[2] {4, 6}"), hover.contents.value);
    close(client, uri);
  });

  it("takes inputs from directives, then test_data_set_0, then defaults", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-run-"));
    try {
      const dataSet = path.join(dir, "test_data_set_0");
      fs.mkdirSync(dataSet);
      const tensor = (vals: number[]) => toBinary(TensorProtoSchema, create(TensorProtoSchema, { dims: [2n], dataType: 1, floatData: vals }));
      fs.writeFileSync(path.join(dataSet, "input_0.pb"), tensor([10, 20]));
      fs.writeFileSync(path.join(dataSet, "input_1.pb"), tensor([1, 1]));
      const uri = pathToFileURL(path.join(dir, "model.onnxtxt")).href;
      const text = `# @input b = float[2] {2, 2}\n${ADD}`;
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const r = await run({ uri });
      assert.deepEqual(r.inputSources, { a: "test_data_set_0", b: "directive" });
      assert.equal(r.outputs[0]!.text, "float[2] {144, 484}");
      close(client, uri);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const { uri } = await open(client, ADD);
    const r = await run({ uri, inputs: { a: "float[2] {0, 0}" } });
    assert.deepEqual(r.inputSources, { a: "request", b: "default" });
    assert.match(r.outputs[0]!.text, /^float\[2\] \{[\d.e-]+, [\d.e-]+\}$/);
    close(client, uri);
  });

  it("runs a model-local function", async () => {
    const text = `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2] x) => (float[2] y) {
  y = local.Twice (x)
}

<domain: "local", opset_import: ["" : 21]>
Twice (x) => (y) {
  y = Add (x, x)
}

<domain: "local", opset_import: ["" : 21]>
Unused (x) => (y) {
  y = Add (x, x)
}
`;
    const { uri } = await open(client, text);
    const r = await run({ uri, graph: "Twice", inputs: { x: "float[2] {1, 5}" } });
    assert.deepEqual(r.outputs, [{ name: "y", type: "float[2]", text: "float[2] {2, 10}" }]);
    // Untyped inputs take the type of the value the main graph calls the function with.
    const derived = await run({ uri, graph: "Twice" });
    assert.deepEqual(derived.inputSources, { x: "default" });
    assert.equal(derived.outputs[0]!.type, "float[2]");
    // A function nothing calls: no type to derive, so the run asks for one.
    await assert.rejects(
      run({ uri, graph: "Unused" }),
      (e: unknown) => e instanceof RpcError && /has no type to make a default value from.*# @input x =/.test(e.message),
    );
    close(client, uri);
  });

  it("tells a client without the run view what a run gave, in a window/showMessage notification (no request that waits for an answer)", async () => {
    const shown = () => client.notifications.filter((n) => n.method === "window/showMessage").map((n) => n.params as { type: number; message: string });
    const before = shown().length;
    const { uri } = await open(client, ADD);
    await run({ uri, inputs: { a: "float[2] {1, 2}", b: "float[2] {3, 4}" } });
    await assert.rejects(run({ uri, graph: "missing" }));
    await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 2 } });
    const [done, failed, ...more] = shown().slice(before);
    assert.equal(more.length, 0);
    assert.equal(done?.type, 3);
    assert.match(done!.message, /^Run finished in \d+ ms\. s: float\[2\] \{16, 36\}$/);
    assert.equal(failed?.type, 1);
    assert.match(failed!.message, /^Run failed: .*no graph or function/);
    assert.deepEqual(
      client.serverRequests.filter((m) => m === "window/showMessageRequest"),
      [],
    );
    close(client, uri);
    // A client that shows runs itself (the VS Code extension's run view) gets no message.
    const withView = new LspClient();
    try {
      await withView.initialize({}, { runView: true });
      const viewUri = "file:///run-view.onnxtxt";
      withView.notify("textDocument/didOpen", { textDocument: { uri: viewUri, languageId: "onnxtxt", version: 1, text: ADD } });
      await withView.request("workspace/executeCommand", {
        command: "onnxtxt.run",
        arguments: [{ uri: viewUri, inputs: { a: "float[2] {1, 2}", b: "float[2] {3, 4}" } }],
      });
      await withView.request("textDocument/hover", { textDocument: { uri: viewUri }, position: { line: 2, character: 2 } });
      assert.deepEqual(
        withView.notifications.filter((n) => n.method.startsWith("window/show")),
        [],
      );
    } finally {
      await withView.shutdown();
    }
  });

  it("answers bad inputs with an error, not a crash", async () => {
    const { uri } = await open(client, ADD);
    await assert.rejects(run({ uri, inputs: { a: "float[2] {1, x}" } }), (e: unknown) => e instanceof RpcError && /input 'a'/.test(e.message));
    await assert.rejects(run({ uri, inputs: { nope: "float {1}" } }), (e: unknown) => e instanceof RpcError && /not an input/.test(e.message));
    await assert.rejects(run({ uri, graph: "missing" }), (e: unknown) => e instanceof RpcError && /no graph or function/.test(e.message));
    close(client, uri);
  });

  it("cancels a stale run when the document is edited", async () => {
    const loop = `<ir_version: 10, opset_import: ["" : 21]>
spin (int64 n, float[1] x) => (float[1] y) {
  cond = Constant <value = bool {1}> ()
  y = Loop (n, cond, x) <body = step (int64 i, bool c, float[1] acc) => (bool c_out, float[1] acc_out) {
    c_out = Identity (c)
    acc_out = Add (acc, acc)
  }>
}
`;
    const { uri } = await open(client, loop);
    const pending = run({ uri, inputs: { n: "int64 {100000000}", x: "float[1] {1}" } });
    await new Promise((r) => setTimeout(r, 200));
    client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: loop + "\n" }] });
    await assert.rejects(pending, (e: unknown) => e instanceof RpcError && /cancelled/.test(e.message));
    close(client, uri);
  });

  it("formats the document as edits, keeping comments", async () => {
    await expectFormatting(
      client,
      `<ir_version: 10, opset_import: ["" : 21]>\nadd (float[2] a, float[2] b) => (float[2] s) {\n  # sum\n  t = Add(a,b)\n  s=Mul (t, t)\n}\n`,
      ADD.replace("  t = Add", "  # sum\n  t = Add"),
    );
  });

  it("formats a range without touching lines outside it", async () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>\nadd (float[2] a, float[2] b) => (float[2] s) {\n  t = Add(a,b)\n  s=Mul (t, t)\n}\n`;
    const { uri } = await open(client, text);
    const edits = await client.request<{ range: { start: { line: number } }; newText: string }[]>("textDocument/rangeFormatting", {
      textDocument: { uri },
      range: { start: { line: 3, character: 0 }, end: { line: 3, character: 5 } },
      options: { tabSize: 2, insertSpaces: true },
    });
    close(client, uri);
    assert.deepEqual(
      edits.map((e) => [e.range.start.line, e.newText]),
      [[3, "  s = Mul (t, t)\n"]],
    );
  });

  it("answers null, not an error, to formatting a document with syntax errors (format on save keeps working)", async () => {
    const { uri } = await open(client, ADD.replace("Mul (t, t)", "Mul (t, t"));
    const edits = await client.request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    assert.equal(edits, null);
    close(client, uri);
  });
});
