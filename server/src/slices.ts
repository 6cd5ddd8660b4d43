// Whole-document work (semantic tokens, folds, the outline, the symbol index) in slices: the
// work is a generator that pauses (yields) every fraction of a millisecond, run here for a
// few milliseconds at a time with a turn of the event loop in between. A hover that arrives
// while the semantic tokens of a 50k-node document are computed is answered in the next gap,
// not after the whole walk; several such computations share the time in turns. While position
// requests are being answered the slices wait for them; when the text changes they stop.
// Browser-safe: setImmediate comes from browser/immediate.ts in a Web Worker.
import { MAX_HOLD_MS } from "./priority.js";

/** How long a slice runs before it lets other messages in. */
let sliceMs = 6;

/** The slice length (0: pause at every step; tests use it to interleave as much as possible). */
export function setSliceMs(ms: number): void {
  sliceMs = ms;
}

/** The work was abandoned because the text it was about has changed. */
export class Superseded extends Error {
  constructor() {
    super("the document changed; ask again");
  }
}

export interface SliceOptions {
  /** True once the work is worthless (the text changed): it stops at its next pause with Superseded. */
  readonly stale: () => boolean;
  /** True while position requests are being answered: the work waits for them. */
  readonly hold?: () => boolean;
  /**
   * How many messages the transport has read (priority.ts's OrderState). One read during a
   * pause is handed to the server a turn after it (the connection dispatches from a queue of
   * its own), so the pause takes that turn too: a hover is answered before the next slice.
   */
  readonly arrivals?: () => number;
}

/** Runs `steps` to its end in slices, and resolves with what it returns. */
export async function runSliced<T>(steps: Iterator<unknown, T, undefined>, options: SliceOptions): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await pause(options);
    sliceStart = performance.now();
  }
}

/**
 * A turn of the event loop, then a wait for the position requests being answered: what a slice
 * does between its steps, and what a chain of unsliced stages does between them (a hover read
 * meanwhile is answered first). Rejects with Superseded once the work is stale.
 */
export async function pause(options: SliceOptions): Promise<void> {
  const since = performance.now();
  let read = options.arrivals?.();
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.stale()) throw new Superseded();
    const before = read;
    read = options.arrivals?.();
    if ((read === before && !options.hold?.()) || performance.now() - since >= MAX_HOLD_MS) return;
  }
}
