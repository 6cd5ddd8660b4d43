// A row of the step table: the op, the version that introduced the change, what changed.
import type { StepSpec } from "../spec.js";

export type Row = readonly [op: string, newer: number, spec: StepSpec];

/** Legacy `consumed_inputs` (gone at 6): dropped going up, never needed going down. */
export const CONSUMED: StepSpec = { removed: { consumed_inputs: { ok: "any" } }, how: "drop the legacy consumed_inputs attribute" };

/** The same change for several ops. */
export function rows(ops: readonly string[], newer: number, spec: StepSpec): Row[] {
  return ops.map((op) => [op, newer, spec] as const);
}
