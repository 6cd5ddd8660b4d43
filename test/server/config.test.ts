// The language server and `onnxtxt check` under one configuration: the diagnostics published for
// a document equal the lines check prints, with the nearest onnxtxt.toml and inline suppressions
// applied; a change of onnxtxt.toml (workspace/didChangeWatchedFiles) changes them without a restart.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { LIGHT, REPO } from "../helpers/paths.js";
import { applyEdits, offsetOf } from "../helpers/markers.js";
import type { LspClient } from "./lsp-client.js";
import { useServer, type LspDiagnostic } from "./lsp-helpers.js";

const SEVERITY = ["", "error", "warning", "info", "hint"];

function asCliLine(file: string, d: LspDiagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity ?? 1]}: ${d.message} [${d.code}]`;
}

// examples/mlp.onnxtxt with two unused inputs, an unused node output and suppressions: one used,
// one unused, one with an unknown code
const TEXT = fs
  .readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8")
  .replace("(float[N, 4] x)", "(float[N, 4] x, float[N] spare,\n  # onnxtxt: ignore[unused-input]\n  float[N] other)")
  .replace("  h = Relu (h1)\n", "  h = Relu (h1)\n  dead = Relu (h1)  # onnxtxt: ignore[redefinition, no-such-rule]\n");

describe("language server: the same diagnostics as check under a configuration", function () {
  this.timeout(60_000);
  let client: LspClient;
  useServer((c) => {
    client = c;
  });

  it("agrees with check before and after onnxtxt.toml changes, without a restart", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-config-"));
    try {
      const file = path.join(work, "models", "m.onnxtxt");
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, TEXT);
      const config = path.join(work, "onnxtxt.toml");
      fs.writeFileSync(config, '[severity]\nunused-input = "error"\nunused-suppression = "info"\n');
      const cli = () =>
        runCli(["check", file])
          .stderr.split("\n")
          .filter((l) => l.startsWith(file))
          .sort();
      const expected = cli();
      assert.deepEqual(expected.map((l) => / (\w+): .*\[([a-z-]+)\]$/.exec(l)!.slice(1).join(" ")).sort(), [
        "error unused-input",
        "info unused-suppression",
        "warning unknown-suppression-code",
        "warning unused-value",
      ]);
      const uri = `file://${file}`;
      const publishedWith = (n: number) =>
        client.waitFor("textDocument/publishDiagnostics", (p) => {
          const q = p as { uri: string; diagnostics: LspDiagnostic[] };
          return q.uri === uri && q.diagnostics.length === n && q.diagnostics.every((d) => d.code !== "syntax");
        });
      const first = publishedWith(expected.length);
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: TEXT } });
      const got = ((await first) as { diagnostics: LspDiagnostic[] }).diagnostics.map((d) => asCliLine(file, d)).sort();
      assert.deepEqual(got, expected);

      // the warnings group off: only the suppression warnings stay, in both
      fs.writeFileSync(config, 'ignore = ["warnings"]\n');
      const after = cli();
      assert.equal(after.length, 2, after.join("\n"));
      const second = publishedWith(after.length);
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: `file://${config}`, type: 2 }] });
      const got2 = ((await second) as { diagnostics: LspDiagnostic[] }).diagnostics.map((d) => asCliLine(file, d)).sort();
      assert.deepEqual(got2, after);

      // the editor's formatting uses the configured line-width, as `format` does
      fs.writeFileSync(config, "line-width = 40\n");
      client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: `file://${config}`, type: 2 }] });
      const edits = await client.request<
        { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]
      >("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
      const formatted = applyEdits(
        TEXT,
        edits.map((e) => ({ start: offsetOf(TEXT, e.range.start), end: offsetOf(TEXT, e.range.end), newText: e.newText })),
      );
      const cliFormatted = runCli(["format", file]).stdout;
      assert.notEqual(cliFormatted, runCli(["format", "--isolated", file]).stdout);
      assert.equal(formatted, cliFormatted);
      client.notify("textDocument/didClose", { textDocument: { uri } });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("offers no quick fix for a diagnostic a suppression hides, as check --fix applies none", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-config-"));
    try {
      // SqueezeNet with two misspelled uses, the first one's error suppressed
      const printed = runCli(["print", path.join(LIGHT, "light_squeezenet.onnx")]);
      assert.equal(printed.code, 0, printed.stderr);
      const text = printed.stdout
        .replace("r4 = Relu (r3)\n", "r4 = Relu (r3x)  # onnxtxt: ignore[undefined-value]\n")
        .replace("r8 = Relu (r7)\n", "r8 = Relu (r7x)\n");
      assert.notEqual(text.indexOf("r3x"), -1);
      assert.notEqual(text.indexOf("r7x"), -1);
      const file = path.join(work, "squeezenet.onnxtxt");
      fs.writeFileSync(file, text);
      // check reports the second one only, and --fix --unsafe-fixes mends that one only
      const expected = runCli(["check", file])
        .stderr.split("\n")
        .filter((l) => l.startsWith(file));
      const errors = expected.filter((l) => l.includes(": error: "));
      assert.equal(errors.length, 1, expected.join("\n"));
      assert.match(errors[0]!, /: error: .*'r7x'.*\[undefined-value\]$/);
      assert.equal(runCli(["check", "--fix", "--unsafe-fixes", file]).code, 0);
      assert.equal(fs.readFileSync(file, "utf8"), text.replace("(r7x)", "(r7)"));
      const uri = `file://${file}`;
      const published = client.waitFor("textDocument/publishDiagnostics", (p) => {
        const q = p as { uri: string; diagnostics: LspDiagnostic[] };
        return q.uri === uri && q.diagnostics.some((d) => d.code === "undefined-value");
      });
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const diagnostics = ((await published) as { diagnostics: LspDiagnostic[] }).diagnostics;
      // The same error (the editor has the fix where check says "did you mean"); the suppression is used.
      const withoutSuggestion = errors.map((l) => l.replace(/; did you mean '\w+'\?/, ""));
      const shown = diagnostics.map((d) => asCliLine(file, d));
      assert.deepEqual(
        shown.filter((l) => l.includes(": error: ")),
        withoutSuggestion,
      );
      assert.ok(!shown.some((l) => l.includes("unused-suppression")), shown.join("\n"));
      const lines = text.split("\n");
      const everything = { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: 0 } };
      const actions = await client.request<{ title: string }[]>("textDocument/codeAction", {
        textDocument: { uri },
        range: everything,
        context: { diagnostics },
      });
      const changes = actions.map((a) => a.title).filter((t) => t.startsWith("Change '"));
      assert.deepEqual(changes, ["Change 'r7x' to 'r7'"]);
      // the lightbulb on the suppressed line itself
      const line = lines.findIndex((l) => l.includes("(r3x)"));
      const there = await client.request<{ title: string }[]>("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: { line, character: 0 }, end: { line, character: lines[line]!.length } },
        context: { diagnostics: [] },
      });
      assert.deepEqual(
        there.map((a) => a.title).filter((t) => t.includes("r3x")),
        [],
      );
      client.notify("textDocument/didClose", { textDocument: { uri } });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("a configuration with a mistake is shown to the user, and the document is checked without it", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-config-"));
    try {
      const file = path.join(work, "m.onnxtxt");
      fs.writeFileSync(file, TEXT);
      fs.writeFileSync(path.join(work, "onnxtxt.toml"), "line-widht = 80\n");
      const shown = client.waitFor("window/showMessage", (p) => (p as { message: string }).message.includes("line-widht"));
      const uri = `file://${file}`;
      // the CLI refuses to run with it; the editor goes on as if there were none
      assert.equal(runCli(["check", file]).code, 2);
      const isolated = runCli(["check", "--isolated", file])
        .stderr.split("\n")
        .filter((l) => l.startsWith(file))
        .sort();
      const published = client.waitFor("textDocument/publishDiagnostics", (p) => {
        const q = p as { uri: string; diagnostics: LspDiagnostic[] };
        return q.uri === uri && q.diagnostics.length === isolated.length;
      });
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: TEXT } });
      const message = ((await shown) as { message: string }).message;
      assert.match(message, /onnxtxt\.toml:1:1: error: unknown key 'line-widht'/);
      const got = ((await published) as { diagnostics: LspDiagnostic[] }).diagnostics.map((d) => asCliLine(file, d)).sort();
      assert.deepEqual(got, isolated);
      client.notify("textDocument/didClose", { textDocument: { uri } });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
