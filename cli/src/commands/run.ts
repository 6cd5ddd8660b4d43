// `onnxtxt run MODEL`: evaluates a model with the interpreter (or onnxruntime), prints a
// summary of the outputs and optionally writes them as output_N.pb.
import * as fs from "node:fs";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { cloneModel } from "../../../core/src/clone.js";
import { ValueInfoProtoSchema, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { checkExternalData, encodeValue, inlineExternalData, OnnxtxtError } from "../../../core/src/io/index.js";
import {
  describeRunError,
  Interpreter,
  InterpError,
  runWithOrt,
  setAllocationLimit,
  summarize,
  valueToProto,
  type Value,
} from "../../../core/src/interp/index.js";
import { prepareFastRun, startFastKernels } from "../../../core/src/interp/fast/index.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import type { Command, Output } from "../command.js";
import { checkDataRange, readDataRange } from "../../../core/src/io/data-files.js";
import { FileError, makeDirs } from "../../../core/src/io/files.js";
import { writeOutput } from "../../../core/src/io/write-output.js";
import { about, modelDir, readModel } from "../model-files.js";
import { checkExpected, compareWithOrt, ortOptions } from "../run-check.js";
import { escapeControls } from "../terminal-text.js";
import { runDirectives } from "../../../core/src/run-inputs.js";
import { progress } from "../progress.js";
import { gatherInputs } from "../run-inputs.js";

const USAGE = `usage: onnxtxt run MODEL [options]

Runs MODEL (.onnx or .onnxtxt; - reads stdin) and prints each output's type, shape and
first values.

inputs (first match wins, per input; the editor's Run uses the same rules):
  --input NAME=VALUE   a .pb file, a .npy file or an inline tensor constant such as
                       'float[2] {1, 2}' (repeatable)
  # @input NAME = ...  a directive comment in a .onnxtxt model
  --input-dir DIR      input_N.pb files, matched by position to the graph inputs that
                       have no initializer (default: test_data_set_0 beside MODEL)
  defaults             seeded uniform values in [-1, 1) for floats, [0, 4) for integers
  --dim NAME=N         the size of a symbolic dimension for defaults (repeatable;
                       wins over a '# @dim NAME = N' directive; otherwise 1)
  --seed N             seed of the default inputs and the random operators (default 0)
  --print-inputs       print each input, where it comes from, and stop
Inputs are checked against the declared types and shapes before the run.

results:
  --output-dir DIR     write output_N.pb (TensorProto, SequenceProto, MapProto or
                       OptionalProto, following each output's type), in every mode
  --expect DIR         compare with DIR/output_N.pb (onnx backend tolerances: rtol 1e-3,
                       atol 1e-7); exit 1 on a mismatch. On by default with --input-dir;
                       --no-expect turns it off
  --show all|N         values shown per output (default 8)
  --save-intermediate NAME
                       also print (and with --output-dir write, as
                       intermediate_NAME.pb) the value NAME inside the graph (repeatable)
  --quiet              print nothing on success

backends:
  --backend interp|ort run with the interpreter (default) or onnxruntime-node
  --compare ort        run both; compare the outputs with per-type tolerances (float and
                       double: rtol 1e-3, atol 1e-5; integers exactly) and print the largest
                       errors; on a mismatch, name the first node whose outputs differ
  --rtol X --atol X    replace the float tolerances of --compare and --expect

limits:
  --max-memory MB      stop when live values exceed this (default 4096)
  --max-iterations N   stop a Loop or Scan after N iterations (default 10000000)
  --timeout MS         stop after MS milliseconds (default 600000, 10 minutes; 0: none)`;

const FLAGS = {
  input: { value: true, repeat: true },
  "input-dir": { value: true },
  "output-dir": { value: true },
  expect: { value: true },
  "no-expect": {},
  show: { value: true },
  "save-intermediate": { value: true, repeat: true },
  "print-inputs": {},
  dim: { value: true, repeat: true },
  seed: { value: true },
  backend: { value: true },
  compare: { value: true },
  rtol: { value: true },
  atol: { value: true },
  "max-memory": { value: true },
  "max-iterations": { value: true },
  timeout: { value: true },
  quiet: {},
} as const;

/** A run that nobody limited still ends: ten minutes. */
const DEFAULT_TIMEOUT_MS = 600_000;

function timeoutOption(ms: number): { timeoutMs?: number } {
  return ms === 0 ? {} : { timeoutMs: ms };
}

function numberFlag(value: string | undefined, name: string, dflt: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`--${name} expects a non-negative number, got '${value}'`);
  return n;
}

function parseDims(specs: readonly string[]): Map<string, number> {
  const dims = new Map<string, number>();
  for (const s of specs) {
    const m = /^([^=]+)=(\d+)$/.exec(s);
    if (!m) throw new UsageError(`--dim expects NAME=N, got '${s}'`);
    dims.set(m[1]!, Number(m[2]));
  }
  return dims;
}

function holdsOutputs(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((f) => /^output_\d+\.pb$/.test(f));
  } catch {
    return false;
  }
}

function parseShow(value: string | undefined): number {
  if (value === undefined) return 8;
  if (value === "all") return Infinity;
  if (!/^\d+$/.test(value)) throw new UsageError(`--show expects 'all' or a count, got '${value}'`);
  return Number(value);
}

/** A file name for a value's name: characters other than letters, digits, `.`, `-` become `_`. */
function fileNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_") || "_";
}

function writeOutputs(dir: string, model: ModelProto, outputs: ReadonlyMap<string, Value>, intermediates: readonly string[]): void {
  makeDirs(dir);
  model.graph!.output.forEach((o, i) => {
    const v = outputs.get(o.name);
    if (v === undefined) return;
    writeOutput(path.join(dir, `output_${i}.pb`), encodeValue(valueToProto(v, o.name)));
  });
  for (const name of intermediates) {
    const v = outputs.get(name);
    if (v) writeOutput(path.join(dir, `intermediate_${fileNameOf(name)}.pb`), encodeValue(valueToProto(v, name)));
  }
}

function printValues(io: Output, names: readonly string[], outputs: ReadonlyMap<string, Value>, show: number): void {
  for (const name of names) {
    const v = outputs.get(name);
    io.out(`${escapeControls(name)}: ${v ? summarize(v, show) : "(no value)"}\n`);
  }
}

/**
 * The model with each of `names` (values inside the main graph) added as a graph output, so
 * both backends return them; the added outputs come last.
 */
function withIntermediates(model: ModelProto, names: readonly string[]): ModelProto {
  if (names.length === 0) return model;
  const g = model.graph!;
  const known = new Set([...g.input.map((v) => v.name), ...g.initializer.map((t) => t.name), ...g.node.flatMap((n) => n.output)]);
  for (const name of names) {
    if (!known.has(name)) throw new UsageError(`--save-intermediate ${name}: the main graph has no value named '${name}'`);
  }
  const copy = cloneModel(model);
  const typed = new Map([...g.valueInfo, ...g.input, ...g.output].map((v) => [v.name, v]));
  const outputs = new Set(g.output.map((o) => o.name));
  for (const name of names) if (!outputs.has(name)) copy.graph!.output.push(typed.get(name) ?? create(ValueInfoProtoSchema, { name }));
  return copy;
}

/** Runs with the interpreter, showing node progress on a terminal for long runs. */
async function runInterp(
  model: ModelProto,
  feeds: Map<string, Value>,
  io: Output,
  options: ConstructorParameters<typeof Interpreter>[1],
  observe?: (node: NodeProto, outs: readonly (Value | undefined)[]) => void,
): Promise<Map<string, Value>> {
  const total = model.graph!.node.length;
  const bar = progress(io, total > 50 ? total : 0, "running");
  // Fast kernels and fusion, except when every node's outputs are observed.
  const fast = observe ? { model, registry: undefined } : prepareFastRun(model);
  const interp = new Interpreter(fast.model, {
    ...options,
    ...(fast.registry ? { registry: fast.registry } : {}),
    onNode: (node, outs) => {
      bar.tick(node.name || node.opType);
      observe?.(node, outs);
    },
  });
  try {
    return await interp.runAsync(feeds);
  } finally {
    bar.done();
  }
}

export const runCommand: Command = {
  name: "run",
  summary: "evaluate a model and print or save its outputs",
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, FLAGS);
    if (args.positional.length !== 1) throw new UsageError("expected one MODEL");
    const file = args.positional[0]!;
    const backend = flag(args, "backend") ?? "interp";
    if (backend !== "interp" && backend !== "ort") throw new UsageError(`--backend must be 'interp' or 'ort', not '${backend}'`);
    const compare = flag(args, "compare");
    if (compare !== undefined && compare !== "ort") throw new UsageError(`--compare supports 'ort' only, not '${compare}'`);
    if (compare !== undefined && backend === "ort") throw new UsageError("--compare ort compares the interpreter with onnxruntime; leave out --backend ort");
    const seed = numberFlag(flag(args, "seed"), "seed", 0);
    const options = {
      seed,
      maxMemoryBytes: numberFlag(flag(args, "max-memory"), "max-memory", 4096) * 1024 * 1024,
      maxLoopIterations: numberFlag(flag(args, "max-iterations"), "max-iterations", 10_000_000),
      ...timeoutOption(numberFlag(flag(args, "timeout"), "timeout", DEFAULT_TIMEOUT_MS)),
    };
    const override = {
      ...(hasFlag(args, "rtol") && { rtol: numberFlag(flag(args, "rtol"), "rtol", 0) }),
      ...(hasFlag(args, "atol") && { atol: numberFlag(flag(args, "atol"), "atol", 0) }),
    };
    const show = parseShow(flag(args, "show"));
    const intermediates = [...new Set(args.flags.get("save-intermediate") ?? [])];
    const inputDir = flag(args, "input-dir");
    if (hasFlag(args, "expect") && hasFlag(args, "no-expect")) throw new UsageError("--expect and --no-expect exclude each other");
    // with --input-dir, its output_N.pb are expected (a folder of inputs only expects nothing)
    const expectDir = flag(args, "expect") ?? (inputDir !== undefined && !hasFlag(args, "no-expect") && holdsOutputs(inputDir) ? inputDir : undefined);
    if (backend === "interp") startFastKernels();
    const loaded = readModel(file, (m) => io.err(m));
    if (!loaded.model.graph) throw new FileError(file, "the model has no graph");
    // onnxruntime reads a binary model from its file, external data and all, when the run
    // adds nothing to it; the interpreter needs the data inlined
    const ortPath = loaded.format === "onnx" && file !== "-" && intermediates.length === 0 ? path.resolve(file) : undefined;
    if (backend === "interp" || ortPath === undefined) about(file, () => inlineExternalData(loaded.model, modelDir(file), readDataRange(modelDir(file))));
    // onnxruntime follows links our own reader refuses: it reads only what we would read
    if (ortPath !== undefined) about(file, () => checkExternalData(loaded.model, modelDir(file), checkDataRange(modelDir(file))));
    const model = withIntermediates(loaded.model, intermediates);
    try {
      // Default inputs follow the declared shapes, which may be huge: same memory limit as the run.
      setAllocationLimit(options.maxMemoryBytes);
      let inputs;
      try {
        inputs = gatherInputs(model.graph!, {
          modelFile: file,
          inputs: args.flags.get("input") ?? [],
          inputDir,
          dims: parseDims(args.flags.get("dim") ?? []),
          seed,
          directives: runDirectives(loaded.comments),
          maxBytes: Math.floor(options.maxMemoryBytes),
        });
      } finally {
        setAllocationLimit(Infinity);
      }
      if (hasFlag(args, "print-inputs")) {
        for (const r of inputs) io.out(`${escapeControls(r.name)}: ${summarize(r.value, show)}  (${escapeControls(r.from)})\n`);
        return 0;
      }
      const feeds = new Map(inputs.map((r) => [r.name, r.value]));
      const outputs = backend === "ort" ? await runWithOrt(model, feeds, undefined, ortOptions(io, ortPath)) : await runInterp(model, feeds, io, options);
      const outDir = flag(args, "output-dir");
      if (outDir !== undefined) writeOutputs(outDir, loaded.model, outputs, intermediates);
      if (!hasFlag(args, "quiet")) printValues(io, [...new Set([...loaded.model.graph.output.map((o) => o.name), ...intermediates])], outputs, show);
      let code = 0;
      if (compare === "ort") {
        code = Math.max(code, await compareWithOrt(model, feeds, outputs, io, override, (observe) => runInterp(model, feeds, io, options, observe), ortPath));
      }
      if (expectDir !== undefined) code = Math.max(code, checkExpected(expectDir, loaded.model, outputs, io, override, hasFlag(args, "quiet")));
      return code;
    } catch (e) {
      if (e instanceof InterpError || e instanceof OnnxtxtError) {
        io.err(`onnxtxt: ${file}: ${describeRunError(e)}\n`);
        return 1;
      }
      throw e;
    }
  },
};
