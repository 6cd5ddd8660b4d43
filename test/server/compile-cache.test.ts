// bin/onnxtxt-ls.js runs the server's bundle with a code cache (core/src/node/code-cache.ts): the
// first session writes it when it ends, the next one starts from it without rewriting it (V8
// took it), and both answer a real network's requests as the compiled modules do.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { LIGHT, REPO } from "../helpers/paths.js";
import { LspClient, SERVER_BIN } from "./lsp-client.js";

const MODULES = path.join(REPO, "dist/server/src/main.js");
// SqueezeNet with a misspelt op: diagnostics, a hover, the outline and the tokens to compare.
const TEXT = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_squeezenet.onnx")))).replace("= Relu (", "= Relu_ (");

/** One session on TEXT with the server `script` (undefined: bin/onnxtxt-ls.js); what it answered. */
async function session(cacheDir: string, script?: string): Promise<unknown[]> {
  const client = new LspClient(["--stdio"], script ?? SERVER_BIN, [], { ...process.env, ONNXTXT_COMPILE_CACHE: cacheDir });
  try {
    await client.initialize();
    const uri = "file:///tmp/onnxtxt-cache/squeezenet.onnxtxt";
    const checked = client.waitFor("textDocument/publishDiagnostics", (p) =>
      (p as { diagnostics: { code?: string }[] }).diagnostics.some((d) => d.code === "unknown-op"),
    );
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: TEXT } });
    const doc = { textDocument: { uri } };
    const line = TEXT.split("\n").findIndex((l) => l.includes(" = Conv <"));
    return [
      await checked,
      await client.request("textDocument/hover", { ...doc, position: { line, character: 4 } }),
      await client.request("textDocument/documentSymbol", doc),
      await client.request("textDocument/semanticTokens/full", doc),
    ];
  } finally {
    await client.shutdown();
  }
}

const cacheFiles = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith("-language-server.cache")) : []);

describe("the language server's code cache", function () {
  this.timeout(120_000);
  let tmp: string;

  before(() => {
    const bundle = path.join(REPO, "dist/server/src/main.bundle.cjs");
    assert.ok(fs.statSync(bundle).mtimeMs >= fs.statSync(path.join(REPO, "dist/.tsbuildinfo")).mtimeMs, "the server bundle is older than the tsc build");
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-cache-"));
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it("is written when a first session ends and taken by the next, which answers as the modules do", async () => {
    const expected = await session(path.join(tmp, "modules"), MODULES);
    assert.deepEqual(cacheFiles(path.join(tmp, "modules")), [], "the modules wrote a cache");
    const dir = path.join(tmp, "bundle");
    assert.deepEqual(await session(dir), expected);
    const [file] = cacheFiles(dir);
    assert.ok(file, "no cache written");
    if (process.platform !== "win32") assert.equal(fs.statSync(path.join(dir, file)).mode & 0o077, 0, "the cache file is open to others");
    const first = fs.readFileSync(path.join(dir, file));
    assert.deepEqual(await session(dir), expected);
    // A rejected cache would have been written again, from a session that compiled more.
    assert.ok(fs.readFileSync(path.join(dir, file)).equals(first), "the cache was rewritten: V8 rejected it");
  });
});
