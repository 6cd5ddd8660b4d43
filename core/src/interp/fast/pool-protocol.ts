// The shared control block between the main thread and the helper threads. Kernels stay
// synchronous: the main thread posts a job cut into chunks, every thread (main included)
// claims chunks until none are left, and the main thread waits (Atomics.wait) only for
// chunks already claimed. A slow or late helper therefore never holds up a job.

export const MAX_HELPERS = 7;

/** Incremented by the main thread to post a job; helpers wake on it. */
export const SEQ = 0;
/** Set to 1 to make the helpers exit. */
export const STOP = 1;
/** Next chunk to claim, tagged with the job: (seq & 0x7fff) << 16 | chunk. */
export const NEXT = 2;
/** Chunks finished (by any thread) in the current job. */
export const COMPLETED = 3;
/** Set when a helper failed a chunk: the main thread then redoes the whole job. */
export const FAILED = 4;
export const JOB_KIND = 5;
export const JOB_CHUNKS = 6;
/** READY + i: 1 once helper i can take chunks. */
export const READY = 8;
/** Job parameters (int32 each) start here. */
export const PARAMS = 64;
export const CONTROL_INTS = PARAMS + 64;

/** Chunks of one job are fewer than this; NEXT at this index means the job takes no claims. */
export const MAX_CHUNKS = 0xffff;

export function claimTag(seq: number): number {
  return (seq & 0x7fff) << 16;
}

/** Claims the next chunk of job `seq`, or returns -1 when it has none left (or is over). */
export function claimChunk(control: Int32Array, seq: number, chunks: number): number {
  const tag = claimTag(seq);
  for (;;) {
    const current = Atomics.load(control, NEXT);
    if ((current & ~0xffff) !== tag) return -1;
    const chunk = current & 0xffff;
    if (chunk >= chunks) return -1;
    if (Atomics.compareExchange(control, NEXT, current, current + 1) === current) return chunk;
  }
}

export interface HelperData {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  control: SharedArrayBuffer;
  index: number;
}
