// The end-to-end checks of issue #37 in the real editor: two texts of the light SqueezeNet that
// differ by one attribute of one Conv (`dilations = [2, 2]` added to n10, a 1x1 convolution, so
// the shapes stay). *ONNX: Compare with...* from the command palette, answered in code-server's
// simple file dialog by typing the other file's path, opens VS Code's diff editor with the
// changed line marked; *ONNX: Show Graph Changes Since...* draws the graph view in diff mode
// with that Conv's box coloured (changed) and the others dimmed, its tooltip naming the change,
// and a click on it selecting its statement in the text. Run by vscode-e2e.ts (`npm run test:e2e`).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame } from "./browser.js";
import { runSteps, type Kit } from "./embedded-e2e.js";

export const BEFORE_FILE = "squeeze-before.onnxtxt";
export const AFTER_FILE = "squeeze-after.onnxtxt";
/** The changed node's statement in BEFORE_FILE, and what AFTER_FILE has instead. */
const CHANGED_FROM = "[n10] r10 = Conv <strides = [1, 1],";
const CHANGED_TO = "[n10] r10 = Conv <strides = [1, 1], dilations = [2, 2],";

/** Writes the two models beside the others; `text` is the printed light SqueezeNet. */
export function prepareDiff(folder: string, text: string): void {
  if (!text.includes(CHANGED_FROM)) throw new Error(`'${CHANGED_FROM}' not in the printed SqueezeNet`);
  fs.writeFileSync(path.join(folder, BEFORE_FILE), text);
  fs.writeFileSync(path.join(folder, AFTER_FILE), text.replace(CHANGED_FROM, CHANGED_TO));
}

/** The 1-based line of the changed statement (the same in both files). */
function changedLine(text: string): number {
  return text.slice(0, text.indexOf(CHANGED_FROM)).split("\n").length;
}

/**
 * Runs a command from the palette, making sure the row Enter takes is that command (other
 * commands have similar titles: File: Compare Active File With...).
 */
async function paletteCommand(kit: Kit, title: string): Promise<void> {
  const { ed, until } = kit;
  const page = ed.page;
  await page.keyboard.press("F1");
  await page.locator(".quick-input-box input").first().waitFor({ state: "visible" });
  await page.keyboard.insertText(title);
  const first = await until(
    `palette row ${title}`,
    async () => {
      const row = page.locator(".quick-input-list .monaco-list-row.focused");
      if ((await row.count()) === 0) return undefined;
      const t = (await row.first().innerText()).replace(/\s+/g, " ");
      return t.includes(title.replace(/^ONNX: /, "")) ? t : undefined;
    },
    10000,
  );
  if (!first.includes("ONNX")) throw new Error(`the palette's first row is '${first}'`);
  await page.waitForTimeout(200);
  await page.keyboard.press("Enter");
}

/**
 * Answers code-server's simple file dialog (a quick input holding a path) with `file`: the
 * whole input replaced by the path, then Enter. Returns once the dialog is gone.
 */
async function answerOpenDialog(kit: Kit, file: string): Promise<void> {
  const { ed, until } = kit;
  const page = ed.page;
  const input = page.locator(".quick-input-box input");
  await until(
    "the simple file dialog",
    async () => {
      if (!(await input.first().isVisible())) return undefined;
      const value = await page.evaluate<string>(`document.querySelector(".quick-input-box input")?.value ?? ""`);
      return value.startsWith("/") ? value : undefined;
    },
    15000,
  );
  await page.waitForTimeout(500);
  await page.keyboard.press(`${process.platform === "darwin" ? "Meta" : "Control"}+A`);
  await page.keyboard.insertText(file);
  // The dialog looks the path up as it is typed: let it settle on the file's row.
  await until(
    "the file in the dialog",
    async () => {
      const rows = await page.evaluate<string[]>(`[...document.querySelectorAll(".quick-input-list .monaco-list-row")].map((e) => e.textContent || "")`);
      return rows.some((r) => r.includes(path.basename(file))) || undefined;
    },
    10000,
  ).catch(() => undefined);
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  await until("the dialog closed", async () => !(await input.first().isVisible()) || undefined, 10000);
}

async function compareWith(kit: Kit, folder: string, text: string): Promise<void> {
  const { ed, check, until } = kit;
  const page = ed.page;
  await ed.open(BEFORE_FILE);
  await page.waitForTimeout(1000);
  await paletteCommand(kit, "ONNX: Compare with...");
  await answerOpenDialog(kit, path.join(folder, AFTER_FILE));
  await until("the diff editor", async () => (await page.locator(".monaco-diff-editor").count()) > 0 || undefined, 30000).catch(() => undefined);
  const marks = async () => {
    if ((await page.locator(".monaco-diff-editor").count()) === 0) return undefined;
    const m = await page.evaluate<{ inserts: number; deletes: number; chars: number; lines: string[] }>(`(() => {
      const d = document.querySelector(".monaco-diff-editor");
      const norm = (s) => (s || "").replace(/\\u00a0/g, " ");
      return {
        inserts: d.querySelectorAll(".line-insert").length,
        deletes: d.querySelectorAll(".line-delete").length,
        chars: d.querySelectorAll(".char-insert").length,
        lines: [...d.querySelectorAll(".view-line")].map((l) => norm(l.textContent)).filter((l) => l.includes("dilations")),
      };
    })()`);
    return m.inserts + m.chars > 0 && m.lines.length > 0 ? m : undefined;
  };
  // The diff editor shows its first change on opening; if it did not, Alt+F5 goes to it.
  const diff = await until("the diff editor's marks", marks, 15000)
    .catch(async () => {
      await page.keyboard.press("Alt+F5");
      return until("the diff editor's marks after Go to Next Change", marks, 15000);
    })
    .catch(async () => ({ inserts: -1, deletes: -1, chars: -1, lines: [] as string[], editors: await page.locator(".monaco-diff-editor").count() }));
  await page.waitForTimeout(500);
  await ed.shot("16-compare-with");
  const tab = (
    await page
      .locator(".tab.active")
      .first()
      .innerText()
      .catch(() => "")
  ).split("\n")[0]!;
  check(
    "Compare with...: the diff editor marks the changed line",
    tab.includes(BEFORE_FILE) &&
      tab.includes(AFTER_FILE) &&
      diff.lines.length === 1 &&
      diff.lines[0]!.includes(CHANGED_TO.slice(CHANGED_TO.indexOf("Conv"))) &&
      diff.inserts + diff.chars > 0,
    diff.inserts < 0
      ? `no diff editor with marks within 30 s (${(diff as { editors?: number }).editors ?? 0} diff editor(s)); active tab '${tab}'`
      : `tab '${tab}'; ${diff.inserts} .line-insert, ${diff.deletes} .line-delete, ${diff.chars} .char-insert; changed line '${diff.lines[0]?.trim().slice(0, 90)}' (line ${changedLine(text)})`,
  );
  await ed.command("View: Close Editor");
  await page.waitForTimeout(500);
}

interface BoxStyle {
  id: string;
  label: string;
  classes: string;
  stroke: string;
  strokeWidth: string;
  opacity: string;
  title: string;
}

/** The source of an expression: the style of each box `selector` matches, in the graph view's frame. */
const boxStyles = (selector: string): string => `[...document.querySelectorAll(${JSON.stringify(selector)})].map((g) => {
  const rect = g.querySelector(":scope > rect");
  const s = rect ? getComputedStyle(rect) : undefined;
  return {
    id: g.getAttribute("data-id") || "",
    label: g.querySelector(":scope > text.label")?.textContent || "",
    classes: g.getAttribute("class") || "",
    stroke: s ? s.stroke : "",
    strokeWidth: s ? s.strokeWidth : "",
    opacity: getComputedStyle(g).opacity,
    title: g.querySelector(":scope > title")?.textContent || "",
  };
})`;

async function graphChanges(kit: Kit, folder: string, text: string): Promise<void> {
  const { ed, check, until } = kit;
  const page = ed.page;
  const line = changedLine(text);
  await ed.open(AFTER_FILE);
  await page.waitForTimeout(1000);
  // The cursor on the changed statement: the view selects and centres its box.
  await ed.goTo(line, 5);
  await paletteCommand(kit, "ONNX: Show Graph Changes Since...");
  await answerOpenDialog(kit, path.join(folder, BEFORE_FILE));
  const frame = await until(
    "the graph view in diff mode",
    async () => {
      for (const f of page.frames()) if ((await f.locator("svg.onnx-graph.diff g.box.op").count()) > 10) return f;
      return undefined;
    },
    60000,
  );
  // Move the cursor off and back: the view (new or kept from Show Graph) centres the box.
  await ed.goTo(line + 20, 3);
  await page.waitForTimeout(300);
  await ed.goTo(line, 5);
  await page.waitForTimeout(1000);
  const changed = await frame.evaluate<BoxStyle[]>(boxStyles("svg.onnx-graph g.box.diff-changed"));
  const others = await frame.locator("svg.onnx-graph g.box.diff-added, svg.onnx-graph g.box.diff-moved").count();
  const plain = (await frame.evaluate<BoxStyle[]>(boxStyles("svg.onnx-graph g.box.op:not(.diff-changed)"))).filter((b) => b.label === "Conv");
  await ed.shot("17-graph-changes");
  const box = changed[0];
  const unchanged = plain[0];
  check(
    "Show Graph Changes: the changed Conv's box is coloured, the others dimmed",
    changed.length === 1 &&
      others === 0 &&
      box !== undefined &&
      unchanged !== undefined &&
      box.label === "Conv" &&
      box.stroke !== unchanged.stroke &&
      Number(box.opacity) === 1 &&
      Number(unchanged.opacity) < 1 &&
      plain.every((b) => b.stroke === unchanged.stroke && b.opacity === unchanged.opacity),
    `${changed.length} changed box(es) (${others} added/moved): ${box ? `${box.label} ${box.id} stroke ${box.stroke} width ${box.strokeWidth} opacity ${box.opacity}` : "none"}; an unchanged Conv ${unchanged ? `${unchanged.id} stroke ${unchanged.stroke} width ${unchanged.strokeWidth} opacity ${unchanged.opacity}` : "none"}`,
  );
  const tip = box?.title.split("\n").find((l) => l.startsWith("changed:")) ?? "";
  check("Show Graph Changes: the box's tooltip names its change", /dilations/.test(tip), tip || `tooltip: ${JSON.stringify(box?.title ?? "")}`);

  // A click on the coloured box selects its statement in the text: the changed line.
  if (!box) return;
  await ed.goTo(1, 1);
  await page.waitForTimeout(500);
  await clickBox(frame, box.id);
  const at = await until(
    "selection from the changed box",
    async () => {
      const c = await ed.cursor();
      return c.line !== 1 ? c : undefined;
    },
    10000,
  ).catch(() => ed.cursor());
  const lines = text.split("\n");
  let start = at.line - 1;
  while (start > 0 && !lines[start]!.includes(" = ")) start--;
  check(
    "Show Graph Changes: a click on the changed box selects its statement",
    start + 1 === line,
    `selected up to line ${at.line}; its statement at line ${start + 1} (the change at line ${line})`,
  );
  await ed.shot("18-graph-changes-clicked");
}

async function clickBox(frame: Frame, id: string): Promise<void> {
  await frame.locator(`g.box[data-id="${id}"]`).first().click({ timeout: 10000 });
}

/** All of issue #37's checks in the real editor; a failure is reported, the next check still runs. */
export async function diffChecks(kit: Kit, folder: string): Promise<void> {
  const text = fs.readFileSync(path.join(folder, BEFORE_FILE), "utf8");
  const steps: [string, () => Promise<void>][] = [
    ["Compare with...", () => compareWith(kit, folder, text)],
    ["Show Graph Changes", () => graphChanges(kit, folder, text)],
  ];
  await runSteps(kit, steps);
}
