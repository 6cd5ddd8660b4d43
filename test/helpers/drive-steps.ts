// Work in steps (grammar/src/steps.ts) run through by a test that counts the pauses.

/** The steps of `steps` until it ends: how many pauses, and what it returned. */
export function drive<T>(steps: Iterator<unknown, T, undefined>): { pauses: number; result: T } {
  let pauses = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { pauses, result: r.value };
    pauses++;
  }
}
