// Runs a text model with the interpreter on default inputs, expecting it to fail: the tests of
// the interpreter's caps and deadlines share this.
import { strict as assert } from "node:assert";
import { defaultValue, Rng, runModel, type RunOptions } from "../../../core/src/interp/index.js";
import { modelFromText } from "../../../core/src/text.js";

/** What the run fails with, and how long it took to fail. */
export function runFailure(text: string, options: RunOptions = {}): { error: unknown; ms: number } {
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("; "));
  const feeds = new Map(r.model.graph!.input.map((i) => [i.name, defaultValue(i.type, new Map(), new Rng(0), i.name)]));
  const t0 = Date.now();
  try {
    runModel(r.model, feeds, options);
  } catch (error) {
    return { error, ms: Date.now() - t0 };
  }
  return assert.fail("the run succeeded");
}
