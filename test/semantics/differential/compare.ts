// The differential comparisons themselves, shared by the sampled run in `npm test` and the full
// one (`npm run test:differential`).
import * as fs from "node:fs";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { checkModel } from "../../../core/src/check/index.js";
import { inferModel, isTensor, tensor, toTypeProto, type ValueType } from "../../../core/src/infer/index.js";
import { decodeValue, valueKindOf } from "../../../core/src/io/index.js";
import { Interpreter, valueFromProto, type Value } from "../../../core/src/interp/index.js";
import { ValueInfoProtoSchema, type ModelProto } from "../../../proto/src/index.js";
import { NODE_TESTS } from "../../helpers/paths.js";
import { MUTATION_KINDS } from "./mutate.js";
import { modelSet, producedNames, type RecordedVerdicts } from "./verdicts.js";

/** Mutation kinds whose mutants are invalid whatever onnx version judges them. */
const INVALID_BY_CONSTRUCTION = new Set<string>([
  "drop-required-attribute",
  "extra-input",
  "undefined-input",
  "duplicate-output",
  "op-below-first-opset",
  "opset-zero",
]);

export interface CheckTally {
  /** Mutants onnx rejects (recorded, or invalid by construction beyond its opsets). */
  rejectedByOnnx: number;
  missed: string[];
  /** Mutants onnx accepts that we reject (with our first error). */
  stricter: string[];
  /** Mutants with no verdict (wrong-input-type beyond the recording onnx's opsets). */
  unjudged: number;
  /** Letters that no longer match which mutants exist: the data is stale. */
  stale: string[];
}

function firstError(m: ModelProto): string | undefined {
  const e = checkModel(m, { errorsOnly: true })[0];
  return e && `${e.message} [${e.code}]`;
}

/** One model to compare: its name, a way to load it, its recorded letters. */
export interface Compared {
  readonly name: string;
  load(): ModelProto;
  readonly letters: string | undefined;
}

export function compareChecks(models: readonly Compared[], kinds: readonly string[]): CheckTally {
  const t: CheckTally = { rejectedByOnnx: 0, missed: [], stricter: [], unjudged: 0, stale: [] };
  for (const { name, load, letters } of models) {
    const set = modelSet(load());
    if (!letters || letters.length !== set.length) {
      t.stale.push(name);
      continue;
    }
    set.forEach((m, k) => {
      if (k === 0) return; // originals: valid by construction, see the run-time value_info test
      const letter = letters[k]!;
      if ((letter === "-") !== (m === undefined)) t.stale.push(`${name} ${kinds[k]}`);
      if (!m) return;
      const kind = MUTATION_KINDS[k - 1]!;
      const onnxRejects = letter === "R" || (letter === "?" && INVALID_BY_CONSTRUCTION.has(kind));
      if (letter === "?" && !onnxRejects) {
        t.unjudged++;
        return;
      }
      const ours = firstError(m);
      if (onnxRejects) {
        t.rejectedByOnnx++;
        if (!ours) t.missed.push(`${name} ${kind}`);
      } else if (ours) t.stricter.push(`${name} ${kind}: ${ours}`);
    });
  }
  return t;
}

/** Runs a node test's first data set in the interpreter; the tensor outputs of every main-graph node. */
export function runTimeTypes(name: string, model: ModelProto, root = NODE_TESTS): Map<string, ValueType> | undefined {
  const dir = path.join(root, name);
  const g = model.graph!;
  const found = new Map<string, ValueType>();
  try {
    const interp = new Interpreter(model, {
      maxLoopIterations: 100_000,
      timeoutMs: 10_000,
      onNode: (node, outs) =>
        node.output.forEach((o, i) => {
          const v = outs[i];
          if (o && v?.kind === "tensor") found.set(o, tensor(v.dtype, [...v.dims]));
        }),
    });
    const feeds = new Map<string, Value>();
    const initializers = new Set(g.initializer.map((t) => t.name));
    g.input
      .filter((vi) => !initializers.has(vi.name))
      .forEach((vi, i) => {
        const f = path.join(dir, "test_data_set_0", `input_${i}.pb`);
        if (fs.existsSync(f)) feeds.set(vi.name, valueFromProto(decodeValue(fs.readFileSync(f), valueKindOf(vi.type))));
      });
    interp.run(feeds);
  } catch {
    return undefined;
  }
  return found;
}

/** The model with a value_info for every intermediate value, as a run found it. */
export function withRunTimeValueInfo(model: ModelProto, types: ReadonlyMap<string, ValueType>): ModelProto {
  const g = model.graph!;
  const outputs = new Set(g.output.map((o) => o.name));
  for (const [name, t] of types) if (!outputs.has(name)) g.valueInfo.push(create(ValueInfoProtoSchema, { name, type: toTypeProto(t) }));
  return model;
}

/** Why our type of a value disagrees with a recorded `ELEM:DIMS`, or undefined when it agrees. */
export function disagreement(ours: ValueType | undefined, recorded: string): string | undefined {
  const [elemText, dimsText] = recorded.split(":") as [string, string];
  if (!isTensor(ours)) return "we infer no tensor type";
  if (ours.elem !== Number(elemText)) return `element type ${ours.elem}, onnx ${elemText}`;
  if (dimsText === "*" || !ours.shape) return undefined; // one side does not know the rank
  const dims = dimsText === "" ? [] : dimsText.split(",");
  if (ours.shape.length !== dims.length) return `rank ${ours.shape.length}, onnx ${dims.length}`;
  for (let i = 0; i < dims.length; i++) {
    const d = ours.shape[i];
    if (/^\d+$/.test(dims[i]!) && typeof d === "number" && d !== Number(dims[i])) return `dim ${i} is ${d}, onnx ${dims[i]}`;
  }
  return undefined;
}

/** Our inference of a model as onnx's recording saw it: no declared output or intermediate types. */
export function inferUndeclared(model: ModelProto): ReadonlyMap<string, ValueType> {
  for (const o of model.graph!.output) o.type = undefined;
  model.graph!.valueInfo = [];
  return inferModel(model).inferred;
}

export function recordedShapes(name: string, model: ModelProto, data: RecordedVerdicts): Map<string, string> {
  const entry = data.shapes[name];
  const out = new Map<string, string>();
  if (!entry) return out;
  const values = entry.split(";");
  producedNames(model).forEach((v, i) => {
    if (values[i]) out.set(v, values[i]!);
  });
  return out;
}
