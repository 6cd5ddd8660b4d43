// Benchmark: the web playground in headless Chromium (Debian's, through playwright-core),
// served from 127.0.0.1 with every other request blocked:
//   - page load to first diagnostics (navigation start to the first diagnostics the language
//     server's worker publishes; goal <= 2 s), median of fresh pages;
//   - keystroke to squiggle on ResNet-50's text (keydown to Monaco's markers for the error the
//     key makes, then one frame to paint; goal <= 200 ms), median of alternating
//     error/fix keystrokes;
//   - bytes transferred for one load, raw and gzip -9, against the budget below.
// Budget: Monaco is about 4 MB of script and styles by itself (gzip ~0.9 MB), ELK's layout
// worker 1.6 MB, the language server ~1 MB and the interpreter's worker ~2 MB (both carry the
// operator schemas). Every worker is embedded in the page script so that the page works from
// file://. 10 MB raw is what a host without compression (or file://) moves; 2.75 MB gzip is
// what a static host with compression sends: about a large image's worth, once, then cached.
// Usage: npm run bench:playground [-- --repeat N]
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { decodeModel } from "../core/src/io/index.js";
import { printModel } from "../core/src/print-model.js";
import { PLAYGROUND_DIR } from "../scripts/build-playground.js";
import { blockOthers, serveStatic } from "../test/browser/playground-server.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
const GOALS = { firstDiagnosticsMs: 2000, keystrokeMs: 200 };
const BUDGET = { rawBytes: 10 * 1024 * 1024, gzipBytes: 2.75 * 1024 * 1024 };

interface Globals {
  readonly playground: {
    readonly editor: {
      setValue(t: string): void;
      setPosition(p: { lineNumber: number; column: number }): void;
      focus(): void;
      getModel(): { uri: unknown; getPositionAt(o: number): { lineNumber: number; column: number } };
    };
    readonly monaco: { editor: { onDidChangeMarkers(f: () => void): void; getModelMarkers(f: { resource: unknown }): { severity: number }[] } };
  };
  readonly document: { readonly body: { readonly dataset: Record<string, string | undefined> } };
  addEventListener(type: string, f: () => void, capture: boolean): void;
  requestAnimationFrame(f: () => void): void;
  performance: { now(): number; getEntriesByName(n: string): { startTime: number }[] };
  bench?: { keydown: number; painted: number; errors: number };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

async function firstDiagnostics(page: Page): Promise<number> {
  await page.waitForFunction(() => (globalThis as unknown as Globals).performance.getEntriesByName("first-diagnostics").length > 0, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => (globalThis as unknown as Globals).performance.getEntriesByName("first-diagnostics")[0]!.startTime);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--repeat");
  const repeat = at >= 0 ? Number(process.argv[at + 1]) : 5;
  if (!fs.existsSync(path.join(PLAYGROUND_DIR, "index.html"))) throw new Error("build the playground first: npm run build:playground");
  const server = await serveStatic(PLAYGROUND_DIR);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const loads: number[] = [];
    let blockedTotal = 0;
    for (let i = 0; i < repeat; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const blocked = await blockOthers(context, server.origin);
      const page = await context.newPage();
      await page.goto(`${server.origin}/`);
      loads.push(await firstDiagnostics(page));
      blockedTotal += blocked.length;
      await context.close();
      if (process.stderr.isTTY) process.stderr.write(`\rload ${i + 1}/${repeat}`);
    }
    const sent = [...server.sent.values()].reduce((a, b) => a + b, 0) / repeat;
    let gzip = 0;
    for (const file of server.sent.keys())
      gzip += gzipSync(fs.readFileSync(path.join(PLAYGROUND_DIR, file === "/" ? "index.html" : file.slice(1))), { level: 9 }).length;

    // Keystrokes on ResNet-50's text: an `x` after `Relu` makes an unknown operator, Backspace fixes it.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await blockOthers(context, server.origin);
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await firstDiagnostics(page);
    const text = printModel(decodeModel(fs.readFileSync(path.join(REPO, "test/data/light/light_resnet50.onnx"))));
    const before = await page.evaluate(() => (globalThis as unknown as Globals).document.body.dataset["diagnosticsVersion"]);
    await page.evaluate((t) => (globalThis as unknown as Globals).playground.editor.setValue(t), text);
    await page.waitForFunction((b) => (globalThis as unknown as Globals).document.body.dataset["diagnosticsVersion"] !== b, before, { timeout: 60_000 });
    const offset = text.lastIndexOf("= Relu (") + "= Relu".length;
    await page.evaluate((o) => {
      const w = globalThis as unknown as Globals;
      const e = w.playground.editor;
      e.setPosition(e.getModel().getPositionAt(o));
      e.focus();
      const b = { keydown: 0, painted: 0, errors: 0 };
      w.bench = b;
      w.addEventListener("keydown", () => (b.keydown = w.performance.now()), true);
      w.playground.monaco.editor.onDidChangeMarkers(() => {
        b.errors = w.playground.monaco.editor.getModelMarkers({ resource: e.getModel().uri }).filter((m) => m.severity === 8).length;
        w.requestAnimationFrame(() => (b.painted = w.performance.now()));
      });
    }, offset);
    const keystrokes: number[] = [];
    for (let i = 0; i < 2 * repeat; i++) {
      const breaking = i % 2 === 0;
      await page.keyboard.press(breaking ? "x" : "Backspace");
      await page.waitForFunction((want) => (globalThis as unknown as Globals).bench!.errors === want, breaking ? 1 : 0, { timeout: 30_000 });
      await page.waitForTimeout(100);
      if (breaking)
        keystrokes.push(await page.evaluate(() => (globalThis as unknown as Globals).bench!.painted - (globalThis as unknown as Globals).bench!.keydown));
    }
    await context.close();
    if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");

    const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MB`;
    const verdict = (ok: boolean): string => (ok ? "ok" : "OVER");
    const load = median(loads),
      key = median(keystrokes);
    console.log(`playground (headless Chromium, ${repeat} runs, median)`);
    console.log(
      `  page load -> first diagnostics   ${load.toFixed(0).padStart(6)} ms   goal <= ${GOALS.firstDiagnosticsMs} ms  ${verdict(load <= GOALS.firstDiagnosticsMs)}`,
    );
    console.log(`  keystroke -> squiggle (ResNet-50) ${key.toFixed(0).padStart(6)} ms   goal <= ${GOALS.keystrokeMs} ms  ${verdict(key <= GOALS.keystrokeMs)}`);
    console.log(`  transferred per load, raw        ${mb(sent).padStart(9)}   budget ${mb(BUDGET.rawBytes)}  ${verdict(sent <= BUDGET.rawBytes)}`);
    console.log(`  transferred per load, gzip -9    ${mb(gzip).padStart(9)}   budget ${mb(BUDGET.gzipBytes)}  ${verdict(gzip <= BUDGET.gzipBytes)}`);
    console.log(`  requests blocked (elsewhere)     ${String(blockedTotal).padStart(6)}`);
    if (blockedTotal > 0 || sent > BUDGET.rawBytes || gzip > BUDGET.gzipBytes) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
