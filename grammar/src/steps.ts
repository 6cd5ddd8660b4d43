// Work in steps: a generator that yields where it may pause. A language server runs it in
// slices between other requests (server/src/slices.ts); everyone else runs it through at once.

/** Runs `steps` to the end without pausing, and returns what it returns. */
export function finish<T>(steps: Iterator<unknown, T, undefined>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * How many nodes of a graph lowering, inference and the checker go through between two pauses:
 * a few milliseconds' work, so that a request waits that long at most.
 */
export const NODES_PER_STEP = 1024;

/** How many tokens of a graph body a sliced parse reads between two pauses: a thousand or two statements, a few milliseconds. */
export const TOKENS_PER_STEP = 16384;
