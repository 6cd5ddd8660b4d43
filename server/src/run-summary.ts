// The one-line summary of a run for clients without a run view (Node and browser builds).
import type { RunCellAnswer } from "../../core/src/ide/run-cell.js";

/** One short message for clients that show no run view: each output's type and first values. */
export function runSummary(r: RunCellAnswer): string {
  const outputs = r.outputs.map((o) => {
    const text = o.text.replace(/\s+/g, " ");
    return `${o.name}: ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
  });
  return `Run finished in ${r.elapsedMs.toFixed(0)} ms. ${outputs.join("; ")}`;
}
