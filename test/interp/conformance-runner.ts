// Runs one test folder (model.onnx + test_data_set_*/input_N.pb, output_N.pb) in-process.
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeModel, decodeValue, inlineExternalData, valueKindOf } from "../../core/src/io/index.js";
import { readDataRange } from "../../core/src/io/data-files.js";
import { Interpreter, compareValues, describeRunError, valueFromProto, type Registry, type Tolerance, type Value } from "../../core/src/interp/index.js";
import type { ModelProto } from "../../proto/src/index.js";

export interface CaseResult {
  dir: string;
  ok: boolean;
  message?: string;
}

/** Rewrites the model and picks the registry a case runs with (e.g. the fast kernels). */
export type CaseSetup = (model: ModelProto) => { model: ModelProto; registry?: Registry | undefined };

export function runCase(dir: string, tol: Tolerance, setup?: CaseSetup): CaseResult {
  try {
    const original = decodeModel(fs.readFileSync(path.join(dir, "model.onnx")));
    inlineExternalData(original, dir, readDataRange(dir));
    const prepared = setup?.(original) ?? { model: original };
    const model = prepared.model;
    const interp = new Interpreter(model, { maxLoopIterations: 100000, timeoutMs: 60000, ...(prepared.registry ? { registry: prepared.registry } : {}) });
    const graph = model.graph!;
    const inputs = graph.input.filter((v) => !graph.initializer.some((t) => t.name === v.name));
    const sets = fs
      .readdirSync(dir)
      .filter((d) => d.startsWith("test_data_set_"))
      .sort();
    if (sets.length === 0) return { dir, ok: false, message: "no test data sets" };
    for (const set of sets) {
      const sdir = path.join(dir, set);
      const feeds = new Map<string, Value>();
      inputs.forEach((vi, i) => {
        const f = path.join(sdir, `input_${i}.pb`);
        if (fs.existsSync(f)) feeds.set(vi.name, valueFromProto(decodeValue(fs.readFileSync(f), valueKindOf(vi.type))));
      });
      const result = interp.run(feeds);
      for (let i = 0; i < graph.output.length; i++) {
        const f = path.join(sdir, `output_${i}.pb`);
        if (!fs.existsSync(f)) continue;
        const out = graph.output[i]!;
        const expected = valueFromProto(decodeValue(fs.readFileSync(f), valueKindOf(out.type)));
        const diff = compareValues(result.get(out.name), expected, tol);
        if (diff) return { dir, ok: false, message: `${set} output '${out.name}': ${diff}` };
      }
    }
    return { dir, ok: true };
  } catch (e) {
    return { dir, ok: false, message: describeRunError(e) };
  }
}
