// The workbench driver the end-to-end tests share: a check list, polling, and an Editor that
// drives a real VS Code (code-server or VS Code for the Web) through its keyboard and DOM.
import * as path from "node:path";
import type { Page } from "./browser.js";

export const MOD = process.platform === "darwin" ? "Meta" : "Control";

export const results: { step: string; ok: boolean; detail: string }[] = [];

export function check(step: string, ok: boolean, detail = ""): void {
  results.push({ step, ok, detail });
  console.log(`${ok ? "  ok  " : "  FAIL"} ${step}${detail ? `: ${detail}` : ""}`);
}

export async function until<T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs = 30000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await f();
      if (v !== undefined && v !== false) return v;
    } catch {
      // the page is still changing; try again
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let stopwatches = 0;

export class Editor {
  constructor(
    readonly page: Page,
    private readonly shots: string,
  ) {}

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(this.shots, `${name}.png`) });
  }

  async command(title: string): Promise<void> {
    await this.page.keyboard.press("F1");
    await this.page.locator(".quick-input-box input").first().waitFor({ state: "visible" });
    await this.page.keyboard.insertText(title);
    await until(`command ${title}`, async () => (await this.page.locator(".quick-input-list .monaco-list-row").count()) > 0 || undefined, 10000);
    await this.page.waitForTimeout(200);
    await this.page.keyboard.press("Enter");
  }

  async open(file: string): Promise<void> {
    await this.page.keyboard.press(`${MOD}+P`);
    await this.page.locator(".quick-input-box input").first().waitFor({ state: "visible" });
    await this.page.keyboard.insertText(file);
    // The list fills as the file search answers: Enter only once the row it would open is the file.
    const name = JSON.stringify(file.split("/").pop()!);
    const focused = `document.querySelector(".quick-input-list .monaco-list-row.focused")?.textContent?.includes(${name}) || undefined`;
    await until(`quick open ${file}`, () => this.page.evaluate<true | undefined>(focused), 15000);
    await this.page.waitForTimeout(300);
    await this.page.keyboard.press("Enter");
    await until(`tab ${file}`, async () => (await this.page.locator(`.tab[aria-label*="${file}"]`).count()) > 0 || undefined);
  }

  /**
   * Starts a stopwatch in the page: from the next keydown of `key` to the first moment
   * `selector` matches, as the page sees it (a MutationObserver, so neither the test's polling
   * nor the protocol's round trips are in it). `elapsed` waits for it.
   */
  async stopwatch(key: string, selector: string): Promise<{ elapsed: () => Promise<number>; startedAt: () => Promise<number> }> {
    const id = `__onnxtxtStopwatch${++stopwatches}`;
    await this.page.evaluate(`(() => {
      window[${JSON.stringify(id)}] = new Promise((resolve) => {
        let start;
        const matched = () => {
          if (start === undefined || document.querySelector(${JSON.stringify(selector)}) === null) return;
          observer.disconnect();
          resolve(performance.now() - start);
        };
        const observer = new MutationObserver(matched);
        setTimeout(() => resolve(Number.NaN), 120000);
        observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
        const onKey = (e) => {
          if (e.key.toLowerCase() !== ${JSON.stringify(key.toLowerCase())}) return;
          document.removeEventListener("keydown", onKey, true);
          start = performance.now();
          window[${JSON.stringify(`${id}Start`)}] = performance.timeOrigin + start;
        };
        document.addEventListener("keydown", onKey, true);
      });
    })()`);
    return {
      elapsed: () => this.page.evaluate<number>(`window[${JSON.stringify(id)}]`),
      /** The keydown's wall-clock time in ms (to line up with the language server's trace). */
      startedAt: () => this.page.evaluate<number>(`window[${JSON.stringify(`${id}Start`)}]`),
    };
  }

  /** Puts the cursor at a 1-based line and column. */
  async goTo(line: number, column: number): Promise<void> {
    await this.page.keyboard.press(`${MOD}+G`);
    await this.page.locator(".quick-input-box input").first().waitFor({ state: "visible" });
    await this.page.keyboard.insertText(`${line}:${column}`);
    await this.page.waitForTimeout(150);
    await this.page.keyboard.press("Enter");
    await this.page.waitForTimeout(150);
  }

  async cursor(): Promise<{ line: number; column: number }> {
    const text = await this.page.locator('[id="status.editor.selection"]').first().innerText();
    const m = /Ln (\d+), Col (\d+)/.exec(text);
    if (!m) throw new Error(`no cursor in the status bar: ${text}`);
    return { line: Number(m[1]), column: Number(m[2]) };
  }

  async hoverText(): Promise<string> {
    await this.page.keyboard.press(`${MOD}+K`);
    await this.page.keyboard.press(`${MOD}+I`);
    return until(
      "hover",
      async () => {
        // Only a shown hover: earlier ones stay in the page, hidden.
        const h = this.page.locator(".monaco-hover:not(.hidden) .hover-contents");
        return (await h.count()) > 0 ? (await h.first().innerText()) || undefined : undefined;
      },
      15000,
    );
  }

  /** How many of the theme's token colours (mtk1..mtk40) the visible lines use, once at least 3. */
  tokenColours(): Promise<number> {
    return until("coloured tokens", async () => {
      let n = 0;
      for (let k = 1; k <= 40; k++) if ((await this.page.locator(`.view-line span.mtk${k}`).count()) > 0) n++;
      return n >= 3 ? n : undefined;
    });
  }

  async save(): Promise<void> {
    await this.page.keyboard.press(`${MOD}+S`);
    await this.page.waitForTimeout(500);
  }
}

/** The 1-based line and column of an offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

/** The 1-based line and column of the first `needle` in `text` (plus `skip` characters). */
export function find(text: string, needle: string, skip = 0): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`'${needle}' not in the text`);
  const before = text.slice(0, at + skip);
  const line = before.split("\n").length;
  return { line, column: at + skip - before.lastIndexOf("\n") };
}

/** The text of the run view (a webview with a table) once it shows one. */
export function runOutputText(page: Page, timeoutMs: number): Promise<string> {
  return until(
    "run output",
    async () => {
      for (const f of page.frames()) {
        if ((await f.locator("table").count()) > 0) return (await f.locator("body").first().innerText()) || undefined;
      }
      return undefined;
    },
    timeoutMs,
  );
}
