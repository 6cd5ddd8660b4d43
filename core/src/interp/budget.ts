// What a running kernel may still take: memory claimed before it is allocated, and a poll of
// the run's deadline and cancellation for kernels that work long inside one node. The
// executor opens a scope per node; kernels are synchronous, so one module-level state per
// thread suffices (helper threads never open a scope: claims are unlimited, polls no-ops).
import { GuardError, InterpError } from "./errors.js";

let limit = Infinity;
let claimed = 0;
let poll: (() => void) | undefined;

/** Bytes allocations may take from now on (the CLI sets it around default inputs, the executor per run). */
export function setAllocationLimit(bytes: number): void {
  limit = bytes;
  claimed = 0;
}

interface BudgetScope {
  readonly limit: number;
  readonly claimed: number;
}

/** Starts a node's budget: at most `bytes`, and never more than the enclosing node has left. */
export function openBudget(bytes: number): BudgetScope {
  const saved = { limit, claimed };
  limit = Math.min(bytes, limit - claimed);
  claimed = 0;
  return saved;
}

/** Ends a node's budget; what it claimed was either freed or became a value the executor counts. */
export function closeBudget(saved: BudgetScope): void {
  limit = saved.limit;
  claimed = saved.claimed;
}

/**
 * Claims `bytes` before allocating them. `what` names the allocation in the message ("a tensor
 * of 10 float elements"); a size that is no whole number of bytes is an error of the model.
 */
export function claimBytes(bytes: number, what: () => string): void {
  if (!Number.isFinite(bytes) || bytes < 0) throw new InterpError(`${what()} is not possible: sizes must be whole numbers from 0 to 2^53`);
  if (claimed + bytes > limit) throw new GuardError(`${what()} would exceed the memory limit`);
  claimed += bytes;
}

/** Installs the check a long kernel polls (the executor's deadline and cancellation), or removes it. */
export function setRunPoll(check: (() => void) | undefined): void {
  poll = check;
}

/** Throws when the run is over its time or was cancelled; long kernels call it every so often. */
export function pollRun(): void {
  poll?.();
}
