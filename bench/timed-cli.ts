// One CLI process under /usr/bin/time -v: its wall time, peak memory, exit code and output.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bin/onnxtxt.js");
const TIME = "/usr/bin/time";

export interface TimedRun {
  readonly seconds: number;
  readonly peakMb: number;
  readonly code: number;
  readonly stdout: string;
  /** What the command itself wrote to stderr (time's report left out). */
  readonly stderr: string;
}

/** Throws when /usr/bin/time is missing (Debian's package `time`). */
export function requireTime(): void {
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} is needed (apt-get install time)`);
}

export function timedCli(args: readonly string[]): TimedRun {
  const r = spawnSync(TIME, ["-v", process.execPath, CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  const field = (name: string): string => new RegExp(`${name}: (.+)`).exec(r.stderr)?.[1] ?? "";
  const clock = field("Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)").split(":").map(Number);
  const seconds = clock.reduce((s, v) => s * 60 + v, 0);
  const peakMb = Number(field("Maximum resident set size \\(kbytes\\)")) / 1024;
  const own = r.stderr.indexOf("\tCommand being timed");
  return { seconds, peakMb, code: r.status ?? -1, stdout: r.stdout, stderr: own < 0 ? r.stderr : r.stderr.slice(0, own) };
}
