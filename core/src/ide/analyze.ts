// Builds the Analysis snapshot of a text, one stage per step: parse, symbols, lowering,
// inference, checks. `analyzeSteps` yields between stages so the server can abandon a stale analysis;
// `analyze` runs all steps at once.
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseModel } from "../../../grammar/src/index.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { checkModel } from "../check/index.js";
import { inferModel, type ValueType } from "../infer/index.js";
import { lowerModel } from "../lower/index.js";
import type { SourceMap } from "../source-map.js";
import type { Analysis } from "./analysis.js";
import { buildSymbolIndex, type SymbolInfo } from "./symbols.js";
import { declaredTypeText, valueTypeText } from "./type-text.js";

export function* analyzeSteps(text: string): Generator<void, Analysis, void> {
  const lines = new LineIndex(text);
  const parsed = parseModel(text);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  yield;
  const symbols = buildSymbolIndex(parsed.ast);
  let model: ModelProto | undefined;
  let sourceMap: SourceMap | undefined;
  // Inferred value types per graph, keyed by where the graph starts in the text.
  const graphTypes = new Map<number, ReadonlyMap<string, ValueType>>();
  if (parsed.ast && !hasErrors(parsed.diagnostics)) {
    yield;
    const lowered = lowerModel(parsed.ast, text);
    diagnostics.push(...lowered.diagnostics);
    sourceMap = lowered.sourceMap;
    if (!hasErrors(lowered.diagnostics)) {
      model = lowered.model;
      yield;
      const inferred = inferModel(model, { sourceMap });
      yield;
      diagnostics.push(...checkModel(model, { sourceMap, inference: inferred }));
      for (const [graph, types] of inferred.graphTypes) {
        const at = sourceMap.get(graph)?.whole.start;
        if (at !== undefined) graphTypes.set(at, types);
      }
    }
  }
  const typeOf = (value: SymbolInfo): string | undefined => {
    if (value.declaredType) return declaredTypeText(text, value.declaredType);
    const owner = value.scope?.owner;
    return owner && valueTypeText(graphTypes.get(owner.span.start)?.get(value.name));
  };
  return {
    text,
    lines,
    ...(parsed.ast ? { ast: parsed.ast } : {}),
    comments: parsed.comments,
    symbols,
    ...(model ? { model } : {}),
    ...(sourceMap ? { sourceMap } : {}),
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
