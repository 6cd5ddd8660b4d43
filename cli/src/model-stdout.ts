// A model written to stdout: the CLI's one way of writing a model that is not a file.
import { encodeModel } from "../../core/src/io/index.js";
import { about, printWithProgress, type ModelFormat, type SaveOptions } from "../../core/src/node/model-files.js";
import { printModel } from "../../core/src/print-model.js";
import type { ModelProto } from "../../proto/src/index.js";
import { UsageError } from "./args.js";
import type { Output } from "./command.js";
import { byteProgress } from "./progress.js";

/**
 * A model written to stdout (`-`): text, or binary when `format` says so (refused on a
 * terminal). `name` stands for the output in messages. No sidecar can go beside stdout.
 */
export function writeModelToStdout(io: Output, name: string, format: ModelFormat, model: ModelProto, opts: SaveOptions = {}): void {
  if (opts.externalData !== undefined) throw new UsageError("--external-data needs an output file: the sidecar file is written beside it");
  if (format === "onnx") {
    if (io.outIsTerminal) throw new UsageError("binary ONNX is not written to a terminal; redirect stdout to a file or a pipe");
    io.out(encodeModel(model));
    return;
  }
  textToStdout(io, (write) => about(name, () => printModel(model, { write })));
}

/**
 * Streams a text to stdout as `print` makes it: straight to the descriptor when stdout is a
 * file or a pipe (waiting for a slow reader; a reader that leaves, `| head`, ends the command
 * quietly), decoded piece by piece on a terminal (where control characters are shown escaped).
 * Progress shows on a terminal's stderr while stdout goes elsewhere.
 */
export function textToStdout(io: Output, print: (write: (bytes: Uint8Array) => void) => void): void {
  if (io.outSync && !io.outIsTerminal) {
    printWithProgress(print, io.outSync, byteProgress(io, "printing"));
    return;
  }
  const decoder = new TextDecoder("utf-8");
  print((bytes) => io.out(decoder.decode(bytes, { stream: true })));
  const rest = decoder.decode();
  if (rest) io.out(rest);
}
