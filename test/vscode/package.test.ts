// `npm run package:vscode` end to end: the .vsix holds only what it should, its manifest
// declares the language, grammar, entry point and commands, the client bundle needs nothing
// but VS Code and Node, and the bundled server answers `initialize` run from the unpacked
// .vsix alone.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { packageExtension } from "../../scripts/package-vscode.js";
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
  "extension/dist/extension.cjs",
  "extension/dist/server.cjs",
]);

/** Sends one LSP request over stdio and resolves with the response to it. */
function lspRequest(serverScript: string, cwd: string, method: string, params: unknown): Promise<{ result?: unknown; error?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverScript, "--stdio"], { cwd, env: { PATH: process.env.PATH ?? "" }, stdio: ["pipe", "pipe", "pipe"] });
    let out = Buffer.alloc(0);
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer to ${method} within 20 s; stderr: ${err}`));
    }, 20_000);
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.stdout.on("data", (d: Buffer) => {
      out = Buffer.concat([out, d]);
      const header = /Content-Length: (\d+)\r\n\r\n/.exec(out.toString("latin1"));
      if (!header) return;
      const start = header.index + header[0].length;
      const length = Number(header[1]);
      if (out.length < start + length) return;
      clearTimeout(timer);
      child.kill();
      resolve(JSON.parse(out.subarray(start, start + length).toString("utf8")) as { result?: unknown });
    });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

/** The module names a CommonJS bundle still requires at run time. */
function requiredModules(bundle: string): Set<string> {
  return new Set([...bundle.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
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
    assert.deepEqual(names.filter((n) => !ALLOWED.has(n)), []);
    assert.deepEqual([...ALLOWED].filter((n) => !entries.has(n)), []);
  });

  it("declares the language, the grammar, an entry point and the three commands", () => {
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
    for (const c of ["onnxtxt.convertToBinary", "onnxtxt.openAsText", "onnxtxt.run"]) assert.ok(commands.includes(c), c);
  });

  it("bundles the client so it needs only vscode and Node's own modules", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const bundle of ["extension/dist/extension.cjs", "extension/dist/server.cjs"]) {
      const needed = [...requiredModules(entries.get(bundle)!.toString("utf8"))].filter((m) => !builtins.has(m) && m !== "vscode");
      assert.deepEqual(needed, [], bundle);
    }
    assert.ok(requiredModules(entries.get("extension/dist/extension.cjs")!.toString("utf8")).has("vscode"));
  });

  it("loads the client bundle against a stand-in vscode module and exports activate/deactivate", () => {
    const bundle = path.join(dir, "unpacked/extension/dist/extension.cjs");
    const loaded = withStubVscode(() => createRequire(bundle)(bundle) as { activate?: unknown; deactivate?: unknown });
    assert.equal(typeof loaded.activate, "function");
    assert.equal(typeof loaded.deactivate, "function");
  });

  it("runs the bundled server from the unpacked .vsix alone: it answers initialize", async () => {
    const server = path.join(dir, "unpacked/extension/dist/server.cjs");
    const answer = await lspRequest(server, dir, "initialize", { processId: null, rootUri: null, capabilities: {} });
    assert.equal(answer.error, undefined);
    const result = answer.result as { capabilities?: { textDocumentSync?: unknown; executeCommandProvider?: { commands?: string[] } } };
    assert.ok(result.capabilities?.textDocumentSync !== undefined, "no text document sync");
    assert.ok(result.capabilities?.executeCommandProvider?.commands?.includes("onnxtxt.run"), "the server does not offer onnxtxt.run");
  });
});
