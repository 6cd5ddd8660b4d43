// The graph view's real page script in a real browser (Debian's Chromium, headless, through
// playwright-core): the page the extension shows, served from 127.0.0.1 with its CSP, its ELK
// worker and a stand-in for VS Code's webview API that records what the page posts. ResNet-50
// (printed as text) and the If/Loop example are drawn; clicking a box must select exactly its
// statement, and moving the cursor must select the box. Screenshots go to test-artifacts/.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { decodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { graphView, type GraphViewData } from "../../core/src/graph/view-data.js";
import { bundleGraphView } from "../../scripts/package-vscode.js";
import { graphPageHtml } from "../../client-vscode/src/webview/graph-page.js";
import { LIGHT, REPO } from "../helpers/paths.js";

const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO, "test-artifacts");
const NONCE = "testnonce0123456789";

/** Records the page's messages, as VS Code's webview API would deliver them to the extension. */
const FAKE_API = `window.posted = []; window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.posted.push(m), getState: () => undefined, setState: () => {} });`;

function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    if (url.pathname === "/") {
      const html = graphPageHtml({ cspSource: origin, nonce: NONCE, script: `${origin}/graph-view.js`, elkWorker: `${origin}/elk-worker.js` }).replace(
        "<script nonce",
        `<script nonce="${NONCE}">${FAKE_API}</script>\n<script nonce`,
      );
      res.writeHead(200, { "content-type": "text/html" }).end(html);
      return;
    }
    const file = path.join(dir, path.basename(url.pathname));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/javascript" }).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function viewOf(text: string): GraphViewData {
  const data = graphView(analyze(text));
  assert.ok(data, "the text lowers");
  return data;
}

/**
 * What the functions run in the page read of it. They are typed through this instead of the DOM
 * library, which would change the types of the whole program (WebAssembly's among them). The
 * page's CSP forbids evaluating strings, so predicates are functions.
 */
interface PageGlobals {
  readonly document: {
    readonly body: { readonly dataset: Record<string, string | undefined> };
    querySelectorAll(selector: string): { readonly length: number };
  };
  readonly posted: readonly { readonly type: string; readonly start: number; readonly end: number }[];
}

/** A message to the page, as the extension posts it. */
async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, to: string): void }).postMessage(m, "*"), message);
}

async function show(page: Page, data: GraphViewData): Promise<void> {
  const before = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset["ready"] ?? "0");
  await post(page, { type: "graph", data });
  await page.waitForFunction((b) => ((globalThis as unknown as PageGlobals).document.body.dataset["ready"] ?? "0") !== b, before, { timeout: 60_000 });
}

/** Boxes (`g.<kind>`) whose first line is exactly `label`. */
function boxes(page: Page, kind: string, label: string): ReturnType<Page["locator"]> {
  return page.locator(`g.${kind}`).filter({ has: page.locator(":scope > text.label", { hasText: new RegExp(`^${label}$`) }) });
}

async function lastReveal(page: Page): Promise<{ start: number; end: number }> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).posted.filter((m) => m.type === "reveal").pop()!);
}

describe("graph view in Chromium", function () {
  this.timeout(120_000);
  let server: http.Server;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
    const dir = fs.mkdtempSync(path.join(REPO, "dist", "graph-view-"));
    await bundleGraphView(dir);
    server = await serve(dir);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).posted.some((m) => m.type === "ready"));
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  it("draws ResNet-50 and a click on a box selects exactly its statement", async () => {
    const text = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"))));
    const data = viewOf(text);
    const started = Date.now();
    await show(page, data);
    const ms = Date.now() - started;
    await page.screenshot({ path: path.join(ARTIFACTS, "graph-resnet50.png") });
    assert.deepEqual(errors, [], "no page errors (CSP, worker, script)");
    const convs = await boxes(page, "box.op", "Conv").count();
    assert.equal(convs, 53, "ResNet-50 has 53 Conv boxes");
    // Click the fourth Conv: the page must ask to select that Conv statement, no more, no less.
    const box = boxes(page, "box.op", "Conv").nth(3);
    await box.scrollIntoViewIfNeeded();
    const id = await box.getAttribute("data-id");
    await box.click();
    const { start, end } = await lastReveal(page);
    const statement = text.slice(start, end);
    assert.match(statement, /^\[n\d+\] \S+ = Conv <[\s\S]*\)$/, statement.slice(0, 80));
    assert.doesNotMatch(statement, /\n\s*\[n\d+\]/, "one statement only");
    const node = data.graph.nodes.find((n) => n.id === id)!;
    assert.deepEqual([start, end], [node.span!.start, node.span!.end]);
    process.stdout.write(`      (ResNet-50: ${data.graph.nodes.length} boxes drawn in ${ms} ms)\n`);
  });

  it("keeps the layout when an edit leaves boxes and wires as they were", async () => {
    const text = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"))));
    // An edit of one digit of a weight: same boxes, same sizes, same wires.
    const edited = text.replace("float[1] {0.02}", "float[1] {0.03}");
    assert.notEqual(edited, text);
    await show(page, viewOf(edited));
    assert.match((await page.locator("#status").textContent()) ?? "", /layout kept, drawn in \d+ ms/);
  });

  it("selects the box under the cursor", async () => {
    const text = printModel(decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx"))));
    const offset = text.indexOf(" = Relu") - 2;
    await post(page, { type: "cursor", offset });
    assert.equal(await page.locator("g.selected").count(), 1);
    assert.equal(await page.locator("g.selected > text.label").textContent(), "Relu");
  });

  it("draws If and Loop bodies inside their nodes and folds them on double-click", async () => {
    const text = fs.readFileSync(path.join(REPO, "examples/control-flow.onnxtxt"), "utf8");
    await show(page, viewOf(text));
    await page.screenshot({ path: path.join(ARTIFACTS, "graph-control-flow.png") });
    const ifGroup = boxes(page, "group.expanded", "If");
    assert.equal(await ifGroup.count(), 1);
    assert.equal(await page.locator("g.group:not(.expanded)").count(), 2, "then_branch and else_branch");
    // Click inside the else branch's Neg: its statement, not the If around it.
    await boxes(page, "box.op", "Neg").click();
    const { start, end } = await lastReveal(page);
    assert.equal(text.slice(start, end), "negated = Neg (x)");
    await page.locator("g.group.expanded text.label").first().dblclick();
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelectorAll("g.group").length === 0);
    await page.screenshot({ path: path.join(ARTIFACTS, "graph-control-flow-folded.png") });
    assert.equal(await boxes(page, "box.op", "If").count(), 1, "the If is one box once folded");
    assert.deepEqual(errors, []);
  });
});
