// Helper thread entry: sleeps until a job is posted, then claims and runs its chunks.

import { workerData } from "node:worker_threads";
import { COMPLETED, FAILED, JOB_CHUNKS, JOB_KIND, PARAMS, READY, SEQ, STOP, claimChunk, type HelperData } from "./pool-protocol.js";
import { runJobPart, type JobKind } from "./jobs.js";
import { instantiateKernels } from "./wasm/kernel-instance.js";

const data = workerData as HelperData;
const control = new Int32Array(data.control);
const kernels = instantiateKernels(data.module, data.memory);
const slots = control.subarray(PARAMS);
let seen = Atomics.load(control, SEQ);
Atomics.store(control, READY + data.index, 1);

for (;;) {
  Atomics.wait(control, SEQ, seen);
  seen = Atomics.load(control, SEQ);
  if (Atomics.load(control, STOP) === 1) break;
  // The job's parameters are stable while we hold a claimed chunk of it.
  const chunks = Atomics.load(control, JOB_CHUNKS);
  for (let chunk = claimChunk(control, seen, chunks); chunk >= 0; chunk = claimChunk(control, seen, chunks)) {
    try {
      runJobPart(Atomics.load(control, JOB_KIND) as JobKind, slots, chunk, Atomics.load(control, JOB_CHUNKS), kernels);
    } catch {
      Atomics.store(control, FAILED, 1);
    }
    if (Atomics.add(control, COMPLETED, 1) + 1 >= Atomics.load(control, JOB_CHUNKS)) Atomics.notify(control, COMPLETED);
  }
}
