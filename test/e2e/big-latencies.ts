// What a user waits for on the 50k-node document in the real VS Code, timed in the page from the
// keydown to the change on screen: open -> Run lens, a typo -> its squiggle, a hover right after
// an edit. Shared by the e2e test (vscode-e2e.ts) and the ten-run bench (bench/vscode-latency.ts).
import { largeDocument } from "../../bench/lsp-document.js";
import { check, type Editor, MOD, until } from "./workbench.js";

export const BIG_DOCUMENT = "big.onnxtxt";
export const BIG_NODES = 50000;

export interface Timing {
  readonly what: string;
  readonly ms: number;
  readonly target: number;
  /** The keydown's wall-clock time (ms since the epoch), to find it in a trace. */
  readonly at?: number;
}

/** The three latencies on BIG_DOCUMENT (written into the workspace beforehand). */
export async function bigLatencies(ed: Editor): Promise<Timing[]> {
  const timings: Timing[] = [];
  const page = ed.page;
  const big = largeDocument(BIG_NODES).split("\n");
  // Scoped to the new editor: the last one, with its own lens, is still on the page for a while.
  const lens = await ed.stopwatch("Enter", `[data-uri$="${BIG_DOCUMENT}"] .codelens-decoration a`);
  await ed.open(BIG_DOCUMENT);
  await until("Run lens on the big document", async () => (await page.locator(".codelens-decoration a").count()) > 0 || undefined, 120000);
  timings.push({ what: "50k nodes: open -> Run lens", ms: await lens.elapsed(), target: 1000 });
  const line = big.findIndex((l, i) => i > 25000 && l.includes(" = Add ("));
  const col = big[line]!.indexOf(" = Add (") + 6;
  await ed.goTo(line + 1, col + 1);
  await page.waitForTimeout(1500);
  const squiggle = await ed.stopwatch("x", `[data-uri$="${BIG_DOCUMENT}"] .squiggly-error`);
  await page.keyboard.type("x");
  await until("squiggle on the big document", async () => (await page.locator(".squiggly-error").count()) > 0 || undefined, 60000);
  timings.push({ what: "50k nodes: typo -> squiggle", ms: await squiggle.elapsed(), target: 300, at: await squiggle.startedAt() });
  await ed.shot("09-big-squiggle");
  await page.keyboard.press(`${MOD}+Z`);
  await ed.goTo(line + 2, 3);
  // Ctrl+K Ctrl+I: from the I.
  const hovered = await ed.stopwatch("i", ".monaco-hover:not(.hidden) .hover-contents");
  const h = await ed.hoverText();
  timings.push({ what: "50k nodes: hover after an edit", ms: await hovered.elapsed(), target: 150, at: await hovered.startedAt() });
  check("hover on the big document", h.includes("float[N, 16]"), h.split("\n")[0] ?? "");
  await page.keyboard.press("Escape");
  return timings;
}
