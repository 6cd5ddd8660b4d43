// Runs the built CLI as a child process, as a user would.
import { spawnSync } from "node:child_process";
import { CLI } from "./paths.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, maxBuffer: 1 << 28 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
