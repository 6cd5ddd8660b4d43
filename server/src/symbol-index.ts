// The symbol index of a syntax tree built in slices (slices.ts), once: the semantic tokens of a
// new text need it, and the workspace builds it ahead after the full analysis; whoever comes
// second waits for the build under way instead of starting another (110 ms on 50k nodes).
import type { Model } from "../../grammar/src/ast.js";
import { buildSymbolIndexSteps, builtIndexOf } from "../../core/src/ide/symbols.js";
import { runSliced, type SliceOptions } from "./slices.js";

const building = new WeakMap<Model, Promise<unknown>>();

/** Resolves once `ast` has its index (builtIndexOf); rejects with Superseded if `options.stale()` first. */
export function symbolIndexInSlices(ast: Model, options: SliceOptions): Promise<unknown> {
  if (builtIndexOf(ast)) return Promise.resolve();
  let p = building.get(ast);
  if (!p) {
    p = runSliced(buildSymbolIndexSteps(ast), options).finally(() => building.delete(ast));
    building.set(ast, p);
  }
  return p;
}
