// The interpreter's worker: runs the main graph of a text with core's run-cell (inputs from
// the CLI's rules, core/src/run-inputs.ts, and run-cell's memory and time caps). The page stops
// a run by terminating this worker. The build swaps the Node-only fast kernels for
// fast-kernels-off.ts.
import "../../server/src/browser/immediate.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { runCell } from "../../core/src/ide/run-cell.js";
import type { RunRequest, RunResult } from "./run-protocol.js";

interface WorkerScope {
  onmessage: ((e: { data: RunRequest }) => void) | null;
  postMessage(m: RunResult): void;
}
const scope = globalThis as unknown as WorkerScope;

async function run(req: RunRequest): Promise<RunResult> {
  try {
    const r = await runCell(analyze(req.text), {});
    return { ok: true, outputs: r.outputs, elapsedMs: r.elapsedMs, inputSources: r.inputSources };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

scope.onmessage = (e) => {
  void run(e.data).then((r) => scope.postMessage(r));
};
