// Helper thread entry: waits for jobs on the control block and runs its assigned part.

import { workerData } from 'node:worker_threads';
import { ASSIGNED, DONE, FAILED, JOB_KIND, JOB_PARTS, PARAMS, PART, READY, SEQ, STOP, type HelperData } from './pool-protocol.js';
import { runJobPart, type JobKind } from './jobs.js';
import { instantiateKernels } from './wasm/kernel-module.js';

const data = workerData as HelperData;
const control = new Int32Array(data.control);
const kernels = instantiateKernels(data.module, data.memory);
const slots = control.subarray(PARAMS);
let f32 = new Float32Array(data.memory.buffer);
let seen = Atomics.load(control, SEQ);
Atomics.store(control, READY + data.index, 1);

for (;;) {
  Atomics.wait(control, SEQ, seen);
  seen = Atomics.load(control, SEQ);
  if (Atomics.load(control, STOP) === 1) break;
  if (Atomics.load(control, ASSIGNED + data.index) !== seen) continue;
  try {
    if (f32.byteLength !== data.memory.buffer.byteLength) f32 = new Float32Array(data.memory.buffer);
    const kind = Atomics.load(control, JOB_KIND) as JobKind;
    runJobPart(kind, slots, Atomics.load(control, PART + data.index), Atomics.load(control, JOB_PARTS), f32, kernels);
  } catch {
    Atomics.store(control, FAILED + data.index, 1);
  }
  Atomics.store(control, DONE + data.index, seen);
  Atomics.notify(control, DONE + data.index);
}
