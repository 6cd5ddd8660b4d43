// The library's run: a model's outputs from given inputs and the CLI's defaults for the rest,
// with the CLI's input checks (core/src/run-inputs.ts) and caps. Browser-safe: the fast
// kernels run on Node's worker threads, so they are injected (onnxtxt/node's `run` passes
// them); without them the reference kernels run everything, with the same results.
import type { ModelProto, NodeProto } from "../../proto/src/index.js";
import { adoptModel } from "./clone.js";
import { Interpreter, setAllocationLimit, type RunOptions as InterpreterOptions, type Value } from "./interp/index.js";
import type { Registry } from "./interp/registry.js";
import { OnnxtxtError } from "./io/errors.js";
import { resolveInputs } from "./run-inputs.js";

/** Options of {@link run}: those of `onnxtxt run` that do not name files. */
export interface RunOptions {
  /** Seed of the default inputs and of the random operators (default 0, as in the CLI). */
  readonly seed?: number;
  /** Sizes of symbolic dimensions for default inputs (others are 1), like `--dim NAME=N`. */
  readonly dims?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  /** Stop when live values exceed this many bytes (default 4 GiB, `--max-memory`). */
  readonly maxMemoryBytes?: number;
  /** Stop a Loop or Scan after this many iterations (default 10 million, `--max-iterations`). */
  readonly maxLoopIterations?: number;
  /** Stop after this many milliseconds (`--timeout`). */
  readonly timeoutMs?: number;
  /** Cancels the run: it stops between nodes with an InterpError. */
  readonly signal?: AbortSignal;
  /** Hears each main-graph node as it finishes: how many are done of how many. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** Faster kernels for a model: the model to run (fused) and the registry to run it with. */
export interface Kernels {
  prepare(model: ModelProto): { model: ModelProto; registry: Registry | undefined };
}

const DEFAULT_MEMORY = 4 * 1024 ** 3;

function elementCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/** A given value whose data does not hold what its dims say is refused before any check of its type. */
function consistent(v: Value): Value {
  if (v.kind === "tensor" && v.data.length !== elementCount(v.dims)) {
    throw new OnnxtxtError(`the shape [${v.dims.join(", ")}] holds ${elementCount(v.dims)} values but ${v.data.length} are given`);
  }
  return v;
}

/** The interpreter's options from {@link RunOptions}, and a node observer for progress. */
function interpreterOptions(options: RunOptions, registry: Registry | undefined, total: number): InterpreterOptions {
  let done = 0;
  const onProgress = options.onProgress;
  return {
    seed: options.seed ?? 0,
    maxMemoryBytes: options.maxMemoryBytes ?? DEFAULT_MEMORY,
    ...(options.maxLoopIterations !== undefined && { maxLoopIterations: options.maxLoopIterations }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(registry && { registry }),
    ...(onProgress && { onNode: (_node: NodeProto) => onProgress(++done, total) }),
  };
}

/**
 * Runs `model` and returns the graph outputs by name. Inputs that `inputs` leaves out (and that
 * have no initializer) get the CLI's defaults: seeded uniform values in [-1, 1) for floats and
 * [0, 4) for integers. Every input is checked against its declared type and shape as `onnxtxt
 * run` checks it, with the same messages. Throws OnnxtxtError for a wrong input and
 * InterpError when a kernel fails, a cap is reached or `signal` aborts.
 */
export async function runModel(
  model: ModelProto,
  inputs: ReadonlyMap<string, Value> | Readonly<Record<string, Value>> = {},
  options: RunOptions = {},
  kernels?: Kernels,
): Promise<Map<string, Value>> {
  model = adoptModel(model);
  const graph = model.graph;
  if (!graph) throw new OnnxtxtError("the model has no graph");
  const given = inputs instanceof Map ? inputs : new Map(Object.entries(inputs));
  const dims = options.dims instanceof Map ? options.dims : new Map(Object.entries(options.dims ?? {}));
  const maxMemory = options.maxMemoryBytes ?? DEFAULT_MEMORY;
  // Default inputs follow the declared shapes, which may be huge: the run's memory cap holds.
  setAllocationLimit(maxMemory);
  let feeds: Map<string, Value>;
  try {
    const resolved = resolveInputs(graph, {
      given: new Map([...given].map(([name, v]) => [name, () => consistent(v)])),
      givenLabel: "given",
      dims,
      seed: options.seed ?? 0,
      parseTensor: () => {
        throw new OnnxtxtError("a ModelProto has no # @input directives");
      },
    });
    feeds = new Map(resolved.map((r) => [r.name, r.value]));
  } finally {
    setAllocationLimit(Infinity);
  }
  const prepared = kernels ? kernels.prepare(model) : { model, registry: undefined };
  const total = prepared.model.graph?.node.length ?? 0;
  return new Interpreter(prepared.model, interpreterOptions({ ...options, maxMemoryBytes: maxMemory }, prepared.registry, total)).runAsync(feeds);
}
