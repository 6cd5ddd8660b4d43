// The snapshot every editor feature reads: one document's text and everything derived from
// it. Built by `analyze` (analyze.ts); features are pure functions of it and return offsets.
import type { Comment, Model } from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { LineIndex } from "../../../grammar/src/line-index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import type { SourceMap } from "../source-map.js";
import type { SymbolIndex, SymbolInfo } from "./symbols.js";
import type { RunValues } from "./run-values.js";

export interface Analysis {
  /** False for the early snapshot that has only the parse and the symbol index. */
  readonly complete: boolean;
  readonly text: string;
  readonly lines: LineIndex;
  /** The syntax tree (absent only when nothing parsed). */
  readonly ast?: Model;
  readonly comments: readonly Comment[];
  readonly symbols: SymbolIndex;
  /** The lowered model, when the text lowers. */
  readonly model?: ModelProto | undefined;
  readonly sourceMap?: SourceMap | undefined;
  /** Syntax, lowering, checker and inference diagnostics, in that order. */
  readonly diagnostics: readonly Diagnostic[];
  /** How many of `diagnostics` (the first ones) come from the parser. */
  readonly syntaxCount: number;
  /** The type and shape of a value, declared or inferred, in the text syntax (`float[N, 8]`). */
  typeOf(value: SymbolInfo): string | undefined;
  /** Values computed by the last run of this text, if any. */
  readonly run?: RunValues | undefined;
  /** The same snapshot with the values of a run. */
  withRun(run: RunValues): Analysis;
}
