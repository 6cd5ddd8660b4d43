// Text -> model -> text (convert or infer from .onnxtxt to .onnxtxt) prints the model anew:
// residual comments come back from the model, ordinary comments cannot. Such a run is refused
// when the input has ordinary comments, unless --drop-comments says to drop them.
import { parseModel } from "../../../grammar/src/index.js";
import { LineIndex } from "../../../grammar/src/line-index.js";
import { parseExtComment } from "../ext/ext-comment.js";
import { FileError, readText } from "./files.js";
import { requireFormat } from "./model-files.js";

export function refuseDroppingComments(input: string, output: string, dropComments: boolean): void {
  if (dropComments || requireFormat(input) !== "onnxtxt" || requireFormat(output) !== "onnxtxt") return;
  const text = readText(input);
  const ordinary = parseModel(text).comments.filter((c) => parseExtComment(c.text)?.ok !== true);
  if (ordinary.length === 0) return;
  const at = new LineIndex(text).lineCol(ordinary[0]!.span.start);
  const n = ordinary.length === 1 ? "a comment" : `${ordinary.length} comments`;
  throw new FileError(
    input,
    `has ${n} (first at ${at}) that writing text through the model would drop; \`onnxtxt format\` re-lays out a text keeping its comments, or pass --drop-comments`,
  );
}
