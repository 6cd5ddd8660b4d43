// A model written to stdout: the CLI's one way of writing a model that is not a file.
import { encodeModel } from "../../core/src/io/index.js";
import { about, type ModelFormat, type SaveOptions } from "../../core/src/node/model-files.js";
import { printModel } from "../../core/src/print-model.js";
import type { ModelProto } from "../../proto/src/index.js";
import { UsageError } from "./args.js";
import type { Output } from "./command.js";

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
  io.out(about(name, () => printModel(model)));
}
