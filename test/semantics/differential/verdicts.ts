// The recorded onnx verdicts (test/semantics/data/onnx-verdicts.json, made by record-verdicts.ts)
// and the model set they are about: every onnx node-test model, plus its seven mutants.
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeModel } from "../../../core/src/io/index.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { LIBONNX_DATA, libonnxModelDirs, NODE_TESTS, REPO, requireDir } from "../../helpers/paths.js";
import { MUTATION_KINDS, mutate } from "./mutate.js";

export const VERDICTS_FILE = path.join(REPO, "test/semantics/data/onnx-verdicts.json");

/**
 * Per model, one letter for the original and one per mutation kind, in MUTATION_KINDS order:
 * V onnx accepts, R onnx rejects, ? beyond the opsets the recording onnx knows, - no mutant.
 */
export interface RecordedVerdicts {
  readonly onnx: string;
  readonly kinds: readonly string[];
  readonly verdicts: Record<string, string>;
  /** The same letters for the libonnx-testdata models, by path below its data folder. */
  readonly libonnx: Record<string, string>;
  /** Verdicts on the models of hand-made.ts: V, ?, or R and onnx's message. */
  readonly handMade: Record<string, string>;
  /** Why onnx rejects an original (valid by construction for onnx 1.23.1). */
  readonly rejectedOriginals: Record<string, string>;
  /**
   * Per model: what infer_shapes(data_prop=True) gives the main graph's node outputs, in node
   * order (see producedNames), `ELEM:DIMS` joined by `;`, empty where it gives nothing.
   */
  readonly shapes: Record<string, string>;
  /** Models whose shape inference failed in the recording onnx, with its message. */
  readonly shapeErrors: Record<string, string>;
}

export function readVerdicts(): RecordedVerdicts {
  return JSON.parse(fs.readFileSync(VERDICTS_FILE, "utf8")) as RecordedVerdicts;
}

export function nodeTestNames(): string[] {
  return fs
    .readdirSync(requireDir(NODE_TESTS, "../shared/onnx/node-tests"))
    .filter((d) => fs.existsSync(path.join(NODE_TESTS, d, "model.onnx")))
    .sort();
}

/** libonnx-testdata models by their folder below its data folder (`node/test_abs`), sorted. */
export function libonnxModels(): Map<string, string> {
  return new Map(libonnxModelDirs().map((d) => [path.relative(LIBONNX_DATA, d), path.join(d, "model.onnx")]));
}

export function loadNodeTest(name: string): ModelProto {
  return decodeModel(fs.readFileSync(path.join(NODE_TESTS, name, "model.onnx")));
}

/** The original and its mutants, in the order of the verdict letters. */
export function modelSet(original: ModelProto): (ModelProto | undefined)[] {
  return [original, ...MUTATION_KINDS.map((k) => mutate(original, k))];
}

/** The main graph's node outputs in node order: what a model's `shapes` entry lists. */
export function producedNames(model: ModelProto): string[] {
  return model.graph!.node.flatMap((n) => n.output.filter((o) => o !== ""));
}
