/**
 * onnxtxt's file API for Node (`import { loadModel, saveModel } from "onnxtxt/node"`): models
 * read from and written to `.onnx` (binary) and `.onnxtxt` (text) files, with their external
 * data, under the same rules and refusals as the CLI. Everything else is in `onnxtxt`, which
 * stays browser-safe; this entry uses `node:fs`.
 *
 * @example
 * ```ts
 * import { loadModel, saveModel } from "onnxtxt/node";
 * const model = loadModel("model.onnx");       // external data read and checked
 * saveModel(model, "model.onnxtxt");           // text, written safely
 * saveModel(model, "big.onnx", { externalData: 1024 }); // tensors over 1 KiB beside it
 * ```
 * @packageDocumentation
 */
import type { ModelProto } from "../../../proto/src/index.js";
import { inlineExternalData } from "../io/external-data.js";
import { OnnxtxtError } from "../io/errors.js";
import { readDataRange } from "../io/data-files.js";
import { FileError } from "../io/files.js";
import { InputError } from "./input-error.js";
import { about, modelDir, readModel, requireFormat, writeModel } from "./model-files.js";
import { prepareFastRun, startFastKernels } from "../interp/fast/index.js";
import type { Value } from "../interp/index.js";
import { runModel, type RunOptions } from "../run-model.js";

/** Options of {@link loadModel}. */
export interface LoadOptions {
  /**
   * Read the tensors a binary model keeps in external files into the model (default true).
   * With false they stay references, resolved against the model's folder when it is saved elsewhere.
   */
  readonly externalData?: boolean;
  /** Hears notes that are no errors: a file whose content is not what its extension says, stale `#@` data. */
  readonly onNote?: (message: string) => void;
}

/** Options of {@link saveModel}. */
export interface SaveModelOptions {
  /** Move tensors with more bytes than this into a data file beside the output (`OUT.<hash>.data`), as onnx's external data. */
  readonly externalData?: number;
  /**
   * The folder the model was loaded from, when it still refers to external data there (loaded
   * with `externalData: false`): the data is copied beside the output so it is complete.
   */
  readonly sourceDir?: string;
}

/** Errors about a file as the library's one error type, the path in front as the CLI prints it. */
function asOnnxtxtError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof InputError) throw new OnnxtxtError(`${e.file}: the input has errors\n${e.report.trimEnd()}`);
    if (e instanceof FileError) throw new OnnxtxtError(`${e.file}: ${e.message}`);
    throw e;
  }
}

/**
 * Reads a model file: binary ONNX or the text syntax, told apart by content (the extension only
 * names what is expected). External data is read under onnx's rules (relative paths inside the
 * model's folder, no links leaving it, ranges inside the file), refused with an
 * {@link OnnxtxtError} that names the file otherwise.
 */
export function loadModel(file: string, options: LoadOptions = {}): ModelProto {
  return asOnnxtxtError(() => {
    const loaded = readModel(file, options.onNote);
    if (loaded.format === "onnx" && options.externalData !== false) {
      const dir = modelDir(file);
      about(file, () => inlineExternalData(loaded.model, dir, readDataRange(dir)));
    }
    return loaded.model;
  });
}

/**
 * Writes `model` to `file`: binary for `.onnx`, text for `.onnxtxt`. The output is written to a
 * temporary file and renamed into place, never over a file the model was read from; a data file,
 * when one is needed, is written first and named by its content, so a failure leaves nothing
 * half-written.
 */
export function saveModel(model: ModelProto, file: string, options: SaveModelOptions = {}): void {
  asOnnxtxtError(() =>
    writeModel(file, requireFormat(file), model, {
      binaryExternalData: true,
      ...(options.externalData !== undefined && { externalData: options.externalData }),
      ...(options.sourceDir !== undefined && { sourceDir: options.sourceDir }),
    }),
  );
}

/**
 * `run` of `onnxtxt` with the fast kernels, as `onnxtxt run` runs: Conv, MatMul and Gemm as
 * WebAssembly SIMD on worker threads (which do not keep the process alive), float32 pooling and
 * element-wise kernels, Conv chains fused with the per-channel steps after them.
 */
export function run(
  model: ModelProto,
  inputs: ReadonlyMap<string, Value> | Readonly<Record<string, Value>> = {},
  options: RunOptions = {},
): Promise<Map<string, Value>> {
  startFastKernels();
  return runModel(model, inputs, options, { prepare: (m) => prepareFastRun(m) });
}
