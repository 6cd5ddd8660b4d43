// Reading and writing whole models by file extension (Node only: the CLI and `onnxtxt/node`): `.onnx` is binary protobuf,
// `.onnxtxt` is the text syntax.
import * as fs from "node:fs";
import * as path from "node:path";
import type { ModelProto } from "../../../proto/src/index.js";
import { decodeModel, encodeModel, OnnxtxtError } from "../io/index.js";
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { modelFromText, modelOnlyFromText } from "../text.js";
import { diagnosticLines } from "../diagnostic-lines.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { InputError } from "./input-error.js";
import { bringBack } from "../ext/externalize.js";
import { buildSidecar, hasExternalData, nameSidecar } from "../ext/sidecar.js";
import { printModel } from "../print-model.js";
import { readDataRange } from "../io/data-files.js";
import { FileError, readBytes } from "../io/files.js";
import { removeOldSidecars, sidecarName, writeSidecar } from "../io/sidecar-files.js";
import { writeOutput, type OutputData } from "../io/write-output.js";
import { FORMAT_NAMES, sniffedName, sniffModel } from "./sniff.js";
import { modelFromTextproto, TextprotoError } from "../textproto/index.js";
import type { Comment } from "../../../grammar/src/ast.js";
import type { SourceMap } from "../source-map.js";

export type ModelFormat = "onnx" | "onnxtxt";

/** How a text's diagnostics read in errors and notes: FILE:LINE:COL lines, unless the CLI styles them for a terminal. */
let describeDiagnostics: (file: string, text: string, diagnostics: readonly Diagnostic[]) => string = diagnosticLines;

export function setDiagnosticsDescriber(describe: (file: string, text: string, diagnostics: readonly Diagnostic[]) => string): void {
  describeDiagnostics = describe;
}

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
  /** The text, for text input (positions of comments in messages). */
  readonly text?: string;
  /** Spans of the lowered elements in `text`, when asked for (`readModel`'s `withSourceMap`). */
  readonly sourceMap?: SourceMap;
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
export function readModel(file: string, note?: (message: string) => void, withSourceMap = false): LoadedModel {
  const bytes = readBytes(file);
  const claimed = formatOf(file);
  const sniffed = sniffModel(bytes, claimed);
  if (bytes.length === 0 && claimed !== "onnxtxt") throw new FileError(file, "the file is empty");
  if (!sniffed.format) {
    const expected = claimed ? `, not ${FORMAT_NAMES[claimed]}` : "";
    throw new FileError(file, `this file looks like ${sniffed.looksLike}${sniffed.looksLike.includes(", not ") ? "" : expected}`);
  }
  if (claimed && (claimed !== sniffed.format || sniffed.textproto))
    note?.(`onnxtxt: ${file}: note: the name says ${FORMAT_NAMES[claimed]}, but the file looks like ${sniffedName(sniffed)}; reading it as such\n`);
  if (sniffed.textproto) return { model: readTextprotoFile(file, bytes, note), format: "onnx", comments: [] };
  if (sniffed.format === "onnxtxt") return parseTextModel(file, new TextDecoder("utf-8").decode(bytes), note, withSourceMap);
  return { model: about(file, () => decodeModel(bytes, { owned: true })), format: "onnx", comments: [] };
}

/** A model in protobuf text format; throws TextprotoError. Its `#` comments have no place in a ModelProto: a note says so. */
export function textprotoModel(file: string, text: string, note?: (message: string) => void): ModelProto {
  const model = modelFromTextproto(text);
  if (/^[ \t]*#/m.test(text)) note?.(`onnxtxt: ${file}: note: the comments of protobuf text format are not carried into the model\n`);
  return model;
}

/** textprotoModel with its errors as FILE:LINE:COL file errors. */
function readTextprotoFile(file: string, bytes: Uint8Array, note?: (message: string) => void): ModelProto {
  try {
    return textprotoModel(file, new TextDecoder("utf-8").decode(bytes), note);
  } catch (e) {
    if (e instanceof TextprotoError) throw new FileError(`${file}:${e.line}:${e.col}`, e.reason);
    throw e;
  }
}

export function loadModel(file: string, note?: (message: string) => void): ModelProto {
  return readModel(file, note).model;
}

export interface SaveOptions {
  /** Text output: tensors with more bytes than this go to a sidecar beside the output. */
  readonly externalData?: number;
  /**
   * The folder the model was read from. External data it refers to is copied into a sidecar
   * beside the output when the output goes to another folder, so the result is complete.
   */
  readonly sourceDir?: string;
  /** Binary output moves tensors over `externalData` bytes out too (the library; the CLI's flag is for text). */
  readonly binaryExternalData?: boolean;
  /** Hears how many bytes of text were written, chunk by chunk, and when the writing ends (also on failure). */
  readonly progress?: ByteProgress;
}

/** A byte count that a long write reports to (the CLI's progress line). */
export interface ByteProgress {
  add(bytes: number): void;
  done(): void;
}

/** Runs `print` with its chunks going to `write`, counted by `progress`, which is done at the end. */
export function printWithProgress(print: (write: (bytes: Uint8Array) => void) => void, write: (bytes: Uint8Array) => void, progress?: ByteProgress): void {
  if (!progress) return print(write);
  try {
    print((bytes) => {
      write(bytes);
      progress.add(bytes.length);
    });
  } finally {
    progress.done();
  }
}

export function saveModel(file: string, model: ModelProto, opts: SaveOptions = {}): void {
  writeModel(file, requireFormat(file), model, opts);
}

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * Writes `model` to `file` as `format`. A sidecar, when one is needed, gets a name made from
 * its content (`OUT.<hash>.data`) and is written first, the model last: the model and its data
 * change together or not at all, and an existing sidecar is never overwritten. Older sidecars
 * of the same output are removed once the model that replaced them is in place. The sidecar goes
 * beside the path as named, also when that is a link: onnx resolves external data from the
 * folder of the path it is given.
 */
export function writeModel(file: string, format: ModelFormat, model: ModelProto, opts: SaveOptions = {}): void {
  const outDir = path.dirname(path.resolve(file));
  const from = opts.sourceDir === undefined ? undefined : path.resolve(opts.sourceDir);
  const relocate = from !== undefined && realDir(from) !== realDir(outDir) && hasExternalData(model) ? { fromDir: from, read: readDataRange(from) } : undefined;
  const threshold = format === "onnxtxt" || opts.binaryExternalData ? opts.externalData : undefined;
  const side = about(file, () => buildSidecar(model, { ...(threshold !== undefined && { threshold }), ...(relocate && { relocate }) }));
  const name = side.size > 0 ? sidecarName(file, side.chunks) : undefined;
  if (name !== undefined) {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && !st.isFile()) throw new FileError(file, "is not a regular file, so no external data file can be written beside it");
    nameSidecar(side.model, name);
  }
  // Text is streamed into the output: a big model's text is never whole in memory.
  const print = (write: (bytes: Uint8Array) => void): void => void about(file, () => printModel(side.model, { write }));
  const body: OutputData = format === "onnxtxt" ? (write) => printWithProgress(print, write, opts.progress) : encodeModel(side.model);
  const sidecar = name === undefined ? undefined : path.join(outDir, name);
  const created = sidecar !== undefined && writeSidecar(sidecar, side.chunks);
  try {
    writeOutput(file, body);
  } catch (e) {
    if (created) fs.rmSync(sidecar, { force: true });
    throw e;
  }
  if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) removeOldSidecars(outDir, path.basename(file), name ?? "");
}

/** The warnings of lowering every command shows: residual data stale or ignored, sizes that are not sizes. */
const NOTED_WARNINGS: ReadonlySet<string> = new Set(["residual-stale", "extension", "negative-dimension", "dimension-named-none"]);

/** Parses and lowers a text model; any error throws an InputError listing every diagnostic. */
/** `note` hears the residual warnings (stale or ignored residual data): nothing is dropped silently. */
function parseTextModel(file: string, text: string, note?: (message: string) => void, withSourceMap = false): LoadedModel {
  const r = withSourceMap ? modelFromText(text) : modelOnlyFromText(text);
  if (!r.model || hasErrors(r.diagnostics)) {
    throw new InputError(
      file,
      describeDiagnostics(
        file,
        text,
        r.diagnostics.filter((d) => d.severity === "error"),
      ),
    );
  }
  const residual = r.diagnostics.filter((d) => NOTED_WARNINGS.has(d.code));
  if (note && residual.length) note(describeDiagnostics(file, text, residual));
  about(file, () => bringBack(r.model!, modelDir(file), readDataRange(modelDir(file))));
  return { model: r.model, format: "onnxtxt", comments: r.comments, text, ...(withSourceMap && { sourceMap: r.sourceMap }) };
}
