// What a run worker does with a job, in Node's worker thread (run-worker.ts) and in a
// browser's Web Worker (run-worker-browser.ts): analyse the text, run the cell, reply.
import { analyze } from "../../core/src/ide/analyze.js";
import { runCell } from "../../core/src/ide/run-cell.js";
import type { RunJob, RunReply } from "./run-protocol.js";

export async function handleRunJob(job: RunJob): Promise<RunReply> {
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
