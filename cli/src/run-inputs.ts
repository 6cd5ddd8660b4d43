// The inputs of `onnxtxt run`: the CLI's side of the resolver the editor shares
// (core/src/run-inputs.ts). It reads the files: --input NAME=VALUE (.pb, .npy or an inline
// tensor constant), --input-dir DIR or else test_data_set_0 beside the model, and passes the
// text's `# @input` / `# @dim` directives; --dim wins over `# @dim`.
import * as fs from "node:fs";
import * as path from "node:path";
import type { GraphProto, ValueInfoProto } from "../../proto/src/index.js";
import { decodeValue, valueKindOf } from "../../core/src/io/index.js";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { parseTensorConstant } from "../../grammar/src/index.js";
import { parseNpy, tensorFromProto, valueFromProto, type Value } from "../../core/src/interp/index.js";
import { lowerTensorConstant } from "../../core/src/lower/index.js";
import { feedableInputs, resolveInputs, symbolicDims, type ResolvedInput, type RunDirectives } from "../../core/src/run-inputs.js";
import { UsageError } from "./args.js";
import { readChecked, type ReadRules } from "../../core/src/io/data-files.js";
import { FileError } from "../../core/src/io/files.js";
import { about } from "./model-files.js";

/** Reads a .pb or .npy value: a regular file only (never a FIFO or device), within `rules`. */
function readValueFile(file: string, info: ValueInfoProto | undefined, rules: ReadRules = {}): Value {
  const bytes = readChecked(file, rules);
  if (file.toLowerCase().endsWith(".npy")) return about(file, () => parseNpy(bytes));
  return about(file, () => valueFromProto(decodeValue(bytes, valueKindOf(info?.type))));
}

/** An inline tensor constant such as `float[2] {1, 2}`, in the text syntax. */
function parseInlineValue(text: string, name: string): Value {
  const parsed = parseTensorConstant(text);
  const firstError = (ds: readonly Diagnostic[]) => ds.find((d) => d.severity === "error");
  const syntax = firstError(parsed.diagnostics);
  if (!parsed.ast || syntax) throw new UsageError(`--input ${name}: not a tensor constant: ${syntax?.message ?? "empty"} (example: 'float[2] {1, 2}')`);
  const lowered = lowerTensorConstant(parsed.ast, text);
  const semantic = firstError(lowered.diagnostics);
  if (semantic || !lowered.result) throw new UsageError(`--input ${name}: ${semantic?.message ?? "the constant has no tensor type"}`);
  try {
    return tensorFromProto(lowered.result);
  } catch (e) {
    throw new UsageError(`--input ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

interface InputOptions {
  /** The model file: test_data_set_0 is looked for beside it. */
  modelFile: string;
  inputs: readonly string[];
  inputDir: string | undefined;
  dims: ReadonlyMap<string, number>;
  seed: number;
  directives: RunDirectives;
  /** Input files bigger than this are refused. */
  maxBytes?: number;
}

/** The folder input_N.pb come from: --input-dir, else test_data_set_0 beside a model file. */
function dataSetDir(opts: Pick<InputOptions, "modelFile" | "inputDir">): string | undefined {
  if (opts.inputDir !== undefined) {
    if (!fs.existsSync(opts.inputDir)) throw new FileError(opts.inputDir, "no such file or directory");
    if (!fs.statSync(opts.inputDir).isDirectory()) throw new FileError(opts.inputDir, "not a directory");
    return opts.inputDir;
  }
  if (opts.modelFile === "-") return undefined;
  const beside = path.join(path.dirname(opts.modelFile), "test_data_set_0");
  return fs.existsSync(beside) && fs.statSync(beside).isDirectory() ? beside : undefined;
}

export function gatherInputs(graph: GraphProto, opts: InputOptions): ResolvedInput[] {
  const feedable = feedableInputs(graph);
  const known = symbolicDims(graph);
  for (const name of opts.dims.keys()) {
    if (!known.has(name)) {
      throw new UsageError(`--dim ${name}: the model's inputs have no dimension named '${name}' (symbolic dims: ${[...known].join(", ") || "none"})`);
    }
  }
  const given = new Map<string, () => Value>();
  for (const spec of opts.inputs) {
    const eq = spec.indexOf("=");
    if (eq <= 0) throw new UsageError(`--input expects NAME=VALUE, got '${spec}'`);
    const name = spec.slice(0, eq);
    const value = spec.slice(eq + 1);
    const info = feedable.find((v) => v.name === name);
    if (!info) throw new UsageError(`--input ${name}: the model has no input named '${name}' (inputs: ${feedable.map((v) => v.name).join(", ") || "none"})`);
    const isFile = /\.(pb|npy)$/i.test(value) && !/[{}]/.test(value);
    // read now, so a missing file is a file error (exit 2), not a run error
    const v = isFile ? readValueFile(value, info, opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}) : parseInlineValue(value, name);
    given.set(name, () => v);
  }
  const dir = dataSetDir(opts);
  // The same rules as external data: regular files inside the folder, one hard link each.
  const rules: ReadRules | undefined =
    dir === undefined
      ? undefined
      : { within: dir, folderName: "the input folder", singleLink: true, ...(opts.maxBytes !== undefined && { maxBytes: opts.maxBytes }) };
  const dataSet =
    dir === undefined
      ? undefined
      : feedable.map((_, i) => {
          const file = path.join(dir, `input_${i}.pb`);
          return fs.lstatSync(file, { throwIfNoEntry: false }) ? readChecked(file, rules!) : undefined;
        });
  return resolveInputs(graph, {
    given,
    givenLabel: "--input",
    directives: opts.directives,
    ...(dataSet && dir !== undefined ? { dataSet, dataSetName: dir } : {}),
    dims: opts.dims,
    seed: opts.seed,
    parseTensor: (text) => parseInlineValue(text, "(# @input)"),
  });
}
