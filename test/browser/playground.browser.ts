// The web playground (dist/playground, built by scripts/build-playground.ts) in Debian's
// Chromium through playwright-core, served from 127.0.0.1 with every other request blocked
// and counted (there must be none). The language server runs in the page's worker: its
// squiggles, hovers, completions and formatting are checked against the project's own CLI
// and a run against `onnxtxt run`; a dropped ResNet-50 and its `Download .onnx` against
// `onnxtxt convert`; share links, hostile ones too. Screenshots go to test-artifacts/.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { deflateRawSync } from "node:zlib";
import { create } from "@bufbuild/protobuf";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { StringStringEntryProtoSchema, TensorProto_DataLocation } from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { buildPlayground } from "../../scripts/build-playground.js";
import { CLI, LIGHT, REPO } from "../helpers/paths.js";
import { blockOthers, serveStatic, type StaticServer } from "./playground-server.js";

const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO, "test-artifacts");
const DIR = path.join(REPO, "dist/playground-test");

/** What the functions run in the page read of it (typed here: the test program has no DOM types). */
interface Marker {
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endColumn: number;
  readonly message: string;
  readonly severity: number;
}
interface PageGlobals {
  readonly playground: {
    readonly editor: {
      getValue(): string;
      setValue(text: string): void;
      setPosition(p: { lineNumber: number; column: number }): void;
      setScrollTop(top: number): void;
      focus(): void;
      trigger(source: string, handler: string, payload: unknown): void;
      getAction(id: string): { run(): Promise<void> } | null;
      getModel(): { uri: unknown; getPositionAt(offset: number): { lineNumber: number; column: number } };
    };
    readonly monaco: { editor: { getModelMarkers(filter: { resource: unknown }): Marker[] } };
  };
  readonly document: {
    readonly body: { readonly dataset: Record<string, string | undefined> };
    getElementById(id: string): { readonly textContent: string | null; readonly value?: string } | null;
    dispatchEvent(e: unknown): boolean;
  };
  pwned?: boolean;
  readonly DataTransfer: new () => { readonly items: { add(f: unknown): void } };
  readonly File: new (parts: unknown[], name: string) => unknown;
  readonly DragEvent: new (type: string, init: { dataTransfer: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
}

/** Drops files on the page as a user would: a drop event carrying them. */
async function dropFiles(page: Page, files: readonly string[]): Promise<void> {
  const payload = files.map((f) => ({ name: path.basename(f), base64: fs.readFileSync(f).toString("base64") }));
  await page.evaluate((items) => {
    const w = globalThis as unknown as PageGlobals;
    const dt = new w.DataTransfer();
    for (const { name, base64 } of items) dt.items.add(new w.File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
    w.document.dispatchEvent(new w.DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
}

function cli(args: string[], input?: string, env?: Record<string, string>): string {
  return execFileSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    stdio: "pipe",
    ...(input !== undefined ? { input } : {}),
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
}

/** Waits until the message line matches `pattern`; returns it. */
async function messageMatching(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test((globalThis as unknown as PageGlobals).document.getElementById("message")?.textContent ?? ""),
    pattern.source,
  );
  return (await page.locator("#message").textContent()) ?? "";
}

async function openPage(context: BrowserContext, url: string, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("dialog", (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.body.dataset["started"] === "1");
  return page;
}

async function setText(page: Page, text: string): Promise<void> {
  const before = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset["diagnosticsVersion"] ?? "0");
  await page.evaluate((t) => (globalThis as unknown as PageGlobals).playground.editor.setValue(t), text);
  await page.waitForFunction((b) => ((globalThis as unknown as PageGlobals).document.body.dataset["diagnosticsVersion"] ?? "0") !== b, before, {
    timeout: 30_000,
  });
}

async function markers(page: Page): Promise<Marker[]> {
  return page.evaluate(() => {
    const p = (globalThis as unknown as PageGlobals).playground;
    return p.monaco.editor.getModelMarkers({ resource: p.editor.getModel().uri }).map((m) => ({ ...m }));
  });
}

/** `y: float[1,2] {0.1, -0.2}` -> name, element type, dims and float32 values. */
function parseOutputLine(line: string): { name: string; elem: string; dims: number[]; values: number[] } {
  const m = /^(\S+): (\w+)\[([\d, ]*)\] \{([^}]*)\}$/.exec(line.trim());
  assert.ok(m, line);
  return { name: m[1]!, elem: m[2]!, dims: m[3]!.split(",").map(Number), values: m[4]!.split(",").map((v) => Math.fround(Number(v))) };
}

async function caretAt(page: Page, text: string, needle: string, delta = 0): Promise<void> {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, needle);
  await page.evaluate((o) => {
    const e = (globalThis as unknown as PageGlobals).playground.editor;
    e.setPosition(e.getModel().getPositionAt(o));
    e.focus();
  }, offset + delta);
}

describe("the playground in Chromium", function () {
  this.timeout(180_000);
  let server: StaticServer;
  let browser: Browser;
  let context: BrowserContext;
  let blocked: string[];
  let page: Page;
  const errors: string[] = [];
  const mlp = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8");

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
    await buildPlayground(DIR);
    server = await serveStatic(DIR);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    blocked = await blockOthers(context, server.origin);
    page = await openPage(context, `${server.origin}/`, errors);
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  afterEach(() => {
    assert.deepEqual(blocked, [], "no request leaves the page's origin");
  });

  it("opens with the MLP example, its graph drawn and no error", async () => {
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), mlp);
    await page.waitForFunction(() => Number((globalThis as unknown as PageGlobals).document.body.dataset["diagnosticsVersion"] ?? "0") > 0);
    await page.locator("g.box.op").first().waitFor({ timeout: 60_000 });
    const ops = await page.locator("g.box.op > text.label").allTextContents();
    const expected = [...mlp.matchAll(/=\s*([A-Z][A-Za-z]*)\s*[(<]/g)].map((m) => m[1]);
    assert.deepEqual([...ops].sort(), [...expected].sort(), "one box per node of the text");
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-mlp.png") });
    assert.deepEqual(await markers(page), []);
  });

  it("runs from the code lens above the graph too", async () => {
    await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals;
      w.document.body.dataset["run"] = "";
      w.playground.editor.setScrollTop(0);
    });
    const lens = page.locator(".codelens-decoration a", { hasText: "Run" }).first();
    await lens.waitFor({ timeout: 30_000 });
    await lens.click();
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.body.dataset["run"] === "done", undefined, { timeout: 60_000 });
    assert.deepEqual(errors, []);
  });

  it("puts a squiggle where an unknown operator is typed", async () => {
    const text = mlp.replace(/= (Relu|Sigmoid|Tanh|Add|MatMul) \(/, "= Rleu (");
    assert.notEqual(text, mlp);
    await setText(page, text);
    // The server publishes the parse's diagnostics first, then the checks' ones.
    await page.waitForFunction(() => {
      const p = (globalThis as unknown as PageGlobals).playground;
      return p.monaco.editor.getModelMarkers({ resource: p.editor.getModel().uri }).length > 0;
    });
    const ms = await markers(page);
    const at = text.indexOf("Rleu");
    const pos = await page.evaluate((o) => (globalThis as unknown as PageGlobals).playground.editor.getModel().getPositionAt(o), at);
    const m = ms.find((x) => x.startLineNumber === pos.lineNumber && x.startColumn === pos.column);
    assert.ok(m, `a marker at ${pos.lineNumber}:${pos.column}; got ${JSON.stringify(ms)}`);
    assert.equal(m.endColumn, pos.column + 4);
    assert.equal(m.severity, 8, "an error");
    // The CLI's check reports the same place.
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pg-")), "m.onnxtxt");
    fs.writeFileSync(tmp, text);
    let report = "";
    try {
      cli(["check", tmp]);
    } catch (e) {
      report = String((e as { stdout?: string; stderr?: string }).stderr ?? "") + String((e as { stdout?: string }).stdout ?? "");
    }
    assert.match(report, new RegExp(`m\\.onnxtxt:${pos.lineNumber}:${pos.column}`));
    await page.locator(".squiggly-error").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-squiggle.png") });
    await setText(page, mlp);
  });

  it("shows a value's type on hover", async () => {
    const name = /(\w+) = MatMul/.exec(mlp)?.[1];
    assert.ok(name);
    await caretAt(page, mlp, `${name} = MatMul`, 1);
    await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.trigger("test", "editor.action.showHover", {}));
    const hover = page.locator(".monaco-hover-content").first();
    await hover.waitFor({ timeout: 30_000 });
    assert.match((await hover.textContent()) ?? "", /float\[/);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-hover.png") });
    await page.keyboard.press("Escape");
  });

  it("offers operator names on completion", async () => {
    const at = mlp.indexOf("= MatMul") + 5; // after "Mat"
    await page.evaluate((o) => {
      const e = (globalThis as unknown as PageGlobals).playground.editor;
      e.setPosition(e.getModel().getPositionAt(o));
      e.focus();
    }, at);
    await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.trigger("test", "editor.action.triggerSuggest", {}));
    const rows = page.locator(".suggest-widget .monaco-list-row");
    await rows.first().waitFor({ timeout: 30_000 });
    const labels = await rows.allTextContents();
    assert.ok(
      labels.some((l) => /^MatMul/.test(l)),
      labels.slice(0, 10).join(" | "),
    );
    await page.keyboard.press("Escape");
  });

  it("formats the text as `onnxtxt format` does", async () => {
    const messy = mlp.replace(/ = /g, "   =   ").replace(/, /g, ",");
    assert.notEqual(messy, mlp);
    await setText(page, messy);
    await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getAction("editor.action.formatDocument")!.run());
    await page.waitForFunction((m) => (globalThis as unknown as PageGlobals).playground.editor.getValue() !== m, messy);
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), cli(["format", "-"], messy));
    await setText(page, mlp);
  });

  it("runs the MLP and shows the CLI's outputs", async () => {
    await page.click("#run");
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.body.dataset["run"] === "done", undefined, { timeout: 60_000 });
    const shown = (await page.locator("#output pre.value").allTextContents()).map(parseOutputLine);
    const file = path.join(REPO, "examples/mlp.onnxtxt");
    // The run view prints each float32 by its shortest text, the CLI with 9 digits: compared
    // are names, types, shapes and float32 values. The page runs the reference kernels (the
    // fast ones need Node's threads), which is the CLI with ONNXTXT_FAST=0: the same bits.
    assert.deepEqual(shown, cli(["run", file], undefined, { ONNXTXT_FAST: "0" }).trimEnd().split("\n").map(parseOutputLine));
    // The CLI's default (fast, SIMD) kernels sum in another order: equal to float32 rounding.
    const fast = cli(["run", file]).trimEnd().split("\n").map(parseOutputLine);
    assert.deepEqual(
      shown.map((o) => ({ ...o, values: [] })),
      fast.map((o) => ({ ...o, values: [] })),
    );
    shown.forEach((o, i) => o.values.forEach((v, j) => assert.ok(Math.abs(v - fast[i]!.values[j]!) <= 1e-6 * Math.max(1, Math.abs(v)), `${o.name}[${j}]`)));
    assert.ok((await page.locator("#output table td").count()) > 0, "values in a table");
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-run.png") });
  });

  it("opens ResNet-50 and downloads the bytes `onnxtxt convert` writes", async () => {
    const onnx = path.join(LIGHT, "light_resnet50.onnx");
    await dropFiles(page, [onnx]);
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.body.dataset["started"] === "1" &&
        (globalThis as unknown as PageGlobals).playground.editor.getValue().includes("Conv"),
      undefined,
      { timeout: 60_000 },
    );
    const text = await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-"));
    assert.equal(text, cli(["convert", onnx, "-"]), "the text the CLI prints");
    await page.locator("g.box.op").nth(50).waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-resnet50.png") });
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-onnx")]);
    const got = path.join(dir, "got.onnx");
    await download.saveAs(got);
    fs.writeFileSync(path.join(dir, "resnet.onnxtxt"), text);
    cli(["convert", path.join(dir, "resnet.onnxtxt"), path.join(dir, "cli.onnx")]);
    assert.ok(fs.readFileSync(got).equals(fs.readFileSync(path.join(dir, "cli.onnx"))), "same bytes as the CLI's convert");
  });

  it("opens a model whose weights are in an external data file dropped with it", async () => {
    const onnx = path.join(LIGHT, "light_squeezenet.onnx");
    const model = decodeModel(fs.readFileSync(onnx));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-"));
    // The first initializer's bytes go to weights.bin, as onnx's save_as_external_data writes them.
    const t = model.graph!.initializer.find((i) => i.rawData.length > 0)!;
    fs.writeFileSync(path.join(dir, "weights.bin"), t.rawData);
    t.externalData = [
      create(StringStringEntryProtoSchema, { key: "location", value: "weights.bin" }),
      create(StringStringEntryProtoSchema, { key: "offset", value: "0" }),
      create(StringStringEntryProtoSchema, { key: "length", value: String(t.rawData.length) }),
    ];
    t.dataLocation = TensorProto_DataLocation.EXTERNAL;
    t.rawData = new Uint8Array(0);
    fs.writeFileSync(path.join(dir, "external.onnx"), encodeModel(model));
    await dropFiles(page, [path.join(dir, "external.onnx")]);
    assert.match(await messageMatching(page, /weights\.bin/), /drop that file together with external\.onnx/);
    await dropFiles(page, [path.join(dir, "external.onnx"), path.join(dir, "weights.bin")]);
    await messageMatching(page, /Opened external\.onnxtxt/);
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), cli(["convert", onnx, "-"]));
  });

  it("restores the text of a share link in a new page", async () => {
    const text = `${mlp}\n# shared from the test\n`;
    await setText(page, text);
    await page.click("#share");
    await page.waitForFunction(() => ((globalThis as unknown as PageGlobals).document.getElementById("share-url")?.value ?? "") !== "");
    const url = await page.locator("#share-url").inputValue();
    assert.match(url, /#text=[A-Za-z0-9_-]+$/);
    const other = await openPage(context, url, errors);
    assert.equal(await other.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), text);
    await other.close();
    assert.deepEqual(errors, []);
  });

  it("shows a hostile share link as text and runs nothing", async () => {
    const evil = `<img src=x onerror="window.pwned=true">`;
    const text = [
      `# ${evil} <script>window.pwned = true</script>`,
      "<",
      "  ir_version: 8,",
      '  opset_import: ["" : 18],',
      `  doc_string: "${evil.replace(/"/g, "'")} <script>window.pwned=true</script>"`,
      ">",
      "main (float[2] x) => (float[2] y) {",
      "  y = Relu (x)",
      "}",
      "",
    ].join("\n");
    const link = (bytes: Buffer): string => `${server.origin}/#text=${bytes.toString("base64url")}`;
    const hostile = await openPage(context, link(deflateRawSync(Buffer.from(text))), errors);
    assert.equal(await hostile.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), text);
    await hostile.click("#run");
    await hostile.waitForFunction(() => (globalThis as unknown as PageGlobals).document.body.dataset["run"] !== "running", undefined, { timeout: 60_000 });
    await hostile.waitForTimeout(500);
    assert.equal(await hostile.evaluate(() => (globalThis as unknown as PageGlobals).pwned === true), false);
    assert.equal(await hostile.locator("img, script:not([src])").count(), 0, "no element made from the text");
    await hostile.screenshot({ path: path.join(ARTIFACTS, "playground-hostile.png") });
    await hostile.close();
    // A payload that inflates past the cap, and one that is not deflate at all.
    for (const bytes of [deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 32)), Buffer.from("not deflate at all")]) {
      const p = await openPage(context, link(bytes), errors);
      await messageMatching(p, /share link is broken/);
      assert.equal(await p.evaluate(() => (globalThis as unknown as PageGlobals).playground.editor.getValue()), mlp);
      await p.close();
    }
    const p = await openPage(context, `${server.origin}/#text=<script>alert(1)</script>`, errors);
    await messageMatching(p, /share link is broken/);
    await p.close();
    assert.deepEqual(errors, []);
  });

  it("links the grammar's railroad page, which draws with nothing from the network", async () => {
    const href = await page.locator("#help").getAttribute("href");
    const grammar = await context.newPage();
    await grammar.goto(new URL(href!, `${server.origin}/`).href);
    await grammar.locator("svg.railroad-diagram").first().waitFor({ timeout: 30_000 });
    assert.ok((await grammar.locator("svg.railroad-diagram").count()) > 20, "one diagram per rule");
    await grammar.screenshot({ path: path.join(ARTIFACTS, "playground-grammar.png") });
    await grammar.close();
  });

  it("works from file:// with no request at all", async () => {
    const local = await browser.newContext({ viewport: { width: 700, height: 900 } });
    const requests: string[] = [];
    local.on("request", (r) => {
      if (!/^(file|blob|data):/.test(r.url())) requests.push(r.url());
    });
    const p = await openPage(local, `file://${DIR}/index.html`, errors);
    await p.waitForFunction(() => Number((globalThis as unknown as PageGlobals).document.body.dataset["diagnosticsVersion"] ?? "0") > 0);
    await p.locator("g.box.op").first().waitFor({ timeout: 60_000 });
    await p.click("#run");
    await p.waitForFunction(() => (globalThis as unknown as PageGlobals).document.body.dataset["run"] === "done", undefined, { timeout: 60_000 });
    await p.screenshot({ path: path.join(ARTIFACTS, "playground-file-narrow.png") });
    await local.close();
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
  });

  it("refuses a text too big for a link, with a message", async () => {
    // Random-looking numbers do not compress: past the link limit.
    let seed = 1;
    const values = Array.from({ length: 40_000 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31).toFixed(6));
    const text = mlp.replace(/\}\s*$/, `  # ${values.join(" ")}\n}\n`);
    await page.evaluate((t) => (globalThis as unknown as PageGlobals).playground.editor.setValue(t), text);
    await page.click("#share");
    assert.match(await messageMatching(page, /too big for a link/), /more than 65536/);
    assert.deepEqual(errors, []);
  });
});
