// Builds the Analysis snapshot of a text, one stage per step: parse, symbols, then the stages
// that need a model. `analyzeSteps` yields between stages so the server can abandon a stale
// analysis; `analyze` runs all steps at once.
import { parseModel } from "../../../grammar/src/index.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { Analysis } from "./analysis.js";
import { buildSymbolIndex, type SymbolInfo } from "./symbols.js";
import { declaredTypeText } from "./type-text.js";

export function* analyzeSteps(text: string): Generator<void, Analysis, void> {
  const lines = new LineIndex(text);
  const parsed = parseModel(text);
  yield;
  const symbols = buildSymbolIndex(parsed.ast);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const typeOf = (value: SymbolInfo): string | undefined =>
    value.declaredType ? declaredTypeText(text, value.declaredType) : undefined;
  return {
    text,
    lines,
    ...(parsed.ast ? { ast: parsed.ast } : {}),
    comments: parsed.comments,
    symbols,
    diagnostics,
    typeOf,
  };
}

export function analyze(text: string): Analysis {
  const steps = analyzeSteps(text);
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
