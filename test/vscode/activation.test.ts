// The activation layer (extension.ts and its VS Code adapters), bundled against stand-ins for
// `vscode` and `vscode-languageclient`: what it registers, and the commands driven end to end.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { encodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { CLIENT_ENTRY } from "../../scripts/package-vscode.js";
import { REPO } from "../helpers/paths.js";
import * as lc from "./stubs/languageclient.js";
import * as vscode from "./stubs/vscode.js";

const STUBS = path.join(path.dirname(fileURLToPath(import.meta.url)), "stubs");
const MLP = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8");
const bytes = (u: vscode.Uri) => vscode.recorded.files.get(u.toString());

interface Extension {
  activate(context: { subscriptions: unknown[]; asAbsolutePath(p: string): string }): Promise<void>;
  deactivate(): Promise<void>;
}

describe("extension activation (against a stand-in VS Code)", function () {
  this.timeout(60_000);
  let dir: string;
  let ext: Extension;
  const context = { subscriptions: [] as unknown[], asAbsolutePath: (p: string) => path.join("/ext", p) };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-activation-"));
    const out = path.join(dir, "extension.mjs");
    await build({
      entryPoints: [CLIENT_ENTRY],
      outfile: out,
      bundle: true,
      format: "esm",
      platform: "node",
      logLevel: "error",
      plugins: [
        {
          name: "stand-ins",
          setup(b) {
            b.onResolve({ filter: /^vscode$/ }, () => ({ path: pathToFileURL(path.join(STUBS, "vscode.js")).href, external: true }));
            b.onResolve({ filter: /^vscode-languageclient(\/node)?$/ }, () => ({
              path: pathToFileURL(path.join(STUBS, "languageclient.js")).href,
              external: true,
            }));
          },
        },
      ],
    });
    ext = (await import(pathToFileURL(out).href)) as Extension;
    vscode.recorded.reset();
    lc.clients.length = 0;
    vscode.recorded.settings.set("onnxtxt.run.maxTensorElements", 3);
    await ext.activate(context);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("starts the bundled server only once an onnxtxt document opens, with the settings", async () => {
    assert.equal(lc.clients.length, 0, "activation alone starts no server");
    const doc = { uri: vscode.Uri.file("/w/a.onnxtxt"), fileName: "/w/a.onnxtxt", languageId: "onnxtxt", getText: () => MLP };
    for (const l of vscode.recorded.openListeners) l({ ...doc, languageId: "plaintext" });
    assert.equal(lc.clients.length, 0, "other documents start nothing");
    for (const l of vscode.recorded.openListeners) l(doc);
    for (const l of vscode.recorded.openListeners) l(doc);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(lc.clients.length, 1, "one server, however many documents");
    const client = lc.clients[0]!;
    assert.ok(client.started);
    assert.equal(client.serverOptions.run.module, "/ext/dist/server.js");
    assert.equal(client.serverOptions.run.transport, lc.TransportKind.ipc);
    // .onnxtxt documents, and the host files whose ONNX texts the server reads
    assert.deepEqual(
      client.clientOptions.documentSelector,
      ["onnxtxt", "python", "cpp", "c", "markdown"].map((language) => ({ language })),
    );
    assert.deepEqual(client.clientOptions.initializationOptions, { maxTensorElements: 3, externalDataThreshold: 65536, maxOutlineItems: 1000, runView: true });
  });

  it("registers the binary-as-text file system and the three commands", () => {
    assert.ok(vscode.recorded.fileSystems.has("onnxtxt-binary"));
    for (const c of ["onnxtxt.convertToBinary", "onnxtxt.openAsText", "onnxtxt.run"]) assert.ok(vscode.recorded.commands.has(c), c);
  });

  it("converts the active document to binary beside it", async () => {
    const uri = vscode.Uri.file("/w/mlp.onnxtxt");
    vscode.recorded.activeDocument = { uri, fileName: uri.fsPath, languageId: "onnxtxt", getText: () => MLP };
    await vscode.recorded.commands.get("onnxtxt.convertToBinary")!();
    assert.deepEqual(bytes(vscode.Uri.file("/w/mlp.onnx")), encodeModel(modelFromText(MLP).model!));
    assert.ok(vscode.recorded.messages.some((m) => m.startsWith("Wrote mlp.onnx")));
  });

  it("converts a file picked in the explorer, asking before it replaces the old binary", async () => {
    const picked = vscode.Uri.file("/w/picked.onnxtxt");
    vscode.recorded.files.set(picked.toString(), new TextEncoder().encode(MLP));
    vscode.recorded.files.set(vscode.Uri.file("/w/picked.onnx").toString(), new Uint8Array([1]));
    vscode.recorded.answer = undefined;
    await vscode.recorded.commands.get("onnxtxt.convertToBinary")!(picked);
    assert.ok(vscode.recorded.messages.includes("picked.onnx already exists. Replace it?"));
    assert.deepEqual(bytes(vscode.Uri.file("/w/picked.onnx")), new Uint8Array([1]), "declined: kept");
    vscode.recorded.answer = "Overwrite";
    await vscode.recorded.commands.get("onnxtxt.convertToBinary")!(picked);
    assert.deepEqual(bytes(vscode.Uri.file("/w/picked.onnx")), encodeModel(modelFromText(MLP).model!));
  });

  it("offers to open a binary model as text, and saving writes it back", async () => {
    const binary = vscode.Uri.file("/w/mlp.onnx");
    vscode.recorded.answer = "Open as Text";
    for (const l of vscode.recorded.tabListeners) l({ opened: [{ input: new vscode.TabInputText(binary) }], closed: [] });
    await new Promise((r) => setTimeout(r, 50));
    const view = vscode.recorded.opened.at(-1);
    assert.equal(view?.scheme, "onnxtxt-binary");
    assert.equal(view?.path, "/w/mlp.onnx.onnxtxt");
    assert.deepEqual(JSON.parse(view?.query ?? ""), { scheme: "file", path: "/w/mlp.onnx" });
    const fsProvider = vscode.recorded.fileSystems.get("onnxtxt-binary")!;
    const text = new TextDecoder().decode(await fsProvider.readFile(view!));
    assert.match(text, /h0 = MatMul \(x, W1\)/);
    await fsProvider.writeFile(view!, new TextEncoder().encode(text.replace("Relu", "Sigmoid")));
    const saved = modelFromText(MLP.replace("Relu", "Sigmoid")).model!;
    assert.deepEqual(bytes(binary), encodeModel(saved));
    await assert.rejects(
      fsProvider.writeFile(view!, new TextEncoder().encode("not a model")),
      /not saved as binary: \/w\/mlp\.onnx:1:\d+: error: .+ \[syntax\]/,
    );
  });

  it("routes onnxtxt.run through the server and shows the outputs in a webview", async () => {
    lc.answers.set("workspace/executeCommand", () => ({ outputs: [{ name: "y", type: "float[2, 2]", text: "float[2, 2] {1, 2, 3, 4}" }], elapsedMs: 2 }));
    await vscode.recorded.commands.get("onnxtxt.run")!({ uri: "file:///w/mlp.onnxtxt", graph: "mlp" });
    const client = lc.clients[0]!;
    assert.deepEqual(client.requests.at(-1), {
      method: "workspace/executeCommand",
      params: { command: "onnxtxt.run", arguments: [{ uri: "file:///w/mlp.onnxtxt", graph: "mlp" }] },
    });
    const view = vscode.recorded.webviews.at(-1)!;
    assert.equal(view.title, "Run: mlp (mlp.onnxtxt)");
    // At most onnxtxt.run.maxTensorElements (3), in whole rows of 2.
    assert.equal(view.html.match(/<td>/g)?.length, 2);
    assert.ok(view.html.includes("showing 2 of 4 elements"));
    view.post!({ action: "more", output: 0 });
    assert.equal(view.html.match(/<td>/g)?.length, 4, "Show more re-renders with a larger limit");
    assert.ok(!view.html.includes("showing"));
  });

  it("takes over the server's own onnxtxt.run command through the middleware", async () => {
    lc.answers.set("workspace/executeCommand", () => Promise.reject(Object.assign(new Error("node bad (Relu): boom"), { code: -32600 })));
    const text = MLP.replace("h = Relu (h1)", "[bad] h = Relu (h1)");
    vscode.recorded.activeDocument = { uri: vscode.Uri.parse("file:///w/mlp.onnxtxt"), fileName: "/w/mlp.onnxtxt", languageId: "onnxtxt", getText: () => text };
    let nextCalled = false;
    await lc.clients[0]!.clientOptions.middleware.executeCommand("onnxtxt.run", [], () => (nextCalled = true));
    assert.equal(nextCalled, false);
    const line = text.split("\n").findIndex((l) => l.includes("[bad]")) + 1;
    assert.ok(vscode.recorded.webviews.at(-1)!.html.includes(`Run failed at node <code>bad (Relu)</code> (line ${line})`));
    const marks = vscode.recorded.diagnostics.get("file:///w/mlp.onnxtxt");
    assert.equal(marks?.[0]?.range.startLine, line - 1);
    assert.match(marks?.[0]?.message ?? "", /run failed: node bad \(Relu\): boom/);
    vscode.recorded.webviews.at(-1)!.post!({ action: "reveal" });
    assert.equal(vscode.recorded.shownDocuments.at(-1)?.uri.toString(), "file:///w/mlp.onnxtxt");
    assert.equal(vscode.recorded.shownDocuments.at(-1)?.selection?.startLine, line - 1, "Go to node selects the node");
    assert.equal(await lc.clients[0]!.clientOptions.middleware.executeCommand("other.command", [1], (c, a) => `${c}:${String(a)}`), "other.command:1");
  });

  it("Compare with... and Compare Selected open the diff editor on the models' texts", async () => {
    vscode.recorded.executed.length = 0;
    vscode.recorded.openDialogAnswer = [vscode.Uri.file("/w/new.onnxtxt")];
    await vscode.recorded.commands.get("onnxtxt.compareWith")!(vscode.Uri.file("/w/old.onnx"));
    await vscode.recorded.commands.get("onnxtxt.compareSelected")!(vscode.Uri.file("/w/a.onnxtxt"), [
      vscode.Uri.file("/w/a.onnxtxt"),
      vscode.Uri.file("/w/b.onnx"),
    ]);
    assert.deepEqual(
      vscode.recorded.executed.map((e) => [e.command, ...e.args.map(String)]),
      [
        ["vscode.diff", 'onnxtxt-binary:///w/old.onnx.onnxtxt?{"scheme":"file","path":"/w/old.onnx"}', "file:///w/new.onnxtxt", "old.onnx ↔ new.onnxtxt"],
        ["vscode.diff", "file:///w/a.onnxtxt", 'onnxtxt-binary:///w/b.onnx.onnxtxt?{"scheme":"file","path":"/w/b.onnx"}', "a.onnxtxt ↔ b.onnx"],
      ],
    );
  });

  it("stops the client on deactivate", async () => {
    await ext.deactivate();
    assert.ok(lc.clients[0]!.stopped);
  });
});
