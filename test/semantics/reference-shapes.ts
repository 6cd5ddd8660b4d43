// Runs onnx's reference shape inference (Debian's python3-onnx) through
// test/semantics/py/reference_shapes.py and compares its answers with ours.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeModel } from "../../core/src/io/index.js";
import { inferModel, isTensor, type ValueType } from "../../core/src/infer/index.js";
import { REPO } from "../helpers/paths.js";

export interface RefValue {
  elem: number;
  rank: number | null;
  dims: (number | string | null)[] | null;
}
export type RefModel = { opset: number; values: Record<string, RefValue> } | { error: string };

/** The highest ai.onnx opset that Debian's onnx 1.12 knows. */
export const REFERENCE_MAX_OPSET = 17;

export function referenceShapes(models: readonly string[]): Record<string, RefModel> {
  const script = path.join(REPO, "test/semantics/py/reference_shapes.py");
  const r = spawnSync("/usr/bin/python3", [script], { input: models.join("\n"), encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`reference shape inference failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, RefModel>;
}

/** Why our type disagrees with the reference, or undefined when it agrees. */
export function disagreement(ours: ValueType | undefined, ref: RefValue): string | undefined {
  if (!isTensor(ours)) return "no tensor type inferred";
  if (ours.elem !== ref.elem) return `element type ${ours.elem}, reference ${ref.elem}`;
  if (ref.rank === null || ref.dims === null) return undefined;
  if (!ours.shape) return `rank unknown, reference ${ref.rank}`;
  if (ours.shape.length !== ref.rank) return `rank ${ours.shape.length}, reference ${ref.rank}`;
  for (let i = 0; i < ref.rank; i++) {
    const r = ref.dims[i];
    if (typeof r === "number" && ours.shape[i] !== r) return `dim ${i} is ${ours.shape[i] ?? "?"}, reference ${r}`;
  }
  return undefined;
}

export interface Agreement {
  compared: number;
  agreed: number;
  /** Values of models whose opset the reference does not know. */
  beyondReference: number;
  failures: string[];
}

export function compareWithReference(models: readonly string[]): Agreement {
  const ref = referenceShapes(models);
  const result: Agreement = { compared: 0, agreed: 0, beyondReference: 0, failures: [] };
  for (const file of models) {
    const r = ref[file];
    if (!r || "error" in r) continue;
    const entries = Object.entries(r.values);
    if (r.opset > REFERENCE_MAX_OPSET) {
      result.beyondReference += entries.length;
      continue;
    }
    // Like the reference run, ours sees no declared output or intermediate types.
    const model = decodeModel(fs.readFileSync(file));
    for (const o of model.graph!.output) o.type = undefined;
    model.graph!.valueInfo = [];
    const ours = inferModel(model).inferred;
    for (const [name, value] of entries) {
      result.compared++;
      const why = disagreement(ours.get(name), value);
      if (why === undefined) result.agreed++;
      else result.failures.push(`${path.relative(path.dirname(path.dirname(path.dirname(file))), file)} '${name}': ${why}`);
    }
  }
  return result;
}
