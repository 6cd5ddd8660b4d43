// The shared control block between the main thread and the helper threads. Kernels are
// synchronous: the main thread posts a job, does its own part, and waits (Atomics.wait) for
// the helpers' parts, so the interpreter never sees threads.

export const MAX_HELPERS = 7;

/** Incremented by the main thread to post a job. */
export const SEQ = 0;
/** Set to 1 to make the helpers exit. */
export const STOP = 1;
/** DONE + i: the last job sequence helper i finished. */
export const DONE = 2;
/** READY + i: 1 once helper i can take jobs. */
export const READY = DONE + MAX_HELPERS;
/** ASSIGNED + i: the sequence of the job helper i takes part in. */
export const ASSIGNED = READY + MAX_HELPERS;
/** PART + i: helper i's part index in that job. */
export const PART = ASSIGNED + MAX_HELPERS;
/** FAILED + i: 1 when helper i could not finish its part (the main thread redoes it). */
export const FAILED = PART + MAX_HELPERS;
export const JOB_KIND = FAILED + MAX_HELPERS;
export const JOB_PARTS = JOB_KIND + 1;
/** Job parameters (int32 each) start here. */
export const PARAMS = 64;
export const CONTROL_INTS = PARAMS + 64;

export interface HelperData {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  control: SharedArrayBuffer;
  index: number;
}
