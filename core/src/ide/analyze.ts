// Builds the Analysis snapshot of a text, one stage per step: parse, symbols, lowering,
// inference, checks. `analyzeSteps` yields between stages so the server can abandon a stale
// analysis; right after the symbols it yields an early snapshot (syntax diagnostics only) that
// the server can publish at once. `analyze` runs all steps at once.
import type { Comment, Model } from "../../../grammar/src/ast.js";
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseModel } from "../../../grammar/src/index.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { checkModel } from "../check/index.js";
import { inferModel, type ValueType } from "../infer/index.js";
import { lowerModel } from "../lower/index.js";
import type { SourceMap } from "../source-map.js";
import type { Analysis } from "./analysis.js";
import type { RunValues } from "./run-values.js";
import { buildSymbolIndex, type SymbolIndex, type SymbolInfo } from "./symbols.js";
import { declaredTypeText, valueTypeText } from "./type-text.js";

export function* analyzeSteps(text: string): Generator<Analysis | undefined, Analysis, void> {
  const lines = new LineIndex(text);
  const parsed = parseModel(text);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  // The symbol index is built on first use, so the early snapshot goes out right after parsing.
  let index: SymbolIndex | undefined;
  const symbols = (): SymbolIndex => (index ??= buildSymbolIndex(parsed.ast));
  const declaredOnly = (value: SymbolInfo): string | undefined =>
    value.declaredType ? declaredTypeText(text, value.declaredType) : undefined;
  const parts: Parts = { text, lines, ast: parsed.ast, comments: parsed.comments, symbols, syntaxCount: parsed.diagnostics.length };
  if (!parsed.ast || hasErrors(parsed.diagnostics)) return new Snapshot(parts, true, diagnostics, declaredOnly);
  yield new Snapshot(parts, false, [...diagnostics], declaredOnly);
  const lowered = lowerModel(parsed.ast, text);
  diagnostics.push(...lowered.diagnostics);
  const sourceMap = lowered.sourceMap;
  if (hasErrors(lowered.diagnostics)) return new Snapshot(parts, true, diagnostics, declaredOnly, undefined, sourceMap);
  const model = lowered.model;
  yield;
  const inferred = inferModel(model, { sourceMap });
  yield;
  diagnostics.push(...checkModel(model, { sourceMap, inference: inferred }));
  // Inferred value types per graph, keyed by where the graph starts in the text.
  const graphTypes = new Map<number, ReadonlyMap<string, ValueType>>();
  for (const [graph, types] of inferred.graphTypes) {
    const at = sourceMap.get(graph)?.whole.start;
    if (at !== undefined) graphTypes.set(at, types);
  }
  const typeOf = (value: SymbolInfo): string | undefined => {
    if (value.declaredType) return declaredOnly(value);
    const owner = value.scope?.owner;
    return owner && valueTypeText(graphTypes.get(owner.span.start)?.get(value.name));
  };
  return new Snapshot(parts, true, diagnostics, typeOf, model, sourceMap);
}

interface Parts {
  readonly text: string;
  readonly lines: LineIndex;
  readonly ast: Model | undefined;
  readonly comments: readonly Comment[];
  readonly symbols: () => SymbolIndex;
  readonly syntaxCount: number;
}

class Snapshot implements Analysis {
  readonly text: string;
  readonly lines: LineIndex;
  readonly ast?: Model;
  readonly comments: readonly Comment[];
  readonly syntaxCount: number;

  constructor(
    private readonly parts: Parts,
    readonly complete: boolean,
    readonly diagnostics: readonly Diagnostic[],
    readonly typeOf: (value: SymbolInfo) => string | undefined,
    readonly model?: ModelProto,
    readonly sourceMap?: SourceMap,
    readonly run?: RunValues,
  ) {
    this.text = parts.text;
    this.lines = parts.lines;
    if (parts.ast) this.ast = parts.ast;
    this.comments = parts.comments;
    this.syntaxCount = parts.syntaxCount;
  }

  get symbols(): SymbolIndex {
    return this.parts.symbols();
  }

  withRun(run: RunValues): Analysis {
    return new Snapshot(this.parts, this.complete, this.diagnostics, this.typeOf, this.model, this.sourceMap, run);
  }
}

export function analyze(text: string): Analysis {
  const steps = analyzeSteps(text);
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
