// A real VS Code for the e2e suite and the editor latency bench: code-server and chromium as
// real-vscode-setup.sh installs them into WORK, started with a fresh user-data folder and the
// packaged .vsix installed. Start it with setsid (detached) and stop its whole process group:
// its extension host outlives a plain kill.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface CodeServerEnv {
  CODE_SERVER: string;
  CODE_SERVER_CONFIG: string;
  CHROMIUM_PATH: string;
  PLAYWRIGHT_CORE: string;
}

/** Installs (or finds) code-server, chromium and playwright-core in `work`. */
export function setupCodeServer(work: string): CodeServerEnv {
  const r = spawnSync("bash", [path.join(REPO, "test/e2e/real-vscode-setup.sh"), work], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`real-vscode-setup.sh failed (${r.status})`);
  const env: Record<string, string> = {};
  for (const line of r.stdout.split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!;
  }
  return env as unknown as CodeServerEnv;
}

/**
 * code-server on `folder` with `vsix` installed, listening on a free port of 127.0.0.1.
 * `extraEnv`: for the processes it starts (the extension host and the language server).
 */
export function startCodeServer(
  env: CodeServerEnv,
  work: string,
  vsix: string,
  folder: string,
  extraEnv: Record<string, string> = {},
): Promise<{ proc: ChildProcess; url: string }> {
  const userData = path.join(work, "user-data");
  const extensions = path.join(work, "extensions");
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
    }),
  );
  const xdg = { XDG_CONFIG_HOME: path.join(work, "xdg/config"), XDG_DATA_HOME: path.join(work, "xdg/data") };
  const base = ["--config", env.CODE_SERVER_CONFIG, "--user-data-dir", userData, "--extensions-dir", extensions];
  const install = spawnSync(env.CODE_SERVER, [...base, "--force", "--install-extension", vsix], { encoding: "utf8", env: { ...process.env, ...xdg } });
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
