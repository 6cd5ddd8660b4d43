// The end-to-end checks of issue #34 in the real editor: a model with an unused input shows its
// warning; writing an onnxtxt.toml beside it that ignores the code takes the warning away, and
// one that raises it to an error turns it into an error squiggle, each without a restart (the
// server watches the config files). A problem's code in the problem view is a link to its rule
// page. Run by vscode-e2e.ts (`npm run test:e2e`).
import * as fs from "node:fs";
import * as path from "node:path";
import { runSteps, type Kit } from "./embedded-e2e.js";

const FOLDER = "lint-config";
export const LINT_FILE = "unused-input.onnxtxt";
const MODEL = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x, float[2] spare) => (float[2] y) {
  y = Relu (x)
}
`;

export function prepareLint(folder: string): void {
  fs.mkdirSync(path.join(folder, FOLDER), { recursive: true });
  fs.writeFileSync(path.join(folder, FOLDER, LINT_FILE), MODEL);
}

const count = (kit: Kit, selector: string) => kit.ed.page.locator(`[data-uri$="${LINT_FILE}"] ${selector}`).count();

async function configReload(kit: Kit, folder: string): Promise<void> {
  const { ed, check, until } = kit;
  const config = path.join(folder, FOLDER, "onnxtxt.toml");
  await ed.open(LINT_FILE);
  const warned = await until("the unused-input warning", async () => (await count(kit, ".squiggly-warning")) > 0 || undefined, 30000).catch(() => false);
  check("config: an unused input is a warning", warned === true);
  await ed.shot("40-lint-warning");

  fs.writeFileSync(config, 'ignore = ["unused-input"]\n');
  const gone = await until("the warning gone", async () => (await count(kit, ".squiggly-warning")) === 0 || undefined, 30000).catch(() => false);
  check("config: onnxtxt.toml ignoring the code takes the warning away, without a restart", gone === true);
  await ed.shot("41-lint-ignored");

  fs.writeFileSync(config, '[severity]\n"unused-input" = "error"\n');
  const raised = await until("the error squiggle", async () => (await count(kit, ".squiggly-error")) > 0 || undefined, 30000).catch(() => false);
  check("config: onnxtxt.toml raising the code makes it an error, without a restart", raised === true);
  await ed.shot("42-lint-error");
  fs.rmSync(config);
  await until("the warning back", async () => (await count(kit, ".squiggly-warning")) > 0 || undefined, 30000).catch(() => undefined);
}

/** The problem's code, shown by F8 in the editor, links to its rule page. */
async function codeLink(kit: Kit): Promise<void> {
  const { ed, check, until } = kit;
  await ed.open(LINT_FILE);
  await ed.goTo(1, 1);
  await ed.page.keyboard.press("F8");
  const link = await until(
    "the code link",
    async () =>
      (await ed.page.evaluate<string | null>(
        `(() => { const a = document.querySelector(".marker-widget a[href], .marker-widget .code-link"); return a ? (a.getAttribute("href") || a.getAttribute("data-href") || a.title || a.textContent) : null; })()`,
      )) ?? undefined,
    15000,
  ).catch(() => "");
  check("rule pages: the problem's code links to its page", /docs\/rules\/unused-input/.test(link), link);
  await ed.shot("43-lint-code-link");
  await ed.page.keyboard.press("Escape");
}

/** All of issue #34's checks in the real editor; a failure is reported, the next check still runs. */
export async function lintChecks(kit: Kit, folder: string): Promise<void> {
  await runSteps(kit, [
    ["config reload", () => configReload(kit, folder)],
    ["code link", () => codeLink(kit)],
  ]);
}
