// One differential case: a node test converted to a target opset, checked with our checker,
// run with our interpreter on the test's inputs and compared with the test's expected outputs.
import * as fs from "node:fs";
import * as path from "node:path";
import { checkModel } from "../../core/src/check/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { DEFAULT_TOLERANCE, type Tolerance } from "../../core/src/interp/index.js";
import { convertOpset } from "../../core/src/opset/index.js";
import type { ModelProto } from "../../proto/src/index.js";
import { runCase } from "../interp/conformance-runner.js";

export type Verdict = { kind: "equal"; model: ModelProto } | { kind: "refused"; reason: string } | { kind: "wrong"; reason: string } | { kind: "same-opset" };

export function modelOpset(model: ModelProto): number | undefined {
  const o = model.opsetImport.find((x) => x.domain === "" || x.domain === "ai.onnx");
  return o === undefined ? undefined : Number(o.version);
}

export function readModel(dir: string): ModelProto {
  return decodeModel(fs.readFileSync(path.join(dir, "model.onnx")));
}

export function convertCase(dir: string, target: number, tol: Tolerance = DEFAULT_TOLERANCE, from?: ModelProto): Verdict {
  const model = from ?? readModel(dir);
  if (modelOpset(model) === target) return { kind: "same-opset" };
  const conv = convertOpset(model, target);
  if (conv.refused.length > 0) return { kind: "refused", reason: conv.refused[0]!.reason };
  const errors = checkModel(conv.model).filter((d) => d.severity === "error");
  if (errors.length > 0) return { kind: "wrong", reason: `check: ${errors[0]!.message}` };
  const r = runCase(dir, tol, () => ({ model: conv.model }));
  return r.ok ? { kind: "equal", model: conv.model } : { kind: "wrong", reason: r.message ?? "differs" };
}
