// Conversion between the text syntax and binary .onnx, as the editor features need it.

type TextToBinaryResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  /** `errors` are one-line messages, `FILE:LINE:COL: error: MESSAGE [code]`. */
  | { readonly ok: false; readonly errors: readonly string[] };

/** Reads `length` bytes (to the end when undefined) at `offset` of an external-data file. */
export type RangeReader = (absPath: string, offset: number, length: number | undefined) => Uint8Array;

/** Where tensors written as external data are read back from when text becomes binary. */
export interface ExternalDataSource {
  /** The folder `location` entries are relative to. */
  readonly baseDir: string;
  readonly read: RangeReader;
}

interface TextView {
  readonly text: string;
  /** The bytes of the tensors moved out of the text; empty when every tensor is inline. */
  readonly sidecar: Uint8Array;
}

export interface ModelConverter {
  /** Parses and lowers `text`; `fileName` only labels the messages. */
  textToBinary(text: string, fileName: string, external: ExternalDataSource): TextToBinaryResult;
  /**
   * Decodes and prints a binary model; tensors over `externalDataThreshold` bytes (0: none)
   * are written as external data in `location`, returned as `sidecar`. Throws an Error with a
   * clear message when the bytes are not a model.
   */
  binaryToText(bytes: Uint8Array, options: { externalDataThreshold: number; location: string }): TextView;
}
