// The fuzz loop: seeded mutations of the corpus through every target. Each failure records
// the seed, the iteration and the input, so it can be replayed and turned into a test.
import { mutateBytes } from "./mutate-bytes.js";
import { mutateText } from "./mutate-text.js";
import { Rng } from "./rng.js";
import { IDE_TARGET } from "./ide-target.js";
import { DIFF_BINARY_TARGET, DIFF_TEXT_TARGET } from "./diff-target.js";
import { hostileModel, RUN_TARGET } from "./hostile-runs.js";
import { longListText } from "./long-lists.js";
import { BINARY_TARGETS, TEXT_TARGETS, type BinaryTarget, type TextTarget } from "./targets.js";

export interface FuzzOptions {
  readonly seed: number;
  /** Stop after this many inputs (text and binary together)... */
  readonly count: number;
  /** ...or after this many milliseconds, whichever comes first. */
  readonly timeMs?: number;
  readonly texts: readonly string[];
  readonly binaries: readonly Uint8Array[];
  /** One input taking longer than this through all targets counts as a failure (a hang). */
  readonly slowMs?: number;
  readonly textTargets?: readonly TextTarget[];
  readonly binaryTargets?: readonly BinaryTarget[];
  /** Share of inputs that are hostile models run by the interpreter (default 0.1). */
  readonly hostileRuns?: number;
  /** Share of inputs that are texts with one data-sized list (default 0: seconds each; `npm run fuzz` uses 0.01). */
  readonly longLists?: number;
}

export interface FuzzFailure {
  readonly iteration: number;
  readonly target: string;
  readonly problem: string;
  readonly input: string | Uint8Array;
}

export interface FuzzReport {
  readonly inputs: number;
  readonly failures: FuzzFailure[];
  readonly slowest: { readonly ms: number; readonly iteration: number; readonly size: number };
}

function describeThrow(e: unknown): string {
  if (e instanceof Error) return `threw ${e.name}: ${e.message}\n${e.stack?.split("\n").slice(1, 6).join("\n") ?? ""}`;
  return `threw ${String(e)}`;
}

function runTargets<I>(targets: readonly { name: string; run(input: I): string[] }[], input: I, iteration: number, failures: FuzzFailure[]): void {
  for (const target of targets) {
    let problems: string[];
    try {
      problems = target.run(input);
    } catch (e) {
      problems = [describeThrow(e)];
    }
    for (const problem of problems) failures.push({ iteration, target: target.name, problem, input: input as string | Uint8Array });
  }
}

export function runFuzz(options: FuzzOptions): FuzzReport {
  const rng = new Rng(options.seed);
  const failures: FuzzFailure[] = [];
  const started = Date.now();
  const textTargets = options.textTargets ?? [...TEXT_TARGETS, DIFF_TEXT_TARGET, IDE_TARGET];
  const binaryTargets = options.binaryTargets ?? [...BINARY_TARGETS, DIFF_BINARY_TARGET];
  let slowest = { ms: 0, iteration: -1, size: 0 };
  let i = 0;
  for (; i < options.count; i++) {
    if (options.timeMs !== undefined && Date.now() - started > options.timeMs) break;
    const t0 = performance.now();
    let size: number;
    let input: string | Uint8Array;
    if ((options.longLists ?? 0) > 0 && rng.chance(options.longLists!)) {
      const text = longListText(rng);
      input = text;
      size = text.length;
      // the command-line stages; editor features on megabyte documents are another matter
      runTargets(
        textTargets.filter((t) => t !== IDE_TARGET),
        text,
        i,
        failures,
      );
    } else if (rng.chance(options.hostileRuns ?? 0.1)) {
      const text = hostileModel(rng);
      input = text;
      size = text.length;
      runTargets([...textTargets, RUN_TARGET], text, i, failures);
    } else if (options.binaries.length === 0 || (options.texts.length > 0 && rng.chance(0.75))) {
      const text = mutateText(rng.pick(options.texts), rng, options.texts);
      input = text;
      size = text.length;
      runTargets(textTargets, text, i, failures);
    } else {
      const bytes = mutateBytes(rng.pick(options.binaries), rng);
      input = bytes;
      size = bytes.length;
      runTargets(binaryTargets, bytes, i, failures);
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, iteration: i, size };
    if (options.slowMs !== undefined && ms > options.slowMs) {
      failures.push({ iteration: i, target: "all", problem: `took ${ms.toFixed(0)} ms for ${size} units`, input });
    }
  }
  return { inputs: i, failures, slowest };
}
