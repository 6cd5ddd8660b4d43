// The graph view's diff mode (core/src/graph/diff-marks.ts): the boxes a diff touches are
// marked on B's drawing by the display ids its places carry, and nothing else is; the SVG
// colours them and dims the rest; a drawing without marks is as it was.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { diffMarks, displayGraph } from "../../core/src/graph/index.js";
import { decodeModel, diffModels, type ModelProto } from "../../core/src/index.js";
import { LIGHT, NODE_TESTS } from "../helpers/paths.js";
import { bumpIntsAttribute, changeThenBranch, insertIdentity, renameAll } from "../diff/pairs.js";
import type { DisplayGraph, DisplayNode } from "../../core/src/graph/display-graph.js";

const resnet = (): ModelProto => decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx")));

function all(g: DisplayGraph): DisplayNode[] {
  return g.nodes.flatMap((n) => [n, ...n.groups.flatMap(all)]);
}

function marked(a: ModelProto, b: ModelProto): DisplayNode[] {
  const { marks } = diffMarks(diffModels(a, b, { canonicalPlacesUpTo: 0 }), b);
  return all(displayGraph(b, { marks })).filter((n) => n.diff);
}

describe("graph view: diff mode", () => {
  it("one changed attribute marks exactly that Conv box", () => {
    const a = resnet();
    const { model: b, node } = bumpIntsAttribute(a, "Conv");
    const boxes = marked(a, b);
    assert.deepEqual(
      boxes.map((n) => [n.label, n.name, n.diff!.kind]),
      [["Conv", node, "changed"]],
    );
  });

  it("an inserted node is marked added, and all values renamed mark nothing with --ignore-names", () => {
    const a = resnet();
    const { model: b, output } = insertIdentity(a, "Relu");
    const boxes = marked(a, b);
    assert.deepEqual(
      boxes.map((n) => [n.label, n.diff!.kind]),
      [["Identity", "added"]],
    );
    assert.match(boxes[0]!.diff!.messages[0]!, new RegExp(`node added: ${output} = Identity`));
    const renamed = renameAll(a).model;
    const { marks } = diffMarks(diffModels(a, renamed, { canonicalPlacesUpTo: 0, ignoreNames: true }), renamed);
    assert.equal(marks.size, 0);
  });

  it("a change inside an If branch marks the box in the branch's group", () => {
    const a = decodeModel(fs.readFileSync(path.join(NODE_TESTS, "test_if/model.onnx")));
    const b = changeThenBranch(a);
    const boxes = marked(a, b);
    assert.equal(boxes.length, 1);
    assert.match(boxes[0]!.id, /^main\/n0\/then_branch\//);
  });
});
