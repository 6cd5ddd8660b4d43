// The ModelConverter over core: text -> ModelProto -> bytes and bytes -> ModelProto -> text.
// Bundled into the extension, so conversion needs no server round trip.
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { LineIndex } from "../../grammar/src/line-index.js";
import { decodeModel, describeError, encodeModel } from "../../core/src/io/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";
import type { ModelConverter } from "./model-converter.js";

export interface TextFrontEnd {
  parse(text: string): { readonly model?: ModelProto; readonly diagnostics: readonly Diagnostic[] };
  print(model: ModelProto, options: { externalDataThreshold: number }): string;
}

/** `FILE:LINE:COL: error: MESSAGE [code]`, the CLI's one-line form. */
export function formatDiagnostic(fileName: string, lines: LineIndex, d: Diagnostic): string {
  const at = d.span ? `${fileName}:${lines.lineCol(d.span.start)}` : d.where ? `${fileName}: ${d.where}` : fileName;
  return `${at}: ${d.severity}: ${d.message} [${d.code}]`;
}

export function makeConverter(front: TextFrontEnd): ModelConverter {
  return {
    textToBinary(text, fileName) {
      const { model, diagnostics } = front.parse(text);
      const errors = diagnostics.filter((d) => d.severity === "error");
      if (!model || errors.length > 0) {
        const lines = new LineIndex(text);
        const shown = errors.length > 0 ? errors.map((d) => formatDiagnostic(fileName, lines, d)) : [`${fileName}: the text did not produce a model`];
        return { ok: false, errors: shown };
      }
      try {
        return { ok: true, bytes: encodeModel(model) };
      } catch (e) {
        return { ok: false, errors: [`${fileName}: ${describeError(e)}`] };
      }
    },
    binaryToText(bytes, options) {
      return front.print(decodeModel(bytes), options);
    },
  };
}

const unavailable = (what: string) => (): never => {
  throw new Error(`${what} the text format is not available in this build`);
};

/** The printer (core/src/print) fills in `print` once it lands. */
export const coreConverter: ModelConverter = makeConverter({
  parse: modelFromText,
  print: unavailable("writing"),
});
