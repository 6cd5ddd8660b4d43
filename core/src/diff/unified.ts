// `onnxtxt diff --format unified`: the canonical texts of A and of B (with A's names wherever
// the structural matching paired a renamed value), as a unified diff.
import { printModel } from "../print-model.js";
import { withAlignedNames } from "./align-names.js";
import { compareModels } from "./diff-models.js";
import { unifiedText } from "./line-diff.js";
import type { DiffInput, DiffOptions } from "./types.js";

function lines(text: string): string[] {
  const ls = text.split("\n");
  if (ls[ls.length - 1] === "") ls.pop();
  return ls;
}

/** The unified diff of the two models' canonical texts after aligning names; "" when they print the same. */
export function unifiedDiff(a: DiffInput, b: DiffInput, labels: { a: string; b: string }, options: DiffOptions = {}): string {
  const ma = "model" in a ? a.model : a;
  const mb = "model" in b ? b.model : b;
  const { renames } = compareModels(ma, mb, { ...options, canonicalPlacesUpTo: 0 });
  const aligned = renames.size > 0 ? withAlignedNames(mb, renames) : mb;
  return unifiedText(lines(printModel(ma)), lines(printModel(aligned)), labels.a, labels.b);
}
