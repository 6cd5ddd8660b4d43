// The differential test of opset conversion: every node test and libonnx-testdata model (a
// sample by default, all with ONNXTXT_FULL_DIFFERENTIAL=1) converted to other opsets, checked, run with the interpreter on
// the test's inputs and compared with the expected outputs. A conversion either gives the same
// outputs or is refused with a reason; "wrong" must stay 0.
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { runCase } from "../interp/conformance-runner.js";
import { LIBONNX_EXPECTED_FAILURES, NODE_TESTS_EXPECTED_FAILURES, TOLERANCE_OVERRIDES, type ExpectedFailureGroup } from "../interp/expected-failures.js";
import { DEFAULT_TOLERANCE } from "../../core/src/interp/index.js";
import { LIBONNX_DATA, libonnxModelDirs, NODE_TESTS, nodeTestDirs } from "../helpers/paths.js";
import { convertCase, modelOpset, readModel } from "./differential-runner.js";
import { ortVerdict } from "./ort-oracle.js";

const FULL = process.env.ONNXTXT_FULL_DIFFERENTIAL === "1";
/** onnxruntime-node as a second oracle (slow: one session per converted model); on in the full run unless ONNXTXT_OPSET_ORT=0. */
const ORT = process.env.ONNXTXT_OPSET_ORT === "1" || (FULL && process.env.ONNXTXT_OPSET_ORT !== "0");
const NEWEST = 28;

function targets(own: number): number[] {
  if (FULL) return Array.from({ length: NEWEST - 6 }, (_, i) => i + 7).filter((t) => t !== own);
  return [7, 11, 13, NEWEST].filter((t) => t !== own);
}

interface Corpus {
  readonly label: string;
  readonly root: string;
  readonly dirs: () => string[];
  readonly failing: readonly ExpectedFailureGroup[];
  /** Every how-many-th model the default run takes. */
  readonly sample: number;
}

const CORPORA: readonly Corpus[] = [
  { label: "node tests", root: NODE_TESTS, dirs: nodeTestDirs, failing: NODE_TESTS_EXPECTED_FAILURES, sample: 25 },
  { label: "libonnx-testdata models", root: LIBONNX_DATA, dirs: libonnxModelDirs, failing: LIBONNX_EXPECTED_FAILURES, sample: 40 },
];

async function differential(corpus: Corpus): Promise<string[]> {
  const failing = new Set(corpus.failing.flatMap((g) => g.tests));
  const all = corpus.dirs().filter((d) => !failing.has(path.relative(corpus.root, d)));
  const dirs = FULL ? all : all.filter((_, i) => i % corpus.sample === 0);
  const counts = { equal: 0, refused: 0, wrong: 0 };
  const back = { equal: 0, refused: 0 };
  const ort = { equal: 0, unsupported: 0, skipped: 0 };
  const wrong: string[] = [];
  const reasons = new Map<string, number>();
  for (const dir of dirs) {
    const name = path.relative(corpus.root, dir);
    const tol = TOLERANCE_OVERRIDES[name] ?? DEFAULT_TOLERANCE;
    if (!runCase(dir, tol).ok) continue; // the interpreter's own failures are the conformance test's business
    const original = readModel(dir);
    const own = modelOpset(original) ?? NEWEST;
    // onnxruntime judges converted models only where it gives the expected outputs for the original.
    const ortTrusted = ORT && (await ortVerdict(original, dir, tol)) === "equal";
    for (const t of targets(own)) {
      const v = convertCase(dir, t, tol);
      if (v.kind === "same-opset") continue;
      if (v.kind === "equal" && ORT) {
        if (!ortTrusted) ort.skipped++;
        else {
          const o = await ortVerdict(v.model, dir, tol);
          if (o === "differs") {
            counts.wrong++;
            wrong.push(`${name} ${own} -> ${t}: onnxruntime's outputs differ from the expected ones`);
            continue;
          }
          ort[o]++;
        }
      }
      counts[v.kind]++;
      if (v.kind === "equal" && t < own) {
        // Down and back up again: exercises the upward adapters from every older opset.
        const b = convertCase(dir, own, tol, v.model);
        if (b.kind === "wrong") wrong.push(`${name} ${own} -> ${t} -> ${own}: ${b.reason}`);
        else if (b.kind === "equal" || b.kind === "refused") back[b.kind]++;
      }
      if (v.kind === "wrong") wrong.push(`${name} ${own} -> ${t}: ${v.reason}`);
      if (v.kind === "refused") {
        const key = v.reason.replace(/'[^']*'/g, "'…'");
        reasons.set(key, (reasons.get(key) ?? 0) + 1);
      }
    }
  }
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, FULL ? 40 : 8);
  console.log(`      ${dirs.length} ${corpus.label}: converted and equal ${counts.equal}, refused with a reason ${counts.refused}, wrong ${counts.wrong}`);
  console.log(`      down and back up to the model's own opset: equal ${back.equal}, refused ${back.refused}`);
  if (ORT)
    console.log(
      `      onnxruntime on the converted-and-equal ones: equal ${ort.equal}, cannot run them ${ort.unsupported}, original not matched by onnxruntime ${ort.skipped}`,
    );
  for (const [r, n] of top) console.log(`        refused ${n}x: ${r}`);
  return wrong;
}

describe("opset conversion: differential over the node tests and libonnx-testdata", function () {
  this.timeout(FULL ? 3_600_000 : 120_000);
  for (const corpus of CORPORA) {
    it(`${corpus.label}: the expected outputs or a refusal with a reason (wrong = 0)`, async () => {
      assert.deepEqual(await differential(corpus), []);
    });
  }
});
