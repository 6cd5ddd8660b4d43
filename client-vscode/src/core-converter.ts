// The ModelConverter over core: text -> ModelProto -> bytes and bytes -> ModelProto -> text.
// Bundled into the extension, so conversion needs no server round trip.
import { LineIndex } from "../../grammar/src/line-index.js";
import { bringBack, externalize } from "../../core/src/ext/externalize.js";
import { decodeModel, describeError, encodeModel } from "../../core/src/io/index.js";
import { diagnosticLine } from "../../core/src/diagnostic-lines.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import type { ModelConverter } from "./model-converter.js";

export const coreConverter: ModelConverter = {
  textToBinary(text, fileName, external) {
    const { model, diagnostics } = modelFromText(text);
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (!model || errors.length > 0) {
      const lines = new LineIndex(text);
      const shown = errors.length > 0 ? errors.map((d) => diagnosticLine(fileName, lines, d)) : [`${fileName}: the text did not produce a model`];
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
