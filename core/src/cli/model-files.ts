// Reading and writing whole models by file extension: `.onnx` is binary protobuf,
// `.onnxtxt` is the text syntax.
import * as path from "node:path";
import type { ModelProto } from "../../../proto/src/index.js";
import { decodeModel, encodeModel, OnnxtxtError } from "../io/index.js";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { modelFromText } from "../text.js";
import { diagnosticLines, InputError } from "./diagnostic-lines.js";
import { FileError, readBytes, readText, writeAtomic } from "./files.js";

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

export function loadModel(file: string): ModelProto {
  const format = requireFormat(file);
  if (format === "onnxtxt") return loadTextModel(file);
  const bytes = readBytes(file);
  return about(file, () => decodeModel(bytes));
}

export function saveModel(file: string, model: ModelProto): void {
  const format = requireFormat(file);
  if (format === "onnxtxt") throw new FileError(file, "writing the text format is not available in this build");
  writeAtomic(file, encodeModel(model));
}

/** Parses and lowers a text model; any error throws an InputError listing every diagnostic. */
export function loadTextModel(file: string): ModelProto {
  const text = readText(file);
  const r = modelFromText(text);
  if (!r.model || hasErrors(r.diagnostics)) {
    throw new InputError(file, diagnosticLines(file, text, r.diagnostics.filter((d) => d.severity === "error")));
  }
  return r.model;
}
