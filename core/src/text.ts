// Text in, ModelProto out: lex + parse + lower in one call. Lowering runs only on a tree without
// syntax errors (holes would only add confusing follow-up messages); `model` is given only when
// there is no error at all.
import type { Comment, Model } from "../../grammar/src/ast.js";
import { hasErrors, type Diagnostic } from "../../grammar/src/diagnostics.js";
import { parseModel } from "../../grammar/src/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { applyExtensions } from "./ext/apply-extensions.js";
import { lowerModel, type LowerOptions } from "./lower/index.js";
import { SourceMap } from "./source-map.js";

export interface TextModel {
  readonly model?: ModelProto;
  readonly sourceMap: SourceMap;
  readonly diagnostics: Diagnostic[];
  readonly ast?: Model;
  readonly comments: Comment[];
}

export function modelFromText(text: string, options?: LowerOptions): TextModel {
  const parsed = parseModel(text);
  if (!parsed.ast || hasErrors(parsed.diagnostics)) {
    return { sourceMap: new SourceMap(), diagnostics: parsed.diagnostics, ...(parsed.ast && { ast: parsed.ast }), comments: parsed.comments };
  }
  const lowered = lowerModel(parsed.ast, text, options);
  const diagnostics = [...parsed.diagnostics, ...lowered.diagnostics];
  if (!hasErrors(diagnostics)) diagnostics.push(...applyExtensions(text, parsed.ast, parsed.comments, lowered.model)); // lossless extensions (ext/)
  return {
    ...(!hasErrors(diagnostics) && { model: lowered.model }),
    sourceMap: lowered.sourceMap,
    diagnostics,
    ast: parsed.ast,
    comments: parsed.comments,
  };
}
