// Builds the Analysis snapshot of a text, in steps: parse, symbols, lowering, inference, checks.
// `analyzeSteps` yields between stages, within the parse every TOKENS_PER_STEP tokens of the
// main graph's body, and within lowering, inference and the checks every NODES_PER_STEP nodes,
// so the server can answer requests between them and abandon a stale analysis; right after the
// parse it yields an early snapshot (syntax diagnostics only) that the server can publish at
// once. `analyze` runs all steps at once.
import type { Comment, Model } from "../../../grammar/src/ast.js";
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseModelSteps } from "../../../grammar/src/index.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { checkModelSteps } from "../check/index.js";
import { inferModelSteps, type InferResult, type ValueType } from "../infer/index.js";
import { lowerWithResidualSteps } from "../ext/lower-with-residual.js";
import type { SourceMap } from "../source-map.js";
import type { Analysis } from "./analysis.js";
import type { RunValues } from "./run-values.js";
import { buildSymbolIndex, builtIndexOf, type SymbolIndex, type SymbolInfo } from "./symbols.js";
import { declaredTypeText, valueTypeText } from "./type-text.js";
import { pushAll } from "../arrays.js";

export function* analyzeSteps(text: string): Generator<Analysis | undefined, Analysis, void> {
  const lines = new LineIndex(text);
  const parsed = yield* parseModelSteps(text);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  // The symbol index is built on first use, so the early snapshot goes out right after parsing.
  let index: SymbolIndex | undefined;
  // One built in steps meanwhile (a language server's, between requests) is taken as it is.
  const symbols = (): SymbolIndex => (index ??= (parsed.ast && builtIndexOf(parsed.ast)) || buildSymbolIndex(parsed.ast));
  const declaredOnly = (value: SymbolInfo): string | undefined => (value.declaredType ? declaredTypeText(text, value.declaredType) : undefined);
  const parts: Parts = { text, lines, ast: parsed.ast, comments: parsed.comments, symbols, syntaxCount: parsed.diagnostics.length };
  if (!parsed.ast || hasErrors(parsed.diagnostics)) return syntaxSnapshot(parts, diagnostics);
  yield new Snapshot(parts, false, [...diagnostics], declaredOnly);
  // The residual comments are applied as `check` and `convert` apply them: same problems, same model.
  const { model, sourceMap, lowering, residual } = yield* lowerWithResidualSteps(parsed.ast, parsed.comments, text);
  pushAll(diagnostics, lowering);
  if (hasErrors(lowering)) return new Snapshot(parts, true, diagnostics, declaredOnly, undefined, sourceMap);
  diagnostics.push(...residual);
  if (hasErrors(residual)) return new Snapshot(parts, true, diagnostics, declaredOnly, undefined, sourceMap);
  yield;
  return yield* semanticSteps(parts, diagnostics, lowering.length + residual.length, model, sourceMap);
}

/**
 * The complete snapshot of a text with syntax errors: it is analysed no further than its parse
 * (no lowering, no model), its values have their declared types only.
 */
export function syntaxSnapshot(parts: Parts, diagnostics: Diagnostic[]): Analysis {
  return new Snapshot(parts, true, diagnostics, (value) => (value.declaredType ? declaredTypeText(parts.text, value.declaredType) : undefined));
}

/**
 * A snapshot of a text that parsed cleanly, before inference has run: types not written in the
 * text come from `lastTypes`, the previous text's. An incremental analysis yields it twice:
 * with the parse alone, then with `diagnostics`, the checker's and the last inference's where
 * the edit did not reach (inference after an edit that cuts a long chain takes a while, and a
 * typo's squiggle need not wait for it).
 */
export function earlySnapshot(parts: Parts, lastTypes: (value: SymbolInfo) => string | undefined, diagnostics: Diagnostic[] = []): Analysis {
  return new Snapshot(parts, false, semanticOrder(diagnostics), (value) =>
    value.declaredType ? declaredTypeText(parts.text, value.declaredType) : lastTypes(value),
  );
}

/** What a later edit reuses of a complete analysis with a model (see incremental.ts). */
export interface SemanticState {
  /** How many diagnostics lowering gave. */
  readonly lowering: number;
  /** The checker's diagnostics, without inference's. */
  readonly check: readonly Diagnostic[];
  readonly inference: InferResult;
}

const states = new WeakMap<Analysis, SemanticState>();

export function semanticState(a: Analysis): SemanticState | undefined {
  return states.get(a);
}

/**
 * Checker and inference diagnostics in one canonical order (by place, then code and message),
 * so an incremental analysis that assembles them from parts lists them as a full one does.
 */
function semanticOrder(diags: Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => d.span?.start ?? 0;
  return diags.sort(
    (a, b) => key(a) - key(b) || (a.span?.end ?? 0) - (b.span?.end ?? 0) || cmp(a.code, b.code) || cmp(a.message, b.message) || cmp(a.severity, b.severity),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Inference and checks of a lowered model: the stages after lowering, shared by the full
 * analysis and the incremental one (which splices an edited statement into the last model).
 * `diagnostics` holds the syntax and lowering diagnostics so far.
 */
export function* semanticSteps(
  parts: Parts,
  diagnostics: Diagnostic[],
  lowering: number,
  model: ModelProto,
  sourceMap: SourceMap,
): Generator<undefined, Analysis, void> {
  const inferred = yield* inferModelSteps(model, { sourceMap });
  yield;
  const check = yield* checkModelSteps(model, { sourceMap, inference: { diagnostics: [] } });
  return semanticSnapshot(parts, diagnostics, { lowering, check, inference: inferred }, model, sourceMap);
}

/** The complete snapshot from the checker's and inference's results. */
export function semanticSnapshot(parts: Parts, diagnostics: Diagnostic[], state: SemanticState, model: ModelProto, sourceMap: SourceMap): Analysis {
  const { text } = parts;
  const inferred = state.inference;
  pushAll(diagnostics, semanticOrder([...state.check, ...inferred.diagnostics]));
  const declaredOnly = (value: SymbolInfo): string | undefined => (value.declaredType ? declaredTypeText(text, value.declaredType) : undefined);
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
  const snapshot = new Snapshot(parts, true, diagnostics, typeOf, model, sourceMap);
  states.set(snapshot, state);
  return snapshot;
}

export interface Parts {
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
    const copy = new Snapshot(this.parts, this.complete, this.diagnostics, this.typeOf, this.model, this.sourceMap, run);
    const state = states.get(this);
    if (state) states.set(copy, state);
    return copy;
  }
}

export function analyze(text: string): Analysis {
  const steps = analyzeSteps(text);
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
