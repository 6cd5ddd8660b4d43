// Lowering followed by the residual comments, as `check`, `convert` and the editor all do it: the
// same problems and the same model everywhere. A tensor the printer could not write (an unknown
// data type, values in the wrong field) is printed as `{}` with its values in the residual, so
// its element-count error waits until the residual has had its chance to fill it to its shape.
import type * as A from "../../../grammar/src/ast.js";
import { hasErrors, type Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { elementCountProblem } from "../element-count.js";
import type { EmptyTensor } from "../lower/context.js";
import { lowerModelSteps, type LowerOptions } from "../lower/index.js";
import { finish } from "../../../grammar/src/steps.js";
import type { SourceMap } from "../source-map.js";
import { applyExtensions, isTypedEmpty } from "./apply-extensions.js";

export interface LoweredWithResidual {
  readonly model: ModelProto;
  readonly sourceMap: SourceMap;
  /** Lowering's problems; the residual is applied only when there is no error among them. */
  readonly lowering: Diagnostic[];
  readonly residual: Diagnostic[];
}

/** The error of a `{}` tensor after the residual: none when the residual filled it to its shape. */
function stillWrong(e: EmptyTensor): Diagnostic | undefined {
  if (e.tensor.rawData.length === 0 && isTypedEmpty(e.tensor)) return e.error;
  const problem = elementCountProblem(e.tensor);
  return problem === undefined ? undefined : { ...e.error, message: `${problem} (with the residual's data)` };
}

export function lowerWithResidual(ast: A.Model, comments: readonly A.Comment[], text: string, options?: LowerOptions): LoweredWithResidual {
  return finish(lowerWithResidualSteps(ast, comments, text, options));
}

/** lowerWithResidual in steps (lower/index.ts's lowerModelSteps): a language server answers requests between them. */
export function* lowerWithResidualSteps(
  ast: A.Model,
  comments: readonly A.Comment[],
  text: string,
  options?: LowerOptions,
): Generator<undefined, LoweredWithResidual, void> {
  const lowered = yield* lowerModelSteps(ast, text, { ...options, deferEmptyTensors: true });
  const lowering = lowered.diagnostics;
  const residual = hasErrors(lowering) ? [] : applyExtensions(text, ast, comments, lowered.model);
  const unfilled = lowered.emptyTensors.map(stillWrong).filter((d) => d !== undefined);
  if (unfilled.length) {
    lowering.push(...unfilled);
    lowering.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  }
  return { model: lowered.model, sourceMap: lowered.sourceMap, lowering, residual };
}
