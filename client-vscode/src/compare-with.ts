// *ONNX: Compare with...* and *ONNX: Compare Selected*: VS Code's diff editor on the texts of two
// models. A binary .onnx is shown through its text view (binary-as-text), so the diff editor
// compares canonical texts; an .onnxtxt is compared as it is.
import type { Messages } from "./editor-host.js";
import { baseName, isBinaryModel, isTextModel, textViewOf, type UriParts } from "./uris.js";

export interface DiffEditorArgs {
  readonly left: UriParts;
  readonly right: UriParts;
  readonly title: string;
}

/** What the diff editor shows for a model: its text view when binary, itself when text. */
function textOf(uri: UriParts): UriParts {
  return isBinaryModel(uri) ? textViewOf(uri) : uri;
}

/** The diff editor's arguments for two models; undefined (after a message) when one is not a model. */
export function diffEditorArgs(a: UriParts | undefined, b: UriParts | undefined, messages: Messages): DiffEditorArgs | undefined {
  if (!a || !b) {
    messages.error("Compare needs two models (.onnx or .onnxtxt): the active one or the explorer's, and one more.");
    return undefined;
  }
  const notModel = [a, b].find((u) => !isBinaryModel(u) && !isTextModel(u));
  if (notModel) {
    messages.error(`${baseName(notModel)} is not an ONNX model (.onnx or .onnxtxt)`);
    return undefined;
  }
  return { left: textOf(a), right: textOf(b), title: `${baseName(a)} ↔ ${baseName(b)}` };
}
