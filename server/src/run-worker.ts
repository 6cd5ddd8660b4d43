// The worker thread run-cells execute in, so a long run never blocks the server and an edit
// can cancel it by terminating the thread. It stays alive between runs (module loading is
// the slow part of starting one) and re-analyses the text of each job it is given.
import { parentPort } from "node:worker_threads";
import { analyze } from "../../core/src/ide/analyze.js";
import { runCell } from "../../core/src/ide/run-cell.js";
import type { RunJob, RunReply } from "./run-protocol.js";

async function handle(job: RunJob): Promise<RunReply> {
  try {
    const r = await runCell(analyze(job.text), {
      ...(job.graph !== undefined ? { graph: job.graph } : {}),
      ...(job.inputs !== undefined ? { inputs: job.inputs } : {}),
      ...(job.dataSet ? { dataSet: job.dataSet } : {}),
    });
    return {
      ok: true,
      outputs: r.outputs,
      elapsedMs: r.elapsedMs,
      inputSources: r.inputSources,
      graph: r.values.graph,
      values: [...r.values.values],
    };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

parentPort!.on("message", (job: RunJob) => {
  void handle(job).then((reply) => parentPort!.postMessage(reply));
});
