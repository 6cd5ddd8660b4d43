// Gathering the input values of `onnxtxt run`: --input NAME=VALUE (.pb, .npy or an inline
// tensor constant), --input-dir DIR (input_N.pb by position), then seeded defaults.
import * as fs from "node:fs";
import * as path from "node:path";
import type { GraphProto, ValueInfoProto } from "../../../proto/src/index.js";
import { decodeValue, valueKindOf } from "../io/index.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import { parseTensorConstant } from "../../../grammar/src/index.js";
import { defaultValue, parseNpy, Rng, tensorFromProto, valueFromProto, type Value } from "../interp/index.js";
import { lowerTensorConstant } from "../lower/index.js";
import { UsageError } from "./args.js";
import { readChecked, type ReadRules } from "./data-files.js";
import { FileError } from "./files.js";
import { about } from "./model-files.js";

/** Graph inputs that have no initializer, in order: what input_N.pb files feed. */
export function feedableInputs(graph: GraphProto): ValueInfoProto[] {
  const init = new Set(graph.initializer.map((t) => t.name));
  return graph.input.filter((v) => !init.has(v.name));
}

/** Reads a .pb or .npy value: a regular file only (never a FIFO or device), within `rules`. */
export function readValueFile(file: string, info: ValueInfoProto | undefined, rules: ReadRules = {}): Value {
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

export interface InputOptions {
  inputs: readonly string[];
  inputDir: string | undefined;
  dims: ReadonlyMap<string, number>;
  seed: number;
  /** Input files bigger than this are refused. */
  maxBytes?: number;
}

export interface GatheredInputs {
  feeds: Map<string, Value>;
  /** Names that got default (random) values. */
  defaulted: string[];
}

export function gatherInputs(graph: GraphProto, opts: InputOptions): GatheredInputs {
  const feedable = feedableInputs(graph);
  const byName = new Map(graph.input.map((v) => [v.name, v]));
  const feeds = new Map<string, Value>();
  if (opts.inputDir !== undefined) {
    if (!fs.existsSync(opts.inputDir)) throw new FileError(opts.inputDir, "no such file or directory");
    // The same rules as external data: regular files inside the folder, one hard link each.
    const rules: ReadRules = { within: opts.inputDir, folderName: "the input folder", singleLink: true, ...(opts.maxBytes !== undefined && { maxBytes: opts.maxBytes }) };
    feedable.forEach((info, i) => {
      const file = path.join(opts.inputDir!, `input_${i}.pb`);
      if (fs.lstatSync(file, { throwIfNoEntry: false })) feeds.set(info.name, readValueFile(file, info, rules));
    });
  }
  for (const spec of opts.inputs) {
    const eq = spec.indexOf("=");
    if (eq <= 0) throw new UsageError(`--input expects NAME=VALUE, got '${spec}'`);
    const name = spec.slice(0, eq);
    const value = spec.slice(eq + 1);
    const info = byName.get(name);
    if (!info) throw new UsageError(`--input ${name}: the model has no input named '${name}' (inputs: ${feedable.map((v) => v.name).join(", ") || "none"})`);
    const isFile = /\.(pb|npy)$/i.test(value) && !/[{}]/.test(value);
    feeds.set(name, isFile ? readValueFile(value, info, opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}) : parseInlineValue(value, name));
  }
  const rng = new Rng(opts.seed);
  const defaulted: string[] = [];
  for (const info of feedable) {
    if (feeds.has(info.name)) continue;
    feeds.set(info.name, defaultValue(info.type, opts.dims, rng, info.name));
    defaulted.push(info.name);
  }
  return { feeds, defaulted };
}
