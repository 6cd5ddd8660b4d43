// Whole processes timed side by side: wall time, and CPU time through GNU time (which stays
// meaningful on a shared machine, where wall time also measures the other jobs).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { median } from "./stats.js";

export interface Timing {
  /** Milliseconds. */
  readonly wall: number;
  /** User + system CPU ms of the process (GNU time), or NaN without /usr/bin/time. */
  readonly cpu: number;
}

const GNU_TIME = "/usr/bin/time";
const HAVE_GNU_TIME = fs.existsSync(GNU_TIME);

/** Runs `argv` (command first); throws when it fails. */
export function timeRun(argv: readonly string[]): Timing {
  const [cmd, ...args] = argv as [string, ...string[]];
  const t0 = process.hrtime.bigint();
  const r = HAVE_GNU_TIME
    ? spawnSync(GNU_TIME, ["-f", "cpu %U %S", cmd, ...args], { encoding: "utf8", maxBuffer: 1 << 26 })
    : spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  const m = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
}

/** Runs the commands in turn `runs` times, so that all see the same machine noise; medians of each. */
export function sideBySide(runs: number, commands: readonly (() => Timing)[]): Timing[] {
  const times = commands.map((): Timing[] => []);
  for (let i = 0; i < runs; i++) commands.forEach((run, j) => times[j]!.push(run()));
  return times.map((ts) => ({ wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) }));
}
