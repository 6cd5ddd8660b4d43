// A code-server session for the e2e test and the editor latency bench: the offline set-up
// (real-vscode-setup.sh into .e2e/), the packaged .vsix installed, code-server started on a
// folder, Chromium opened on it through playwright-core.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page, Playwright } from "./browser.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const WORK = path.join(REPO, ".e2e");
export const VSIX = path.join(REPO, "client-vscode/onnxtxt-0.1.0.vsix");

interface Env {
  CODE_SERVER: string;
  CODE_SERVER_CONFIG: string;
  CHROMIUM_PATH: string;
  PLAYWRIGHT_CORE: string;
}

function setup(): Env {
  const r = spawnSync("bash", [path.join(REPO, "test/e2e/real-vscode-setup.sh"), WORK], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`real-vscode-setup.sh failed (${r.status})`);
  const env: Record<string, string> = {};
  for (const line of r.stdout.split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!;
  }
  return env as unknown as Env;
}

function startCodeServer(
  env: Env,
  folder: string,
  extraEnv: Record<string, string>,
  settings: Record<string, unknown>,
): Promise<{ proc: ChildProcess; url: string }> {
  const userData = path.join(WORK, "user-data");
  const extensions = path.join(WORK, "extensions");
  fs.rmSync(userData, { recursive: true, force: true });
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User/settings.json"),
    JSON.stringify({
      "workbench.startupEditor": "none",
      "security.workspace.trust.enabled": false,
      "workbench.tips.enabled": false,
      "editor.hover.delay": 200,
      "telemetry.telemetryLevel": "off",
      "extensions.autoCheckUpdates": false,
      "update.mode": "none",
      "window.restoreWindows": "none",
      ...settings,
    }),
  );
  const xdg = { XDG_CONFIG_HOME: path.join(WORK, "xdg/config"), XDG_DATA_HOME: path.join(WORK, "xdg/data") };
  const base = ["--config", env.CODE_SERVER_CONFIG, "--user-data-dir", userData, "--extensions-dir", extensions];
  const install = spawnSync(env.CODE_SERVER, [...base, "--force", "--install-extension", VSIX], { encoding: "utf8", env: { ...process.env, ...xdg } });
  if (install.status !== 0) throw new Error(`installing the .vsix failed: ${install.stdout}${install.stderr}`);
  const proc = spawn(env.CODE_SERVER, [...base, "--bind-addr", "127.0.0.1:0", "--auth", "none", "--disable-telemetry", folder], {
    env: { ...process.env, ...xdg, ...extraEnv },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`code-server did not start: ${out}`)), 60000);
    const read = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1]! });
      }
    };
    proc.stdout!.on("data", read);
    proc.stderr!.on("data", read);
  });
}

export interface Session {
  readonly page: Page;
  /** Closes the browser and stops code-server. */
  close(): Promise<void>;
}

/**
 * Starts code-server on `folder` (extension host and language server get `extraEnv`; the user
 * settings get `settings` over the test's own) and a
 * browser page on its workbench, ready for input. Needs `npm run package:vscode` first.
 */
export async function openWorkbench(folder: string, extraEnv: Record<string, string> = {}, settings: Record<string, unknown> = {}): Promise<Session> {
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} missing: run npm run package:vscode`);
  const env = setup();
  const server = await startCodeServer(env, folder, extraEnv, settings);
  const stop = (): void => {
    try {
      process.kill(-server.proc.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  let browser: Browser | undefined;
  try {
    const pw = (await import(pathToFileURL(path.join(env.PLAYWRIGHT_CORE, "index.mjs")).href)) as Playwright;
    browser = await pw.chromium.launch({ executablePath: env.CHROMIUM_PATH, args: ["--no-sandbox", "--disable-gpu"] });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`, { timeout: 120000 });
    await page.locator(".monaco-workbench").first().waitFor({ state: "visible", timeout: 120000 });
    await page.waitForTimeout(3000);
    const opened = browser;
    return {
      page,
      close: async () => {
        await opened.close();
        stop();
      },
    };
  } catch (e) {
    await browser?.close();
    stop();
    throw e;
  }
}
