// `npm run package:vscode` end to end: the .vsix holds only what it should, its manifest
// declares the language, grammar, entry point and commands, the client bundle needs nothing
// but VS Code and Node, and the bundled server answers `initialize` run from the unpacked
// .vsix alone.
import * as assert from "node:assert/strict";
import { fork } from "node:child_process";
import * as fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { runCell, type RunHost } from "../../client-vscode/src/run-cell.js";
import type { RunFailure } from "../../client-vscode/src/run-protocol.js";
import { renderRunView, type RunViewModel } from "../../client-vscode/src/run-view.js";
import { packageExtension } from "../../scripts/package-vscode.js";
import { applyEdits, offsetOf } from "../helpers/markers.js";
import { REPO } from "../helpers/paths.js";
import { LspClient } from "../server/lsp-client.js";
import { readZip } from "./zip.js";

interface Manifest {
  main: string;
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    commands: { command: string }[];
  };
}

const ALLOWED = new Set([
  "[Content_Types].xml",
  "extension.vsixmanifest",
  "extension/package.json",
  "extension/readme.md",
  "extension/LICENSE.txt",
  "extension/language-configuration.json",
  "extension/syntaxes/onnxtxt.tmLanguage.json",
  "extension/syntaxes/onnxtxt.injection.python.tmLanguage.json",
  "extension/syntaxes/onnxtxt.injection.cpp.tmLanguage.json",
  "extension/syntaxes/onnxtxt.injection.markdown.tmLanguage.json",
  "extension/dist/extension.cjs",
  "extension/dist/server.js",
  "extension/dist/server-main.cjs",
  "extension/dist/run-worker.js",
  "extension/dist/helper.js",
  "extension/dist/graph-view.js",
  "extension/dist/elk-worker.js",
  // VS Code for the Web: the client for the web extension host, the server and its run worker.
  "extension/dist/browser-extension.js",
  "extension/dist/browser-server.js",
  "extension/dist/run-worker-browser.js",
]);

/** The module names a bundle still loads at run time: require(), and for ESM import ... from and import(). */
function requiredModules(bundle: string, esm: boolean): Set<string> {
  const patterns = [/\brequire\(\s*["']([^"']+)["']\s*\)/g, ...(esm ? [/\}\s*from\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g] : [])];
  return new Set(patterns.flatMap((re) => [...bundle.matchAll(re)].map((m) => m[1]!)));
}

/** A RunHost whose requests go to a real server over LSP; everything shown is kept. */
function lspRunHost(client: LspClient, texts: Record<string, string>): RunHost & { shown: RunViewModel[]; marks: (RunFailure | undefined)[] } {
  const shown: RunViewModel[] = [];
  const marks: (RunFailure | undefined)[] = [];
  return {
    shown,
    marks,
    activeDocumentUri: () => undefined,
    documentText: (uri) => texts[uri],
    execute: (args) => client.request("workspace/executeCommand", { command: "onnxtxt.run", arguments: [args] }),
    show: (m) => void shown.push(m),
    markFailure: (_uri, f) => void marks.push(f),
    error: (m) => assert.fail(m),
  };
}

/** Anything at all: every property, call and construction gives another stand-in. */
function standIn(): unknown {
  const target = function () {} as unknown as object;
  const proxy: unknown = new Proxy(target, {
    get: (_t, key) => (key === Symbol.toPrimitive ? () => "" : proxy),
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

/** Runs `fn` with `require("vscode")` answered by a stand-in (VS Code provides it at run time). */
function withStubVscode<T>(fn: () => T): T {
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = mod._load;
  mod._load = (request, ...rest) => (request === "vscode" ? standIn() : original(request, ...rest));
  try {
    return fn();
  } finally {
    mod._load = original;
  }
}

describe("npm run package:vscode", function () {
  this.timeout(240_000);
  let dir: string;
  let entries: Map<string, Buffer>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-vsix-"));
    const vsix = await packageExtension(path.join(dir, "onnxtxt.vsix"), true);
    entries = readZip(fs.readFileSync(vsix));
    const unpacked = path.join(dir, "unpacked");
    for (const [name, data] of entries) {
      if (name.endsWith("/")) continue;
      fs.mkdirSync(path.dirname(path.join(unpacked, name)), { recursive: true });
      fs.writeFileSync(path.join(unpacked, name), data);
    }
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("holds only the manifest, bundles, grammar, language configuration, README and LICENSE", () => {
    const names = [...entries.keys()].filter((n) => !n.endsWith("/"));
    assert.deepEqual(
      names.filter((n) => !ALLOWED.has(n)),
      [],
    );
    assert.deepEqual(
      [...ALLOWED].filter((n) => !entries.has(n)),
      [],
    );
  });

  it("declares the language, the grammar, an entry point and the four commands", () => {
    const manifest = JSON.parse(entries.get("extension/package.json")!.toString("utf8")) as Manifest;
    const language = manifest.contributes.languages.find((l) => l.id === "onnxtxt");
    assert.ok(language, "no onnxtxt language");
    assert.ok(language.extensions.includes(".onnxtxt"));
    assert.ok(entries.has(path.posix.join("extension", language.configuration)));
    const grammar = manifest.contributes.grammars.find((g) => g.language === "onnxtxt");
    assert.equal(grammar?.scopeName, "source.onnxtxt");
    assert.ok(entries.has(path.posix.join("extension", grammar.path)), "the grammar file is in the package");
    assert.ok(entries.has(path.posix.join("extension", manifest.main)), "the entry point is in the package");
    const commands = manifest.contributes.commands.map((c) => c.command);
    for (const c of ["onnxtxt.convertToBinary", "onnxtxt.openAsText", "onnxtxt.run", "onnxtxt.showGraph"]) assert.ok(commands.includes(c), c);
  });

  it("bundles the client so it needs only vscode and Node's own modules", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const bundle of [
      "extension/dist/extension.cjs",
      "extension/dist/server.js",
      "extension/dist/server-main.cjs",
      "extension/dist/run-worker.js",
      "extension/dist/helper.js",
    ]) {
      const needed = [...requiredModules(entries.get(bundle)!.toString("utf8"), bundle.endsWith(".js"))].filter((m) => !builtins.has(m) && m !== "vscode");
      assert.deepEqual(needed, [], bundle);
    }
    assert.ok(requiredModules(entries.get("extension/dist/extension.cjs")!.toString("utf8"), false).has("vscode"));
    assert.ok(requiredModules(entries.get("extension/dist/server.js")!.toString("utf8"), true).has("node:module"), "the ESM server makes its own require");
  });

  it("bundles the web build with nothing of Node's: the client needs only vscode, the workers nothing", () => {
    // lodash (Chevrotain's) probes module.require("util") inside a try; nothing else may be required.
    const client = [...requiredModules(entries.get("extension/dist/browser-extension.js")!.toString("utf8"), false)].filter((m) => m !== "util");
    assert.deepEqual(client, ["vscode"]);
    for (const worker of ["extension/dist/browser-server.js", "extension/dist/run-worker-browser.js"]) {
      const text = entries.get(worker)!.toString("utf8");
      assert.deepEqual(
        [...requiredModules(text, false)].filter((m) => m !== "util"),
        [],
        worker,
      );
      assert.doesNotMatch(text, /["']node:[a-z_]+["']/, `${worker} names a Node built-in`);
    }
    const manifest = JSON.parse(entries.get("extension/package.json")!.toString("utf8")) as { browser?: string };
    assert.equal(manifest.browser, "./dist/browser-extension.js");
  });

  it("loads the client bundle against a stand-in vscode module and exports activate/deactivate", () => {
    const bundle = path.join(dir, "unpacked/extension/dist/extension.cjs");
    const loaded = withStubVscode(() => createRequire(bundle)(bundle) as { activate?: unknown; deactivate?: unknown });
    assert.equal(typeof loaded.activate, "function");
    assert.equal(typeof loaded.deactivate, "function");
  });

  describe("the bundled server, run from the unpacked .vsix alone", () => {
    let client: LspClient;
    before(async () => {
      client = new LspClient(["--stdio"], path.join(dir, "unpacked/extension/dist/server.js"));
    });
    after(async () => client?.shutdown());

    it("answers initialize", async () => {
      const result = await client.initialize();
      assert.ok(result.capabilities.textDocumentSync !== undefined, "no text document sync");
      const commands = (result.capabilities.executeCommandProvider as { commands?: string[] } | undefined)?.commands;
      assert.ok(commands?.includes("onnxtxt.run"), "the server does not offer onnxtxt.run");
    });

    it("answers initialize over Node IPC, the transport VS Code starts it with", async () => {
      const child = fork(path.join(dir, "unpacked/extension/dist/server.js"), ["--node-ipc"], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "" },
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      try {
        const answer = await new Promise<{ id?: number; result?: { capabilities?: Record<string, unknown> } }>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no answer over IPC within 20 s")), 20_000);
          child.on("message", (m: { id?: number }) => {
            if (m.id === 1) {
              clearTimeout(timer);
              resolve(m);
            }
          });
          child.on("error", reject);
          child.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } });
        });
        assert.ok(answer.result?.capabilities?.documentFormattingProvider, "no formatting provider: format on save needs it");
      } finally {
        child.kill();
      }
    });

    it("runs with a code cache the first session writes when it ends and the next takes as it is", async () => {
      const cache = path.join(dir, "code-cache");
      const session = async (): Promise<unknown> => {
        const c = new LspClient(["--stdio"], path.join(dir, "unpacked/extension/dist/server.js"), [], { ...process.env, ONNXTXT_COMPILE_CACHE: cache });
        try {
          return (await c.initialize()).capabilities;
        } finally {
          await c.shutdown();
        }
      };
      const first = await session();
      const files = fs.readdirSync(cache).filter((f) => f.endsWith("-vscode-server.cache"));
      assert.equal(files.length, 1, "no cache written");
      const written = fs.readFileSync(path.join(cache, files[0]!));
      assert.deepEqual(await session(), first);
      // V8 took it: a rejected cache would have been written again.
      assert.ok(fs.readFileSync(path.join(cache, files[0]!)).equals(written), "the cache was rewritten");
    });

    it("formats a document, which is what format on save asks", async () => {
      const uri = "file:///tmp/onnxtxt-vsix/messy.onnxtxt";
      const text = '<ir_version: 10, opset_import: ["" : 21]>\nmessy (float[2] x) => (float[2] y) {\n        y = Relu(x)\n}\n';
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const edits = await client.request<
        { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]
      >("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
      assert.ok(edits.length > 0, "no edits for a badly indented document");
      const formatted = applyEdits(
        text,
        edits.map((e) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), newText: e.newText })),
      );
      assert.ok(/\n  y = Relu \(x\)\n/.test(formatted), formatted);
    });

    it("runs a graph for onnxtxt.run (in its worker) and the view shows the output table", async () => {
      const uri = "file:///tmp/onnxtxt-vsix/mlp.onnxtxt";
      const text = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8") + "# @input x = float[2, 4] {1, 2, 3, 4, 5, 6, 7, 8}\n";
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const host = lspRunHost(client, { [uri]: text });
      const model = await runCell([{ uri, graph: "mlp" }], host, 100);
      assert.equal(model?.failure, undefined, model?.failure?.message ?? "");
      assert.deepEqual(
        model?.outputs.map((o) => [o.name, o.type]),
        [["y", "float[2, 2]"]],
      );
      assert.deepEqual(model?.inputSources, { x: "directive" });
      const html = renderRunView(model!, "N", "c");
      assert.ok(html.includes("shape [2, 2], 4 elements of float"), html);
      assert.equal(html.match(/<td>/g)?.length, 4);
    });

    it("reports a failing node at its place in the document", async () => {
      const uri = "file:///tmp/onnxtxt-vsix/fails.onnxtxt";
      const text = [
        '<ir_version: 10, opset_import: ["" : 21]>',
        "fails (float[2, 3] x, int64[1] shape) => (float[7] y) {",
        "  h = Relu (x)",
        "  [bad] y = Reshape (h, shape)",
        "}",
        "# @input shape = int64[1] {7}",
        "",
      ].join("\n");
      client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
      const host = lspRunHost(client, { [uri]: text });
      const model = await runCell([{ uri }], host, 100);
      assert.ok(model?.failure, "the run should fail");
      assert.match(model.failure.message, /bad/);
      assert.equal(model.failure.range?.start.line, 3, JSON.stringify(model.failure));
      assert.equal(host.marks.at(-1)?.range?.start.line, 3);
      assert.ok(renderRunView(model, "N", "c").includes("Run failed at node <code>bad (Reshape)</code> (line 4)"));
    });
  });
});
