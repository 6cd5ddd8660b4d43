// A pool of helper threads sharing the kernel memory. `parallel` runs one job cut into
// chunks on the main thread and whichever helpers are up and free; until a helper has
// started, the main thread simply does all chunks itself.

import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { pollRun } from "../budget.js";
import { Arena } from "./arena.js";
import {
  COMPLETED,
  CONTROL_INTS,
  FAILED,
  JOB_CHUNKS,
  JOB_KIND,
  MAX_CHUNKS,
  MAX_HELPERS,
  NEXT,
  PARAMS,
  READY,
  SEQ,
  STOP,
  claimChunk,
  claimTag,
  type HelperData,
} from "./pool-protocol.js";
import { runJobPart, type JobKind } from "./jobs.js";
import { instantiateKernels, type KernelExports } from "./wasm/kernel-instance.js";
import { kernelModule } from "./wasm/kernel-module.js";

/** Helpers that hold claimed chunks longer than this are given up on and the job redone. */
const HELPER_TIMEOUT_MS = 60_000;

export class KernelPool {
  readonly arena = new Arena();
  readonly kernels: KernelExports;
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_INTS * 4));
  private readonly workers: Worker[] = [];
  private broken = false;
  private seq = 0;

  constructor(helpers: number) {
    const module = kernelModule();
    this.kernels = instantiateKernels(module, this.arena.memory);
    for (let index = 0; index < Math.min(helpers, MAX_HELPERS); index++) {
      const data: HelperData = { memory: this.arena.memory, module, control: this.control.buffer as SharedArrayBuffer, index };
      const worker = new Worker(new URL("./helper.js", import.meta.url), { workerData: data });
      // Helpers never keep the process alive; a one-shot CLI run just exits.
      worker.unref();
      worker.on("error", () => (this.broken = true));
      this.workers.push(worker);
    }
  }

  /** Threads that can work on a job posted now (the main thread and the helpers up). */
  threads(): number {
    if (this.broken) return 1;
    let ready = 0;
    for (let i = 0; i < this.workers.length; i++) ready += Atomics.load(this.control, READY + i);
    return 1 + ready;
  }

  /**
   * Runs chunks 0..chunks-1 of a job whose parameters `params` writes (int32 slots from 0).
   * Chunks must be independent and each must fully write its own outputs.
   */
  parallel(kind: JobKind, chunks: number, params: (slots: Int32Array) => void): void {
    const slots = this.control.subarray(PARAMS);
    if (chunks <= 1 || chunks >= MAX_CHUNKS || this.threads() === 1) {
      params(slots);
      for (let chunk = 0; chunk < chunks; chunk++) {
        pollRun();
        runJobPart(kind, slots, chunk, chunks, this.kernels);
      }
      return;
    }
    const seq = (this.seq = (this.seq + 1) & 0x7fff);
    // Closed while the job is written: a helper still looking at the previous job can claim
    // nothing, and nothing of this one before its parameters are complete.
    Atomics.store(this.control, NEXT, claimTag(seq) | MAX_CHUNKS);
    params(slots);
    Atomics.store(this.control, JOB_KIND, kind);
    Atomics.store(this.control, JOB_CHUNKS, chunks);
    Atomics.store(this.control, COMPLETED, 0);
    Atomics.store(this.control, FAILED, 0);
    Atomics.store(this.control, NEXT, claimTag(seq));
    Atomics.store(this.control, SEQ, seq);
    Atomics.notify(this.control, SEQ);
    let done = 0;
    try {
      for (let chunk = claimChunk(this.control, seq, chunks); chunk >= 0; chunk = claimChunk(this.control, seq, chunks)) {
        pollRun();
        runJobPart(kind, slots, chunk, chunks, this.kernels);
        done++;
      }
    } catch (e) {
      // The run is over (its deadline, or cancelled): let no helper start another chunk, and
      // wait for those it is in, so that nothing writes to the kernel memory after we return.
      const next = Atomics.exchange(this.control, NEXT, claimTag(seq) | MAX_CHUNKS);
      const claimed = Math.min(next & 0xffff, chunks);
      const byHelpers = claimed - done - 1;
      const until = Date.now() + HELPER_TIMEOUT_MS;
      while (Atomics.load(this.control, COMPLETED) < byHelpers && Date.now() < until)
        Atomics.wait(this.control, COMPLETED, Atomics.load(this.control, COMPLETED), 10);
      throw e;
    }
    const all = Atomics.add(this.control, COMPLETED, done) + done;
    if (all < chunks && !this.waitForChunks(chunks)) this.broken = true;
    if (this.broken || Atomics.load(this.control, FAILED) === 1) {
      // Every chunk rewrites its outputs from scratch, so redoing the job is safe.
      for (let chunk = 0; chunk < chunks; chunk++) runJobPart(kind, slots, chunk, chunks, this.kernels);
    }
  }

  private waitForChunks(chunks: number): boolean {
    const deadline = Date.now() + HELPER_TIMEOUT_MS;
    for (;;) {
      const completed = Atomics.load(this.control, COMPLETED);
      if (completed >= chunks) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.control, COMPLETED, completed, Math.min(left, 1000));
    }
  }

  /** Stops the helpers (tests and long-lived hosts; a CLI run may simply exit). */
  async close(): Promise<void> {
    Atomics.store(this.control, STOP, 1);
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let shared: KernelPool | undefined;

/** Threads for the kernels: ONNXTXT_THREADS when set to a positive integer, else one per core. */
export function defaultThreadCount(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env["ONNXTXT_THREADS"]);
  return Number.isInteger(asked) && asked > 0 ? asked : availableParallelism();
}

/**
 * The process-wide pool, created on first use with a helper per extra thread. Call it early
 * (e.g. before decoding a model) so the helpers start while other work goes on.
 */
export function kernelPool(): KernelPool {
  shared ??= new KernelPool(defaultThreadCount() - 1);
  return shared;
}
