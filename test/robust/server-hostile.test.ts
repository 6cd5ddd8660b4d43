// Issue #22 items 7, 12 and 14 in the language server: run-cell reads test_data_set_0 without
// blocking and under the CLI's rules (a FIFO or a link to /dev/zero is an error, and the server
// keeps answering); a byte order mark means the same to the server as to `check`; malformed
// params answer InvalidParams with a one-line reason and log no stack trace.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { LspClient, RpcError } from "../server/lsp-client.js";
import { close, useServer } from "../server/lsp-helpers.js";
import { runCli } from "../helpers/cli.js";

const ADD = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] a, float[2] b) => (float[2] s) {
  s = Add (a, b)
}
`;
const INVALID_PARAMS = -32602;

interface LogMessage {
  type: number;
  message: string;
}

describe("language server against hostile files and params (#22 items 7, 12, 14)", function () {
  this.timeout(60_000);
  let client: LspClient;
  useServer((c) => (client = c));

  const run = (uri: string) => client.request("workspace/executeCommand", { command: "onnxtxt.run", arguments: [{ uri }] });
  const logs = (): string[] => client.notifications.filter((n) => n.method === "window/logMessage").map((n) => (n.params as LogMessage).message);

  /** Opens `text` as model.onnxtxt in a new folder whose test_data_set_0 holds input_0.pb made by `plant`. */
  async function withDataSet(plant: (input0: string) => void, check: (uri: string) => Promise<void>): Promise<void> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-hostile-"));
    try {
      fs.mkdirSync(path.join(dir, "test_data_set_0"));
      plant(path.join(dir, "test_data_set_0", "input_0.pb"));
      const uri = pathToFileURL(path.join(dir, "model.onnxtxt")).href;
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: ADD } });
      await check(uri);
      close(client, uri);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  async function assertRunRefused(uri: string, reason: RegExp): Promise<void> {
    const answer = await Promise.race([
      run(uri).then(
        () => "answered",
        (e: unknown) => e,
      ),
      new Promise((resolve) => setTimeout(() => resolve("timed out"), 10_000)),
    ]);
    assert.ok(answer instanceof RpcError, `the run ${String(answer)}`);
    assert.match(answer.message, reason);
    // The server is alive and answering.
    const hover = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 3 } });
    assert.ok(hover !== undefined);
  }

  it("7: a FIFO as input_0.pb is an error at once; the server keeps answering", async () => {
    await withDataSet(
      (f) => spawnSync("mkfifo", [f]),
      (uri) => assertRunRefused(uri, /input_0\.pb: is a FIFO \(named pipe\), not a regular file/),
    );
  });

  it("7: a link to /dev/zero, or a hard link to a file elsewhere, is refused", async () => {
    await withDataSet(
      (f) => fs.symlinkSync("/dev/zero", f),
      (uri) => assertRunRefused(uri, /input_0\.pb: is a link to a file outside test_data_set_0/),
    );
    const elsewhere = path.join(os.tmpdir(), `onnxtxt-ls-elsewhere-${process.pid}.pb`);
    fs.writeFileSync(elsewhere, new Uint8Array([8, 2, 16, 1]));
    try {
      await withDataSet(
        (f) => fs.linkSync(elsewhere, f),
        (uri) => assertRunRefused(uri, /input_0\.pb: has 2 hard links/),
      );
    } finally {
      fs.rmSync(elsewhere, { force: true });
    }
  });

  it("12: a file starting with a byte order mark: no error in the server, none in check", async () => {
    const text = `\uFEFF${ADD}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-bom-"));
    try {
      const file = path.join(dir, "bom.onnxtxt");
      fs.writeFileSync(file, text);
      const checked = runCli(["check", file]);
      assert.deepEqual([checked.code, checked.stderr], [0, ""]);
      const uri = pathToFileURL(file).href;
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const published = (await client.waitFor("textDocument/publishDiagnostics", (p) => (p as { uri: string }).uri === uri)) as { diagnostics: unknown[] };
      assert.deepEqual(published.diagnostics, []);
      close(client, uri);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("14: malformed params answer InvalidParams with one line, and log no stack trace", async () => {
    const uri = "file:///hostile/params.onnxtxt";
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: ADD } });
    const before = logs().length;
    const requests: [string, unknown][] = [
      ["textDocument/hover", { textDocument: { uri }, position: null }],
      ["textDocument/hover", "x"],
      ["textDocument/hover", { textDocument: null, position: { line: 0, character: 0 } }],
      ["textDocument/definition", { textDocument: { uri }, position: { line: -1, character: 0 } }],
      ["textDocument/references", { textDocument: { uri }, position: { line: 0, character: 0 } }],
      ["textDocument/completion", { textDocument: { uri }, position: { line: "0", character: 0 } }],
      ["textDocument/rename", { textDocument: { uri }, position: { line: 2, character: 2 }, newName: null }],
      ["textDocument/formatting", { textDocument: { uri: 5 } }],
      ["textDocument/rangeFormatting", { textDocument: { uri }, range: null }],
      [
        "textDocument/codeAction",
        { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: "zz" } },
      ],
      ["textDocument/inlayHint", { textDocument: { uri }, range: { start: null, end: null } }],
      ["textDocument/documentSymbol", "x"],
      ["textDocument/codeLens", null],
      ["textDocument/rangeFormatting", null],
      ["textDocument/semanticTokens/full", [1, 2]],
      ["textDocument/foldingRange", 42],
      ["workspace/symbol", { query: 3 }],
      ["workspace/executeCommand", { command: null }],
    ];
    for (const [method, params] of requests) {
      const e = await client.request(method, params).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(e instanceof RpcError, `${method} ${JSON.stringify(params)} was answered`);
      assert.equal(e.code, INVALID_PARAMS, `${method} ${JSON.stringify(params)}: ${e.message}`);
      assert.doesNotMatch(e.message, /\n/, e.message);
    }
    // Malformed notifications cannot be answered: they are ignored with a one-line log entry.
    client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: "zz" });
    client.notify("textDocument/didChange", { textDocument: { uri, version: 3 }, contentChanges: [{ text: null }] });
    client.notify("textDocument/didChange", { textDocument: null, contentChanges: [] });
    client.notify("textDocument/didOpen", { textDocument: { uri: "file:///x.onnxtxt", text: null } });
    client.notify("textDocument/didClose", { textDocument: null });
    // Still serving, with the text it had.
    const hover = await client.request<{ contents: { value: string } } | null>("textDocument/hover", {
      textDocument: { uri },
      position: { line: 2, character: 2 },
    });
    assert.ok(hover?.contents.value.includes("float"), JSON.stringify(hover));
    const logged = logs().slice(before);
    assert.ok(logged.length >= 5, logged.join("\n"));
    for (const line of logged) assert.doesNotMatch(line, /\n\s+at /, line);
    close(client, uri);
  });
});

describe("format with a comment inside a dimension list (#22 item 12)", function () {
  this.timeout(60_000);
  it("is idempotent whatever blanks trail the comment", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-fmt-"));
    try {
      for (const [i, comment] of ["# c   \n", "# c \t\n", "#  \n", "# c  \r\n", "\n  # c   \n"].entries()) {
        const file = path.join(dir, `m${i}.onnxtxt`);
        fs.writeFileSync(file, `\uFEFF<ir_version: 10, opset_import: ["" : 21]>\ng (float[N, ${comment} 4] x) => (float[N, 4] y) {\n  y = Relu (x)\n}\n`);
        const once = runCli(["format", file]);
        assert.equal(once.code, 0, once.stderr);
        fs.writeFileSync(file, once.stdout);
        const twice = runCli(["format", file]);
        assert.equal(twice.stdout, once.stdout, JSON.stringify(comment));
        assert.match(once.stdout, /# c|#/);
      }
      // Found by `npm run fuzz` (seed 1): comments right after the `[` of an output's type.
      const file = path.join(dir, "fuzz.onnxtxt");
      fs.writeFileSync(file, '<ir_version: 7, opset_import: ["" : 13]>\ng (int16[3,4,5] x) => (bool[#\t \n# c  \n3,4,5] y) {\n   y = Greater (x, x)\n}\n');
      const once = runCli(["format", file]);
      assert.equal(once.code, 0, once.stderr);
      fs.writeFileSync(file, once.stdout);
      assert.equal(runCli(["format", file]).stdout, once.stdout);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
