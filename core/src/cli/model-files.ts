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
import { FileError, readBytes, readRangeWithin, readText, writeAtomic } from "./files.js";

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

/** `warn` gets the report of residual warnings (stale or ignored residual data): nothing is dropped silently. */
export function loadModel(file: string, warn?: (report: string) => void): ModelProto {
  const format = requireFormat(file);
  if (format === "onnxtxt") return loadTextModel(file, warn);
  const bytes = readBytes(file);
  return about(file, () => decodeModel(bytes));
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

/** The text of a model; with `externalData`, writes the sidecar beside `file` first. */
export function textOf(file: string, model: ModelProto, opts: SaveOptions): string {
  if (opts.externalData === undefined) return about(file, () => printModel(model));
  const sidecar = file + ".data";
  const moved = about(file, () => externalize(model, opts.externalData!, path.basename(sidecar)));
  if (moved.data.length > 0) writeAtomic(sidecar, moved.data);
  return about(file, () => printModel(moved.model));
}

/** Parses and lowers a text model; any error throws an InputError listing every diagnostic. */
export function loadTextModel(file: string, warn?: (report: string) => void): ModelProto {
  const text = readText(file);
  const r = modelFromText(text, { sourceMap: false });
  if (!r.model || hasErrors(r.diagnostics)) {
    throw new InputError(file, diagnosticLines(file, text, r.diagnostics.filter((d) => d.severity === "error")));
  }
  const residual = r.diagnostics.filter((d) => d.code === "residual-stale" || d.code === "extension");
  if (warn && residual.length) warn(diagnosticLines(file, text, residual));
  about(file, () => bringBack(r.model!, path.dirname(path.resolve(file)), readRangeWithin(path.dirname(path.resolve(file)))));
  return r.model;
}
