// Conversion between the text syntax and binary .onnx, as the editor features need it.

export type TextToBinaryResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  /** `errors` are one-line messages, `FILE:LINE:COL: error: MESSAGE [code]`. */
  | { readonly ok: false; readonly errors: readonly string[] };

export interface ModelConverter {
  /** Parses and lowers `text`; `fileName` only labels the messages. */
  textToBinary(text: string, fileName: string): TextToBinaryResult;
  /** Decodes and prints a binary model; throws an Error with a clear message when it is not one. */
  binaryToText(bytes: Uint8Array, options: { externalDataThreshold: number }): string;
}
