// A pool of helper threads sharing the kernel memory. `parallel` runs one job split into
// parts across the main thread and whichever helpers have started; until a helper is up,
// the main thread does all parts itself, so using the pool never waits for start-up.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Arena } from './arena.js';
import {
  ASSIGNED, CONTROL_INTS, DONE, FAILED, JOB_KIND, JOB_PARTS, MAX_HELPERS, PARAMS, PART, READY, SEQ, STOP,
  type HelperData,
} from './pool-protocol.js';
import { runJobPart, type JobKind } from './jobs.js';
import { instantiateKernels, kernelModule, type KernelExports } from './wasm/kernel-module.js';

/** A helper that has not answered within this time is dropped and its part redone here. */
const HELPER_TIMEOUT_MS = 60_000;

export class KernelPool {
  readonly arena = new Arena();
  readonly kernels: KernelExports;
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_INTS * 4));
  private readonly workers: Worker[] = [];
  private readonly dropped = new Set<number>();
  private seq = 0;

  constructor(helpers: number) {
    const module = kernelModule();
    this.kernels = instantiateKernels(module, this.arena.memory);
    for (let index = 0; index < Math.min(helpers, MAX_HELPERS); index++) {
      const data: HelperData = { memory: this.arena.memory, module, control: this.control.buffer as SharedArrayBuffer, index };
      const worker = new Worker(new URL('./helper.js', import.meta.url), { workerData: data });
      // Helpers never keep the process alive; a one-shot CLI run just exits.
      worker.unref();
      worker.on('error', () => this.dropped.add(index));
      worker.on('exit', () => this.dropped.add(index));
      this.workers.push(worker);
    }
  }

  /** Helpers ready to take a part now. */
  private readyHelpers(): number[] {
    const ready: number[] = [];
    for (let i = 0; i < this.workers.length; i++) {
      if (!this.dropped.has(i) && Atomics.load(this.control, READY + i) === 1) ready.push(i);
    }
    return ready;
  }

  /** How many parts a job posted now would be split into. */
  threads(): number {
    return 1 + this.readyHelpers().length;
  }

  /**
   * Runs parts 0..parts-1 of a job whose parameters `params` writes (int32 slots from 0).
   * `parts` must not exceed `threads()` at the time of the call.
   */
  parallel(kind: JobKind, parts: number, params: (slots: Int32Array) => void): void {
    const slots = this.control.subarray(PARAMS);
    params(slots);
    const helpers = this.readyHelpers().slice(0, parts - 1);
    if (helpers.length === 0) {
      for (let part = 0; part < parts; part++) runJobPart(kind, slots, part, parts, this.arena.f32, this.kernels);
      return;
    }
    const seq = ++this.seq;
    Atomics.store(this.control, JOB_KIND, kind);
    Atomics.store(this.control, JOB_PARTS, parts);
    helpers.forEach((helper, i) => {
      Atomics.store(this.control, PART + helper, i + 1);
      Atomics.store(this.control, FAILED + helper, 0);
      Atomics.store(this.control, ASSIGNED + helper, seq);
    });
    Atomics.store(this.control, SEQ, seq);
    Atomics.notify(this.control, SEQ);
    // Parts not covered by a helper run here (when fewer helpers are up than parts).
    for (let part = 0; part < parts; part++) {
      if (part === 0 || part > helpers.length) runJobPart(kind, slots, part, parts, this.arena.f32, this.kernels);
    }
    helpers.forEach((helper, i) => {
      if (!this.waitFor(helper, seq) || Atomics.load(this.control, FAILED + helper) === 1) {
        this.dropped.add(helper);
        runJobPart(kind, slots, i + 1, parts, this.arena.f32, this.kernels);
      }
    });
  }

  private waitFor(helper: number, seq: number): boolean {
    const deadline = Date.now() + HELPER_TIMEOUT_MS;
    while (Atomics.load(this.control, DONE + helper) !== seq) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.control, DONE + helper, Atomics.load(this.control, DONE + helper), Math.min(left, 1000));
    }
    return true;
  }

  /** Stops the helpers (tests and long-lived hosts; a CLI run may simply exit). */
  async close(): Promise<void> {
    Atomics.store(this.control, STOP, 1);
    Atomics.store(this.control, SEQ, ++this.seq);
    Atomics.notify(this.control, SEQ);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let shared: KernelPool | undefined;

/**
 * The process-wide pool, created on first use with one helper per extra core. Call it early
 * (e.g. before decoding a model) so the helpers start while other work goes on.
 */
export function kernelPool(): KernelPool {
  shared ??= new KernelPool(Math.max(0, availableParallelism() - 1));
  return shared;
}
