// Checks the fast float32 digit path (WebAssembly) against the exact search over every
// positive normal float32 (2^31 - 2^24 values; a few minutes per core). Too slow for
// `npm test`, which runs a sample of the same comparison (test/print/float-text.test.ts); run
// this after changing core/wasm/float32-text.ts or core/src/numbers/float32-digits.ts:
//   npx tsc -p . && node dist/scripts/check-float32-digits.js [--workers N]
import * as os from "node:os";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { found, shortestDigitsSearch } from "../core/src/numbers/float32-digits.js";
import { fastDigits } from "../core/src/numbers/float32-wasm.js";

interface Range {
  readonly from: number;
  readonly to: number;
}

interface Result {
  readonly checked: number;
  /** Values in the search's range that the fast path left to it. */
  readonly deferred: number;
  readonly mismatches: string[];
}

function checkRange({ from, to }: Range): Result {
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const one = new Float64Array(1);
  const mismatches: string[] = [];
  let deferred = 0;
  for (let bits = from; bits < to; bits++) {
    u32[0] = bits;
    one[0] = f32[0]!;
    const fast = fastDigits(one[0]!);
    const exact = shortestDigitsSearch(one, 0);
    if (!fast) {
      if (exact) deferred++;
      continue;
    }
    if (!exact || fast[0] !== found[0] || fast[1] !== found[1]) {
      if (mismatches.length < 10) mismatches.push(`bits ${bits.toString(16)}: fast ${fast[0]}e-${fast[1]}, search ${exact} ${found[0]}e-${found[1]}`);
    }
  }
  return { checked: to - from, deferred, mismatches };
}

async function main(): Promise<void> {
  const flag = process.argv.indexOf("--workers");
  const workers = flag > 0 ? Number(process.argv[flag + 1]) : Math.max(1, os.availableParallelism());
  const first = 0x00800000; // the smallest normal
  const end = 0x7f800000; // infinity
  const step = Math.ceil((end - first) / workers);
  const t0 = Date.now();
  const results = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const range: Range = { from: first + w * step, to: Math.min(end, first + (w + 1) * step) };
      return new Promise<Result>((resolve, reject) => {
        const worker = new Worker(fileURLToPath(import.meta.url), { workerData: range });
        worker.on("message", resolve);
        worker.on("error", reject);
      });
    }),
  );
  const checked = results.reduce((a, r) => a + r.checked, 0);
  const deferred = results.reduce((a, r) => a + r.deferred, 0);
  const mismatches = results.flatMap((r) => r.mismatches);
  console.log(
    `${checked} float32 values checked in ${((Date.now() - t0) / 1000).toFixed(0)} s (${deferred} in the search's range deferred to it): ${mismatches.length ? "MISMATCHES" : "the fast path always agrees with the search"}`,
  );
  for (const m of mismatches) console.log("  " + m);
  process.exitCode = mismatches.length ? 1 : 0;
}

if (isMainThread) await main();
else parentPort!.postMessage(checkRange(workerData as Range));
