// The pairs of issue 37's "Must show": each made from a real network or a node test with one
// known change, and the diff must report exactly that change and nothing else. The oracle for
// the opset bump, the inferred model and the perturbed weights is onnx and numpy
// (make-pairs.py); the other changes are written in pairs.ts.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  decodeModel,
  diffModels,
  inferModel,
  modelFromText,
  printModel,
  withInferredTypes,
  type Change,
  type DiffSide,
  type ModelDiff,
  type ModelProto,
} from "../../core/src/index.js";
import { LIGHT, NODE_TESTS, REPO } from "../helpers/paths.js";
import { bumpIntsAttribute, changeThenBranch, insertIdentity, renameAll, swapIndependent } from "./pairs.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const load = (file: string): ModelProto => decodeModel(fs.readFileSync(file));
const resnet = (): ModelProto => load(path.join(LIGHT, "light_resnet50.onnx"));

/** The model as text read back, with its source map: places get lines. */
function asText(model: ModelProto): DiffSide {
  const text = printModel(model);
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("\n"));
  return { model: r.model, text, sourceMap: r.sourceMap };
}

const kinds = (d: ModelDiff): string[] => [...new Set(d.changes.map((c) => c.kind))].sort();
const show = (d: ModelDiff): string => d.changes.map((c: Change) => `${c.kind}: ${c.message}`).join("\n");

describe("onnxtxt diff: the must-show pairs", () => {
  it("all values of ResNet-50 renamed: renames only, one per value; --ignore-names: equal", () => {
    const a = resnet();
    const { model: b, names } = renameAll(a);
    const renamed = names.size;
    const d = diffModels(a, b);
    assert.deepEqual(kinds(d), ["value-renamed"], show(d));
    // every value paired with its renamed self
    assert.deepEqual(new Map(d.changes.map((c) => [c.from!, c.to!])), names);
    assert.equal(diffModels(a, b, { ignoreNames: true }).equal, true);
    // as text on both sides too, with lines
    const t = diffModels(asText(a), asText(b));
    assert.equal(t.changes.length, renamed);
    assert.ok(t.changes.every((c) => c.a?.line !== undefined && c.b?.line !== undefined));
  });

  it("two independent nodes of ResNet-50 swapped: one move and nothing else", () => {
    const a = resnet();
    const { model: b, ops } = swapIndependent(a);
    const d = diffModels(a, b);
    assert.deepEqual(kinds(d), ["node-moved"], show(d));
    assert.equal(d.changes.length, 1);
    assert.ok(
      ops.some((op) => d.changes[0]!.message.includes(op)),
      show(d),
    );
  });

  it("one attribute changed: that node, that attribute, old and new values", () => {
    const a = resnet();
    const { model: b, node, attribute, from, to } = bumpIntsAttribute(a, "Conv");
    const d = diffModels(a, b);
    assert.equal(d.changes.length, 1, show(d));
    const c = d.changes[0]!;
    assert.equal(c.kind, "node-changed");
    assert.deepEqual(c.details, [`attribute ${attribute}: ${from} -> ${to}`]);
    assert.ok(c.message.includes(`"${node}"`));
    // places in the binary models' canonical texts: the line holds the node
    const line = (model: ModelProto, n: number) => printModel(model).split("\n")[n - 1]!;
    assert.ok(line(a, c.a!.line!).includes(`[${node}]`), line(a, c.a!.line!));
    assert.ok(line(b, c.b!.line!).includes(`${attribute} = ${to}`), line(b, c.b!.line!));
  });

  it("a node inserted in the middle: one added node, its consumers not reported again", () => {
    const a = resnet();
    const { model: b, output, consumers } = insertIdentity(a, "Relu");
    assert.ok(consumers > 0);
    const d = diffModels(a, b);
    assert.deepEqual(kinds(d), ["node-added"], show(d));
    assert.equal(d.changes.length, 1);
    assert.match(d.changes[0]!.message, new RegExp(`node added: ${output} = Identity .* \\(inserted before `));
  });

  it("a model and onnxtxt's own infer output: only value infos added, one per intermediate value", () => {
    const a = resnet();
    const b = withInferredTypes(a, inferModel(a));
    const d = diffModels(a, b);
    assert.deepEqual(kinds(d), ["value-info-added"], show(d));
    const produced = new Set(a.graph!.node.flatMap((n) => n.output));
    for (const o of a.graph!.output) produced.delete(o.name);
    assert.equal(d.changes.length, produced.size);
  });

  it("a branch of an If changed: one change, inside then_branch", () => {
    const a = load(path.join(NODE_TESTS, "test_if/model.onnx"));
    const b = changeThenBranch(a);
    const d = diffModels(a, b);
    assert.equal(d.changes.length, 1, show(d));
    const c = d.changes[0]!;
    assert.equal(c.kind, "node-changed");
    assert.match(c.a!.path, /^main \/ node 0 \(If\) \/ then_branch \/ node 0 \(Constant\)$/);
    assert.equal(c.tensor?.differing, 1);
    assert.equal(c.tensor?.maxAbsDiff, 10);
  });

  describe("pairs made by onnx and numpy (make-pairs.py)", () => {
    let dir = "";
    let expected: {
      opset: { from: number; to: number; sameNodeCount: boolean; changedNodes: number[]; changedOps: string[] };
      infer: { valueInfosAdded: number };
      weights: { name: string; elements: number; differing: number; maxAbsDiff: number; maxRelDiff: number; atol: number; differingAtol: number };
    };
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-diff-pairs-"));
      const script = path.join(REPO, "test/diff/make-pairs.py");
      const r = spawnSync("/usr/bin/python3", [script, LIGHT, dir], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const pair = (name: string) => [load(path.join(dir, `${name}_a.onnx`)), load(path.join(dir, `${name}_b.onnx`))] as const;

    it("an opset bumped by onnx's version converter: the opset and the ops it changed", () => {
      const [a, b] = pair("opset");
      const e = expected.opset;
      assert.ok(e.sameNodeCount);
      const d = diffModels(a, b);
      const opset = d.changes.filter((c) => c.kind === "opset");
      assert.deepEqual(
        opset.map((c) => c.message),
        [`opset_import "" : ${e.from} -> ${e.to}`],
      );
      const nodes = d.changes.filter((c) => c.kind !== "opset");
      assert.ok(
        nodes.every((c) => c.kind === "node-changed"),
        show(d),
      );
      assert.deepEqual(
        nodes.map((c) => Number(/node (\d+)/.exec(c.a!.path)![1])),
        e.changedNodes,
      );
      assert.ok(e.changedOps.every((op, i) => nodes[i]!.message.startsWith(`node ${op}`)));
    });

    it("a model and onnx's shape inference of it: only value infos added", () => {
      const [a, b] = pair("infer");
      const d = diffModels(a, b);
      assert.deepEqual(kinds(d), ["value-info-added"], show(d));
      assert.equal(d.changes.length, expected.infer.valueInfosAdded);
    });

    it("one initializer perturbed: the counts and the largest differences numpy finds", () => {
      const [a, b] = pair("weights");
      const e = expected.weights;
      const d = diffModels(a, b);
      assert.equal(d.changes.length, 1, show(d));
      const c = d.changes[0]!;
      assert.equal(c.kind, "initializer-changed");
      assert.ok(c.message.includes(e.name));
      assert.equal(c.tensor!.elements, e.elements);
      assert.equal(c.tensor!.differing, e.differing);
      assert.equal(c.tensor!.maxAbsDiff, e.maxAbsDiff);
      assert.ok(Math.abs(c.tensor!.maxRelDiff - e.maxRelDiff) <= 1e-12 * e.maxRelDiff);
      const tolerant = diffModels(a, b, { atol: e.atol });
      assert.equal(tolerant.changes[0]!.tensor!.differing, e.differingAtol);
      assert.equal(diffModels(a, b, { ignoreWeights: true }).equal, true);
    });
  });

  it("every light network and node test against itself printed and read back: no difference", function () {
    this.timeout(600_000);
    const files = [
      ...fs
        .readdirSync(LIGHT)
        .filter((f) => f.endsWith(".onnx"))
        .map((f) => path.join(LIGHT, f)),
      ...fs
        .readdirSync(NODE_TESTS)
        .map((d) => path.join(NODE_TESTS, d, "model.onnx"))
        .filter((f) => fs.existsSync(f)),
    ];
    const failed: string[] = [];
    for (const file of files) {
      const model = load(file);
      const d = diffModels(model, asText(model), { canonicalPlacesUpTo: 0 });
      if (!d.equal) failed.push(`${path.relative(HERE, file)}: ${show(d).split("\n")[0]}`);
    }
    assert.deepEqual(failed, []);
  });
});
