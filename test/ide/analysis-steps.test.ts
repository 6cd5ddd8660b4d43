// The analysis in steps (core/src/ide/analyze.ts): after the parse, lowering, inference and the
// checks each pause every NODES_PER_STEP nodes of the main graph, so that a language server
// reads and answers requests on a big document while they run (not only between them), and the
// result is the one the analysis run through at once gives.
import * as assert from "node:assert/strict";
import { largeDocument } from "../../bench/lsp-document.js";
import { NODES_PER_STEP } from "../../grammar/src/steps.js";
import { analyze, analyzeSteps } from "../../core/src/ide/analyze.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { checkModel, checkModelSteps } from "../../core/src/check/index.js";
import { inferModel, inferModelSteps } from "../../core/src/infer/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { printModel } from "../../core/src/print-model.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { LIGHT } from "../helpers/paths.js";
import { drive } from "../helpers/drive-steps.js";

describe("ide: the analysis in steps", function () {
  this.timeout(120_000);
  const nodes = 20_000;
  const text = largeDocument(nodes);
  // At least a pause every 2,000 nodes in each stage: a few milliseconds of work between two.
  const perStage = Math.floor(nodes / 2000);

  it("pauses within lowering, inference and the checks of a 20k-node document, not only between them", () => {
    const steps = analyzeSteps(text);
    let early: Analysis | undefined;
    let after = 0;
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) {
        assert.ok(early, "no early snapshot");
        assert.equal(r.value.complete, true);
        // In each stage, and between the stages.
        assert.ok(after >= 3 * perStage + 1, `${after} pauses after the parse; at least ${3 * perStage + 1} expected`);
        assert.deepEqual(r.value.diagnostics, analyze(text).diagnostics);
        return;
      }
      if (r.value && !early) early = r.value;
      else if (early) after++;
    }
  });

  it("infers and checks in steps what inferModel and checkModel find at once, on real networks", () => {
    for (const name of ["light_densenet121.onnx", "light_resnet50.onnx"]) {
      // Printed and read back, as the editor has them: with a source map, so diagnostics have places.
      const { model, sourceMap } = modelFromText(printModel(decodeModel(fs.readFileSync(path.join(LIGHT, name)))));
      assert.ok(model && sourceMap, name);
      const inferred = drive(inferModelSteps(model, { sourceMap }));
      assert.deepEqual(inferred.result.diagnostics, inferModel(model, { sourceMap }).diagnostics, name);
      assert.deepEqual([...inferred.result.types], [...inferModel(model, { sourceMap }).types], name);
      assert.equal(inferred.pauses, Math.floor(model.graph!.node.length / NODES_PER_STEP), name);
      const checked = drive(checkModelSteps(model, { sourceMap }));
      assert.deepEqual(checked.result, checkModel(model, { sourceMap }), name);
    }
  });
});
