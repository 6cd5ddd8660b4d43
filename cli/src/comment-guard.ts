// Text -> model -> text (convert or infer from .onnxtxt to .onnxtxt, files or stdin/stdout)
// prints the model anew: residual comments come back from the model, ordinary comments cannot.
// Such a run is refused when the input has ordinary comments, unless --drop-comments says to
// drop them.
import { LineIndex } from "../../grammar/src/line-index.js";
import { parseExtComment } from "../../core/src/ext/ext-comment.js";
import { FileError } from "../../core/src/io/files.js";
import type { LoadedModel, ModelFormat } from "./model-files.js";

export function refuseDroppingComments(input: string, loaded: LoadedModel, outFormat: ModelFormat, dropComments: boolean): void {
  if (dropComments || loaded.format !== "onnxtxt" || outFormat !== "onnxtxt") return;
  const ordinary = loaded.comments.filter((c) => parseExtComment(c.text)?.ok !== true);
  if (ordinary.length === 0) return;
  const at = loaded.text === undefined ? "" : ` (first at ${new LineIndex(loaded.text).lineCol(ordinary[0]!.span.start)})`;
  const n = ordinary.length === 1 ? "a comment" : `${ordinary.length} comments`;
  throw new FileError(
    input,
    `has ${n}${at} that writing text through the model would drop; \`onnxtxt format\` re-lays out a text keeping its comments, or pass --drop-comments`,
  );
}
