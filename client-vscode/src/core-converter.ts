// The ModelConverter over core: text -> ModelProto -> bytes and bytes -> ModelProto -> text.
// Bundled into the extension, so conversion needs no server round trip.
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import { bringBack, externalize } from "../../core/src/ext/externalize.js";
import { decodeModel, describeError, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import type { ModelConverter } from "./model-converter.js";

/** `FILE:LINE:COL: error: MESSAGE [code]`, the CLI's one-line form. */
export function formatDiagnostic(fileName: string, lines: LineIndex, d: Diagnostic): string {
  const at = d.span ? `${fileName}:${lines.lineCol(d.span.start)}` : d.where ? `${fileName}: ${d.where}` : fileName;
  return `${at}: ${d.severity}: ${d.message} [${d.code}]`;
}

export const coreConverter: ModelConverter = {
  textToBinary(text, fileName, external) {
    const { model, diagnostics } = modelFromText(text);
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (!model || errors.length > 0) {
      const lines = new LineIndex(text);
      const shown = errors.length > 0 ? errors.map((d) => formatDiagnostic(fileName, lines, d)) : [`${fileName}: the text did not produce a model`];
      return { ok: false, errors: shown };
    }
    try {
      bringBack(model, external.baseDir, external.read);
      return { ok: true, bytes: encodeModel(model) };
    } catch (e) {
      return { ok: false, errors: [`${fileName}: ${describeError(e)}`] };
    }
  },
  binaryToText(bytes, options) {
    const model = decodeModel(bytes);
    if (options.externalDataThreshold <= 0) return { text: printModel(model), sidecar: new Uint8Array(0) };
    const moved = externalize(model, options.externalDataThreshold, options.location);
    return { text: printModel(moved.model), sidecar: moved.data };
  },
};
