// `onnxtxt run MODEL`: evaluates a model with the interpreter (or onnxruntime), prints a
// summary of the outputs and optionally writes them as output_N.pb.
import * as fs from "node:fs";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { ValueInfoProtoSchema, type ModelProto, type NodeProto } from "../../../../proto/src/index.js";
import { encodeValue, inlineExternalData, OnnxtxtError } from "../../io/index.js";
import {
  compareValues,
  describeRunError,
  Interpreter,
  InterpError,
  runWithOrt,
  setAllocationLimit,
  summarize,
  valueToProto,
  type Tolerance,
  type Value,
} from "../../interp/index.js";
import { prepareFastRun, startFastKernels } from "../../interp/fast/index.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import type { Command, Output } from "../command.js";
import { FileError, readRangeWithin, writeAtomic } from "../files.js";
import { about, loadModel } from "../model-files.js";
import { progress } from "../progress.js";
import { gatherInputs } from "../run-inputs.js";

const USAGE = `usage: onnxtxt run MODEL [options]

Runs MODEL (.onnx or .onnxtxt) and prints each output's type, shape and first values.

options:
  --input NAME=VALUE   an input value: a .pb file, a .npy file or an inline tensor
                       constant such as 'float[2] {1, 2}' (repeatable)
  --input-dir DIR      input_N.pb files, matched by position to the graph inputs
                       that have no initializer
  --output-dir DIR     write output_N.pb (TensorProto, SequenceProto, MapProto or
                       OptionalProto, following each output's type)
  --dim NAME=N         the size of a symbolic dimension for default inputs (repeatable)
  --seed N             seed of the default inputs and the random operators (default 0)
  --backend interp|ort run with the interpreter (default) or onnxruntime-node
  --compare ort        run both and name the first node whose outputs differ
  --rtol X --atol X    tolerance of --compare (default 1e-3 and 1e-7)
  --max-memory MB      stop when live values exceed this (default 4096)
  --max-iterations N   stop a Loop or Scan after N iterations (default 10000000)
  --timeout MS         stop after MS milliseconds (default 600000, 10 minutes; 0: none)
  --quiet              print nothing on success

Inputs that are not given get defaults: seeded uniform values in [-1, 1) for
floats, [0, 4) for integers; symbolic dims are 1 unless --dim sets them.`;

const FLAGS = {
  input: { value: true, repeat: true },
  "input-dir": { value: true },
  "output-dir": { value: true },
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

function writeOutputs(dir: string, model: ModelProto, outputs: ReadonlyMap<string, Value>): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch {
    throw new FileError(dir, "cannot create the directory");
  }
  model.graph!.output.forEach((o, i) => {
    const v = outputs.get(o.name);
    if (v === undefined) return;
    writeAtomic(path.join(dir, `output_${i}.pb`), encodeValue(valueToProto(v, o.name)));
  });
}

function printOutputs(io: Output, model: ModelProto, outputs: ReadonlyMap<string, Value>): void {
  for (const o of model.graph!.output) {
    const v = outputs.get(o.name);
    io.out(`${o.name}: ${v ? summarize(v) : "(no value)"}\n`);
  }
}

/** Runs with the interpreter, showing node progress on a terminal for long runs. */
async function runInterp(model: ModelProto, feeds: Map<string, Value>, io: Output, options: ConstructorParameters<typeof Interpreter>[1], observe?: (node: NodeProto, outs: readonly (Value | undefined)[]) => void): Promise<Map<string, Value>> {
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

/** Runs both backends; the first main-graph node whose outputs differ is reported. */
async function compareWithOrt(model: ModelProto, feeds: Map<string, Value>, io: Output, options: ConstructorParameters<typeof Interpreter>[1], tol: Tolerance): Promise<number> {
  const seen = new Map<string, Value>();
  const order: NodeProto[] = [];
  const mine = await runInterp(model, feeds, io, options, (node, outs) => {
    order.push(node);
    node.output.forEach((n, i) => {
      const v = outs[i];
      if (n && v) seen.set(n, v);
    });
  });
  const wanted = [...seen.keys()];
  const probe = structuredClone(model);
  const existing = new Set(probe.graph!.output.map((o) => o.name));
  for (const name of wanted) {
    if (!existing.has(name)) probe.graph!.output.push(create(ValueInfoProtoSchema, { name }));
  }
  let theirs: Map<string, Value>;
  try {
    theirs = await runWithOrt(probe, feeds, wanted);
  } catch {
    theirs = await runWithOrt(model, feeds);
  }
  // outputs nobody reads (such as an inference Dropout's mask) are not compared
  const read = new Set(model.graph!.output.map((o) => o.name));
  for (const node of order) for (const i of node.input) read.add(i);
  for (const node of order) {
    for (const name of node.output) {
      if (!name || !theirs.has(name) || !read.has(name)) continue;
      const d = compareValues(seen.get(name), theirs.get(name), tol);
      if (d) {
        io.out(`first difference at node ${node.name || "(unnamed)"} (${node.opType}), output '${name}': ${d}\n`);
        io.out(`  interp: ${summarize(seen.get(name)!)}\n  ort:    ${summarize(theirs.get(name)!)}\n`);
        return 1;
      }
    }
  }
  for (const o of model.graph!.output) {
    const d = compareValues(mine.get(o.name), theirs.get(o.name), tol);
    if (d) {
      io.out(`output '${o.name}' differs: ${d}\n`);
      return 1;
    }
  }
  io.out(`all ${seen.size} compared values agree within rtol ${tol.rtol}, atol ${tol.atol}\n`);
  return 0;
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
    const seed = numberFlag(flag(args, "seed"), "seed", 0);
    const options = {
      seed,
      maxMemoryBytes: numberFlag(flag(args, "max-memory"), "max-memory", 4096) * 1024 * 1024,
      maxLoopIterations: numberFlag(flag(args, "max-iterations"), "max-iterations", 10_000_000),
      ...timeoutOption(numberFlag(flag(args, "timeout"), "timeout", DEFAULT_TIMEOUT_MS)),
    };
    const tol = { rtol: numberFlag(flag(args, "rtol"), "rtol", 1e-3), atol: numberFlag(flag(args, "atol"), "atol", 1e-7) };
    if (backend === "interp" && compare === undefined) startFastKernels();
    const model = loadModel(file);
    if (!model.graph) throw new FileError(file, "the model has no graph");
    about(file, () => inlineExternalData(model, path.dirname(path.resolve(file)), readRangeWithin(path.dirname(path.resolve(file)))));
    try {
      // Default inputs follow the declared shapes, which may be huge: same memory limit as the run.
      setAllocationLimit(options.maxMemoryBytes);
      let feeds: Map<string, Value>;
      try {
        ({ feeds } = gatherInputs(model.graph, {
          inputs: args.flags.get("input") ?? [],
          inputDir: flag(args, "input-dir"),
          dims: parseDims(args.flags.get("dim") ?? []),
          seed,
        }));
      } finally {
        setAllocationLimit(Infinity);
      }
      if (compare === "ort") return await compareWithOrt(model, feeds, io, options, tol);
      const outputs = backend === "ort" ? await runWithOrt(model, feeds) : await runInterp(model, feeds, io, options);
      const outDir = flag(args, "output-dir");
      if (outDir !== undefined) writeOutputs(outDir, model, outputs);
      if (!hasFlag(args, "quiet")) printOutputs(io, model, outputs);
      return 0;
    } catch (e) {
      if (e instanceof InterpError || e instanceof OnnxtxtError) {
        io.err(`onnxtxt: ${file}: ${describeRunError(e)}\n`);
        return 1;
      }
      throw e;
    }
  },
};
