// Reading and writing whole models by file extension: `.onnx` is binary protobuf,
// `.onnxtxt` is the text syntax.
import * as path from "node:path";
import type { ModelProto } from "../../../proto/src/index.js";
import { decodeModel, encodeModel, OnnxtxtError } from "../io/index.js";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { modelFromText } from "../text.js";
import { diagnosticLines, InputError } from "./diagnostic-lines.js";
import { bringBack, externalize } from "../ext/externalize.js";
import { printModel } from "../print/print-model.js";
import { FileError, readBytes, readRangeWithin, writeAtomic } from "./files.js";
import { FORMAT_NAMES, sniffModel } from "./sniff.js";
import { UsageError } from "./args.js";
import type { Output } from "./command.js";
import type { Comment } from "../../../grammar/src/ast.js";

export type ModelFormat = "onnx" | "onnxtxt";

export const FORMAT_EXTENSIONS: Readonly<Record<ModelFormat, string>> = { onnx: ".onnx", onnxtxt: ".onnxtxt" };

export function formatOf(file: string): ModelFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".onnx") return "onnx";
  if (ext === ".onnxtxt" || ext === ".onnxtext") return "onnxtxt";
  return undefined;
}

export function requireFormat(file: string): ModelFormat {
  const f = formatOf(file);
  if (!f) throw new FileError(file, "unknown file type: expected a name ending in .onnx or .onnxtxt");
  return f;
}

/** Runs `fn`, turning core errors into errors about `file`. */
export function about<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OnnxtxtError) throw new FileError(file, e.message);
    throw e;
  }
}

export interface LoadedModel {
  readonly model: ModelProto;
  readonly format: ModelFormat;
  /** The text's comments (for `# @input` directives); empty for binary input. */
  readonly comments: readonly Comment[];
}

/** The folder external data paths are relative to: the model's, or the current one for stdin. */
export function modelDir(file: string): string {
  return file === "-" ? process.cwd() : path.dirname(path.resolve(file));
}

/**
 * Reads a model (`-` is stdin). The format comes from the first bytes; when the extension
 * says otherwise, `note` hears what the file looks like. A file that is no model is refused
 * with what it looks like.
 */
export function readModel(file: string, note?: (message: string) => void): LoadedModel {
  const bytes = readBytes(file);
  const claimed = formatOf(file);
  const sniffed = sniffModel(bytes, claimed);
  if (bytes.length === 0 && claimed !== "onnxtxt") throw new FileError(file, "the file is empty");
  if (!sniffed.format) {
    const expected = claimed ? `, not ${FORMAT_NAMES[claimed]}` : "";
    throw new FileError(file, `this file looks like ${sniffed.looksLike}${sniffed.looksLike.includes(", not ") ? "" : expected}`);
  }
  if (claimed && claimed !== sniffed.format) note?.(`onnxtxt: ${file}: note: the name says ${FORMAT_NAMES[claimed]}, but the file looks like ${FORMAT_NAMES[sniffed.format]}; reading it as such\n`);
  if (sniffed.format === "onnxtxt") return parseTextModel(file, new TextDecoder("utf-8").decode(bytes));
  return { model: about(file, () => decodeModel(bytes)), format: "onnx", comments: [] };
}

export function loadModel(file: string, note?: (message: string) => void): ModelProto {
  return readModel(file, note).model;
}

export interface SaveOptions {
  /** Text output: tensors with more bytes than this go to the sidecar `<file>.data`. */
  readonly externalData?: number;
}

export function saveModel(file: string, model: ModelProto, opts: SaveOptions = {}): void {
  const format = requireFormat(file);
  if (format === "onnxtxt") {
    writeAtomic(file, textOf(file, model, opts));
    return;
  }
  writeAtomic(file, encodeModel(model));
}

/**
 * A model written to stdout (`-`): text, or binary when `format` says so (refused on a
 * terminal). `name` stands for the output in messages and names a text's sidecar.
 */
export function writeModelToStdout(io: Output, name: string, format: ModelFormat, model: ModelProto, opts: SaveOptions = {}): void {
  if (format === "onnx") {
    if (io.outIsTerminal) throw new UsageError("binary ONNX is not written to a terminal; redirect stdout to a file or a pipe");
    io.out(encodeModel(model));
    return;
  }
  io.out(textOf(name, model, opts));
}

/** The text of a model (with `write`, streamed to it instead); with `externalData`, writes the sidecar beside `file` first. */
export function textOf(file: string, model: ModelProto, opts: SaveOptions, write?: (bytes: Uint8Array) => void): string {
  const print = (m: ModelProto) => about(file, () => printModel(m, write ? { write } : {}));
  if (opts.externalData === undefined) return print(model);
  const sidecar = file + ".data";
  const moved = about(file, () => externalize(model, opts.externalData!, path.basename(sidecar)));
  if (moved.data.length > 0) writeAtomic(sidecar, moved.data);
  return print(moved.model);
}

/** Parses and lowers a text model; any error throws an InputError listing every diagnostic. */
function parseTextModel(file: string, text: string): LoadedModel {
  const r = modelFromText(text, { sourceMap: false });
  if (!r.model || hasErrors(r.diagnostics)) {
    throw new InputError(file, diagnosticLines(file, text, r.diagnostics.filter((d) => d.severity === "error")));
  }
  about(file, () => bringBack(r.model!, modelDir(file), readRangeWithin(modelDir(file))));
  return { model: r.model, format: "onnxtxt", comments: r.comments };
}
