// How the CLI reports failures: one line each, never a stack trace.
import type { Output } from "./command.js";
import type { FileError } from "../../core/src/io/files.js";

export function reportFileError(io: Output, e: FileError): void {
  io.err(`onnxtxt: ${e.file}: ${e.message}\n`);
}
