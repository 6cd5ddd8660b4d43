// The graph executor: runs a ModelProto's graph node by node on Values. Subgraphs (If, Loop,
// Scan, SequenceMap) see their enclosing scopes; model-local functions and schema function
// bodies are expanded per call site. Intermediate values are dropped after their last use.
import { create } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  NodeProtoSchema,
  type AttributeProto,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TypeProto,
} from "../../../proto/src/index.js";
import { OnnxtxtError, describeError } from "../io/index.js";
import { Attrs } from "./attrs.js";
import { GuardError, InterpError } from "./errors.js";
import { defaultRegistry } from "./ops/index.js";
import { normalizeDomain, type Kernel, type KernelContext, type Registry } from "./registry.js";
import { Rng } from "./rng.js";
import { schemaFunctionResolver } from "./schema-functions.js";
import { sparseToDense, tensorFromProto } from "./tensor-proto.js";
import { closeBudget, openBudget, setAllocationLimit, setRunPoll } from "./budget.js";
import { DT, byteSizeOf, tensor, typeLabel, type Value } from "./value.js";

/** Finds a function body for an op no kernel implements (e.g. from the operator schemas). */
export type FunctionResolver = (domain: string, op: string, opset: number) => FunctionProto | undefined;

export interface RunOptions {
  registry?: Registry;
  /** Seed of the random ops; the same seed gives the same results. */
  seed?: number;
  /** Cancels the run (checked before every node; `runAsync` lets the signal fire mid-run). */
  signal?: AbortSignal;
  /**
   * Polled before every node, loop bodies included: a caller that runs the interpreter in a
   * worker can back it with a SharedArrayBuffer flag to cancel even a single long Loop.
   */
  isCancelled?: () => boolean;
  /** A run fails when its live values would exceed this many bytes (default 4 GiB). */
  maxMemoryBytes?: number;
  /** A Loop or Scan fails after this many iterations (default 10 million). */
  maxLoopIterations?: number;
  /** A run fails after this many milliseconds (default: no limit). */
  timeoutMs?: number;
  /** Bodies for ops without a kernel (default: the function bodies of the operator schemas). */
  resolveFunction?: FunctionResolver;
  /** Called after every node of the main graph with its outputs (for differential runs). */
  onNode?: (node: NodeProto, outputs: readonly (Value | undefined)[]) => void;
}

const DEFAULT_MEMORY = 4 * 1024 ** 3;
const DEFAULT_LOOP_LIMIT = 10_000_000;

let sharedResolver: FunctionResolver | undefined;

/** Schema function bodies are the fallback for ops without a kernel. */
function defaultResolver(): FunctionResolver {
  return (sharedResolver ??= schemaFunctionResolver());
}

/** A graph or function body, ready to run: kernels looked up and last uses computed. */
interface Body {
  /** The opsets in force: the model's, or a function's own imports. */
  readonly opsets: OpsetMap;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly initializers: ReadonlyMap<string, Value>;
  readonly steps: readonly Step[];
  readonly nodes: readonly NodeProto[];
}

interface Step {
  readonly node: NodeProto;
  readonly attrs: Attrs;
  readonly opset: number;
  readonly kernel?: Kernel;
  readonly fn?: FunctionProto;
  /** Names defined in this body whose last use is this step. */
  readonly frees: readonly string[];
  /** Set when every input is a constant: the outputs are computed once and kept. */
  readonly fold?: { outputs?: (Value | undefined)[] };
}

/** Ops whose results differ between runs; they are never folded. */
const NONDETERMINISTIC = new Set(["RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli", "Multinomial", "Dropout"]);

type OpsetMap = ReadonlyMap<string, number>;

class Scope {
  readonly values = new Map<string, Value | undefined>();
  constructor(readonly parent?: Scope) {}

  lookup(name: string): Value | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      if (s.values.has(name)) return s.values.get(name);
    }
    throw new OnnxtxtError(`value '${name}' is not defined`);
  }
}

function opsetMapOf(imports: readonly { domain: string; version: bigint }[], base?: OpsetMap): Map<string, number> {
  const m = new Map<string, number>(base ?? []);
  for (const o of imports) m.set(normalizeDomain(o.domain), Number(o.version));
  return m;
}

function functionKey(domain: string, name: string, overload = ""): string {
  return `${normalizeDomain(domain)}:${name}:${overload}`;
}

/** Names a subgraph reads from outside (an over-approximation: every name it reads). */
function namesReadBy(node: NodeProto, out: Set<string>): void {
  for (const i of node.input) if (i) out.add(i);
  for (const a of node.attribute) {
    if (a.g) for (const n of a.g.node) namesReadBy(n, out);
    for (const g of a.graphs) for (const n of g.node) namesReadBy(n, out);
  }
}

export class Interpreter {
  private readonly registry: Registry;
  private readonly opsets: OpsetMap;
  private readonly functions = new Map<string, FunctionProto>();
  private readonly bodies = new WeakMap<object, Body>();
  private readonly expansions = new WeakMap<NodeProto, Body>();
  private readonly main: Body;
  private rng: Rng;
  private liveBytes = 0;
  private startedAt = 0;
  /** Subgraphs and function bodies being run inside a kernel (0: the main graph's own steps). */
  private depth = 0;
  private readonly poll = (): void => this.checkGuards();

  constructor(
    readonly model: ModelProto,
    private readonly options: RunOptions = {},
  ) {
    if (!model.graph) throw new OnnxtxtError("the model has no graph");
    this.registry = options.registry ?? defaultRegistry;
    this.opsets = opsetMapOf(model.opsetImport);
    for (const f of model.functions) this.functions.set(functionKey(f.domain, f.name, f.overload), f);
    this.rng = new Rng(options.seed ?? 0);
    this.main = this.prepareGraph(model.graph, this.opsets);
  }

  /** Graph inputs that are not initializers: what a caller must feed. */
  get inputNames(): string[] {
    return this.main.inputs.filter((n) => !this.main.initializers.has(n));
  }

  get outputNames(): readonly string[] {
    return this.main.outputs;
  }

  run(feeds: ReadonlyMap<string, Value>): Map<string, Value> {
    const it = this.start(feeds);
    for (;;) {
      const r = it.next();
      if (r.done) return r.value;
    }
  }

  /** Like run, but yields to the event loop now and then so an AbortSignal can cancel it. */
  async runAsync(feeds: ReadonlyMap<string, Value>): Promise<Map<string, Value>> {
    const it = this.start(feeds);
    let last = Date.now();
    for (;;) {
      const r = it.next();
      if (r.done) return r.value;
      if (Date.now() - last > 20) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        last = Date.now();
      }
    }
  }

  private *start(feeds: ReadonlyMap<string, Value>): Generator<void, Map<string, Value>> {
    this.rng = new Rng(this.options.seed ?? 0);
    this.liveBytes = 0;
    this.startedAt = Date.now();
    try {
      for (const name of feeds.keys()) {
        if (!this.main.inputs.includes(name)) throw new InterpError(`the model has no input named '${name}'`);
      }
      const scope = new Scope();
      const declared = this.model.graph!.input;
      const inputs = this.main.inputs.map((n, i) => {
        const fed = feeds.get(n);
        return fed ? asDeclared(fed, declared[i]?.type) : this.main.initializers.get(n);
      });
      for (let i = 0; i < inputs.length; i++) {
        if (inputs[i] === undefined) throw new InterpError(`no value given for input '${this.main.inputs[i]}'`);
      }
      const outs = yield* this.execBody(this.main, inputs, scope, this.options.onNode);
      const result = new Map<string, Value>();
      this.main.outputs.forEach((n, i) => {
        const v = outs[i];
        if (v !== undefined) result.set(n, v);
      });
      return result;
    } finally {
      setAllocationLimit(Infinity);
      setRunPoll(undefined);
    }
  }

  private prepareGraph(g: GraphProto, opsets: OpsetMap): Body {
    const cached = this.bodies.get(g);
    if (cached) return cached;
    const initializers = new Map<string, Value>();
    for (const t of g.initializer) initializers.set(t.name, tensorFromProto(t));
    for (const s of g.sparseInitializer) if (s.values) initializers.set(s.values.name, sparseToDense(s));
    const body = this.prepare(
      g.node,
      g.input.map((v) => v.name),
      g.output.map((v) => v.name),
      initializers,
      opsets,
    );
    this.bodies.set(g, body);
    return body;
  }

  private prepare(nodes: readonly NodeProto[], inputs: string[], outputs: string[], initializers: Map<string, Value>, opsets: OpsetMap): Body {
    const defined = new Set<string>([...inputs, ...initializers.keys()]);
    for (const n of nodes) for (const o of n.output) if (o) defined.add(o);
    const keep = new Set(outputs);
    const lastUse = new Map<string, number>();
    nodes.forEach((n, i) => {
      const read = new Set<string>();
      namesReadBy(n, read);
      for (const name of read) if (defined.has(name)) lastUse.set(name, i);
    });
    const frees: string[][] = nodes.map(() => []);
    // Gradient reads forward values it does not name as inputs: keep everything then
    const differentiates = nodes.some((n) => n.opType === "Gradient");
    if (!differentiates) for (const [name, i] of lastUse) if (!keep.has(name)) frees[i]!.push(name);
    // constants: initializers a caller cannot override, and outputs of foldable nodes
    const constant = new Set([...initializers.keys()].filter((n) => !inputs.includes(n)));
    const foldable = nodes.map((n) => {
      const ok =
        !NONDETERMINISTIC.has(n.opType) &&
        normalizeDomain(n.domain) === "" &&
        n.attribute.every((a) => !a.g && a.graphs.length === 0) &&
        n.input.every((i) => i === "" || constant.has(i));
      if (ok) for (const o of n.output) if (o) constant.add(o);
      return ok;
    });
    const steps: Step[] = nodes.map((node, i) => {
      const domain = normalizeDomain(node.domain);
      const opset = opsets.get(domain) ?? (domain === "" ? 21 : 1);
      const fn = this.functions.get(functionKey(node.domain, node.opType, node.overload));
      const step: Step = { node, attrs: new Attrs(node), opset, frees: frees[i]!, ...(foldable[i] ? { fold: {} } : {}) };
      if (fn) return { ...step, fn };
      const kernel = this.registry.find(domain, node.opType, opset);
      if (kernel) return { ...step, kernel };
      const resolved = (this.options.resolveFunction ?? defaultResolver())(domain, node.opType, opset);
      if (resolved) return { ...step, fn: resolved };
      throw new InterpError(`no implementation of operator ${domain ? domain + "." : ""}${node.opType} (opset ${opset})`, [nodeLabel(node)]);
    });
    return { opsets, inputs, outputs, initializers, steps, nodes };
  }

  private *execBody(body: Body, inputs: readonly (Value | undefined)[], scope: Scope, onNode?: RunOptions["onNode"]): Generator<void, (Value | undefined)[]> {
    for (const [name, v] of body.initializers) scope.values.set(name, v);
    body.inputs.forEach((name, i) => scope.values.set(name, inputs[i]));
    for (const step of body.steps) {
      this.checkGuards();
      const node = step.node;
      let outs: (Value | undefined)[];
      let ins: (Value | undefined)[] | undefined;
      // Between the main graph's steps another run may have used this thread: take it back.
      if (this.depth === 0) {
        setAllocationLimit(this.memoryCap());
        setRunPoll(this.poll);
      }
      const budget = openBudget(this.memoryCap() - Math.max(0, this.liveBytes));
      try {
        if (step.fold?.outputs) outs = step.fold.outputs;
        else {
          ins = node.input.map((n) => (n === "" ? undefined : scope.lookup(n)));
          outs = step.fn ? this.callFunction(step, ins) : step.kernel!(ins, this.context(step, scope, body));
          if (step.fold) step.fold.outputs = outs;
        }
      } catch (e) {
        throw wrapError(e, node, ins);
      } finally {
        closeBudget(budget);
      }
      node.output.forEach((name, i) => {
        if (!name) return;
        const v = outs[i];
        scope.values.set(name, v);
        if (v) this.liveBytes += byteSizeOf(v);
      });
      for (const name of step.frees) {
        const v = scope.values.get(name);
        if (v && !body.initializers.has(name)) this.liveBytes -= byteSizeOf(v);
        scope.values.delete(name);
      }
      this.checkMemory();
      onNode?.(node, outs);
      yield;
    }
    return body.outputs.map((n) => (n === "" ? undefined : scope.lookup(n)));
  }

  private context(step: Step, scope: Scope, body: Body): KernelContext {
    return {
      node: step.node,
      attrs: step.attrs,
      opset: step.opset,
      outputCount: step.node.output.length,
      rng: this.rng,
      runGraph: (g, inputs) => this.runSubgraph(g, inputs, scope, body.opsets),
      graph: { nodes: body.nodes, lookup: (name) => scope.lookup(name) },
      checkGuards: (iterations, heldBytes) => {
        this.checkGuards();
        if (heldBytes !== undefined) this.checkMemory(heldBytes);
        if (iterations !== undefined && iterations > (this.options.maxLoopIterations ?? DEFAULT_LOOP_LIMIT)) {
          throw new GuardError(`loop stopped after ${iterations - 1} iterations (limit ${this.options.maxLoopIterations ?? DEFAULT_LOOP_LIMIT})`);
        }
      },
    };
  }

  private runSubgraph(g: GraphProto, inputs: readonly (Value | undefined)[], parent: Scope, opsets: OpsetMap): Value[] {
    const body = this.prepareGraph(g, opsets);
    const outs = this.runNested(this.execBody(body, inputs, new Scope(parent)));
    outs.forEach((v, i) => {
      if (v === undefined) throw new InterpError(`subgraph output '${body.outputs[i]}' has no value`);
    });
    return outs as Value[];
  }

  /** Runs a body inside the current kernel to its end. */
  private runNested(it: Generator<void, (Value | undefined)[]>): (Value | undefined)[] {
    this.depth++;
    try {
      for (;;) {
        const r = it.next();
        if (r.done) return r.value;
      }
    } finally {
      this.depth--;
    }
  }

  private callFunction(step: Step, inputs: readonly (Value | undefined)[]): (Value | undefined)[] {
    const fn = step.fn!;
    let body = this.expansions.get(step.node);
    if (!body) {
      const opsets = opsetMapOf(fn.opsetImport, this.opsets);
      const nodes = fn.node.map((n) => substituteAttributes(n, step.node, fn));
      body = this.prepare(nodes, fn.input.slice(), fn.output.slice(), new Map(), opsets);
      this.expansions.set(step.node, body);
    }
    // A function body sees only its own inputs: a fresh scope without parent.
    return this.runNested(
      this.execBody(
        body,
        fn.input.map((_, i) => inputs[i]),
        new Scope(),
      ),
    );
  }

  private checkGuards(): void {
    if (this.options.signal?.aborted || this.options.isCancelled?.()) throw new GuardError("the run was cancelled");
    const limit = this.options.timeoutMs;
    if (limit !== undefined && Date.now() - this.startedAt > limit) throw new GuardError(`the run took longer than ${limit} ms`);
  }

  private memoryCap(): number {
    return this.options.maxMemoryBytes ?? DEFAULT_MEMORY;
  }

  private checkMemory(heldBytes = 0): void {
    const cap = this.memoryCap();
    if (this.liveBytes + heldBytes > cap) throw new GuardError(`the run needs more than ${formatBytes(cap)} of memory (the limit)`);
  }
}

/**
 * Older test data stores bfloat16 and float16 tensors as uint16 bit patterns; a fed value of
 * that kind is relabelled to the declared element type.
 */
function asDeclared(v: Value, type: TypeProto | undefined): Value {
  if (v.kind !== "tensor" || type?.value.case !== "tensorType") return v;
  const want = type.value.value.elemType;
  if (v.dtype === DT.UINT16 && (want === DT.BFLOAT16 || want === DT.FLOAT16)) return tensor(want, v.dims, v.data);
  return v;
}

/** Replaces attribute references (`attr = @name`) in a function body node by the caller's values. */
function substituteAttributes(n: NodeProto, caller: NodeProto, fn: FunctionProto): NodeProto {
  if (!n.attribute.some((a) => a.refAttrName || a.g || a.graphs.length)) return n;
  const attrs: AttributeProto[] = [];
  for (const a of n.attribute) {
    if (a.refAttrName) {
      const given = caller.attribute.find((c) => c.name === a.refAttrName) ?? fn.attributeProto.find((d) => d.name === a.refAttrName);
      if (given) attrs.push(create(AttributeProtoSchema, { ...given, name: a.name }));
    } else if (a.g) {
      const g = a.g;
      attrs.push(create(AttributeProtoSchema, { ...a, g: { ...g, node: g.node.map((x) => substituteAttributes(x, caller, fn)) } as GraphProto }));
    } else attrs.push(a);
  }
  return create(NodeProtoSchema, { ...n, attribute: attrs });
}

function nodeLabel(node: NodeProto): string {
  return node.name ? `${node.name} (${node.opType})` : node.opType;
}

function wrapError(e: unknown, node: NodeProto, inputs: readonly (Value | undefined)[] | undefined): InterpError {
  if (e instanceof GuardError) return e;
  if (e instanceof InterpError) return new InterpError(e.message, [nodeLabel(node), ...e.nodePath]);
  if (e instanceof OnnxtxtError) return new InterpError(e.message, [nodeLabel(node)]);
  // The last guard: JavaScript's own messages (typed array lengths, string lengths, stack
  // depth, a kernel reading past its input) say nothing to someone looking at a model.
  const given = inputs ? ` for the inputs ${inputs.map((v) => (v ? typeLabel(v) : "(none)")).join(", ")}` : "";
  if (e instanceof RangeError && /allocation failed/i.test(e.message)) {
    return new GuardError(`out of memory: ${node.opType} could not allocate its outputs${given}`, [nodeLabel(node)]);
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new InterpError(`${node.opType} cannot be computed${given}: it nests too deeply`, [nodeLabel(node)]);
  }
  if (e instanceof RangeError) return new InterpError(`${node.opType} cannot be computed${given}: a size, count or length is out of range`, [nodeLabel(node)]);
  if (e instanceof TypeError) {
    return new InterpError(`${node.opType} cannot be computed${given} (the interpreter's kernel failed: please report it)`, [nodeLabel(node)]);
  }
  return new InterpError(describeError(e), [nodeLabel(node)]);
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return `${(n / 1024 ** 2).toFixed(0)} MiB`;
}

/** Runs a model once: convenience for tests and one-shot callers. */
export function runModel(model: ModelProto, feeds: ReadonlyMap<string, Value>, options: RunOptions = {}): Map<string, Value> {
  return new Interpreter(model, options).run(feeds);
}

/** The full message of an InterpError, with the node path. */
export function describeRunError(e: unknown): string {
  if (e instanceof InterpError && e.nodePath.length > 0) return `node ${e.nodePath.join(" > ")}: ${e.message}`;
  return describeError(e);
}
