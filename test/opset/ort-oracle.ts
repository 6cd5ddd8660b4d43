// onnxruntime-node as a second oracle for converted models: a model runs on the node test's
// first data set and its outputs are compared with the expected ones. A model onnxruntime cannot
// load or run (an opset or type it does not support) is "unsupported", not a difference.
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeValue, valueKindOf } from "../../core/src/io/index.js";
import { compareValues, valueFromProto, type Tolerance, type Value } from "../../core/src/interp/index.js";
import { runWithOrt } from "../../core/src/interp/ort-backend.js";
import type { ModelProto } from "../../proto/src/index.js";

export type OrtVerdict = "equal" | "differs" | "unsupported";

export async function ortVerdict(model: ModelProto, dir: string, tol: Tolerance): Promise<OrtVerdict> {
  const graph = model.graph!;
  const set = path.join(dir, "test_data_set_0");
  if (!fs.existsSync(set)) return "unsupported";
  const inputs = graph.input.filter((v) => !graph.initializer.some((t) => t.name === v.name));
  const feeds = new Map<string, Value>();
  inputs.forEach((vi, i) => {
    const f = path.join(set, `input_${i}.pb`);
    if (fs.existsSync(f)) feeds.set(vi.name, valueFromProto(decodeValue(fs.readFileSync(f), valueKindOf(vi.type))));
  });
  let outputs: Map<string, Value>;
  try {
    outputs = await runWithOrt(model, feeds);
  } catch {
    return "unsupported";
  }
  for (let i = 0; i < graph.output.length; i++) {
    const f = path.join(set, `output_${i}.pb`);
    if (!fs.existsSync(f)) continue;
    const out = graph.output[i]!;
    const expected = valueFromProto(decodeValue(fs.readFileSync(f), valueKindOf(out.type)));
    if (compareValues(outputs.get(out.name), expected, tol)) return "differs";
  }
  return "equal";
}
