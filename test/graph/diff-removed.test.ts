// The graph view's diff mode draws the nodes removed from the old model into the new model's
// drawing (core/src/graph/removed-boxes.ts): one box per removed node, with its op and name,
// wired to the boxes it read from and fed in the old model, and never folded away.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { compareModels } from "../../core/src/diff/index.js";
import { diffMarks, modelGraph, renderDot, type DisplayGraph, type DisplayNode } from "../../core/src/graph/index.js";
import { decodeModel, modelFromText, printModel, type ModelProto } from "../../core/src/index.js";
import { LIGHT } from "../helpers/paths.js";
import { copy } from "../diff/pairs.js";

interface Side {
  readonly model: ModelProto;
  readonly text: string;
  readonly sourceMap: NonNullable<ReturnType<typeof modelFromText>["sourceMap"]>;
}

function side(text: string): Side {
  const t = modelFromText(text);
  assert.ok(t.model && t.sourceMap, "the text reads back");
  return { model: t.model, text, sourceMap: t.sourceMap };
}

/** The middle node of `op` taken out, its readers reading its input instead. */
function removeMiddle(model: ModelProto, op: string): { model: ModelProto; input: string; output: string; name: string } {
  const out = copy(model);
  const g = out.graph!;
  const at = g.node.flatMap((n, i) => (n.opType === op ? [i] : []));
  const i = at[at.length >> 1]!;
  const [node] = g.node.splice(i, 1);
  const input = node!.input[0]!;
  const output = node!.output[0]!;
  for (const n of g.node) n.input = n.input.map((x) => (x === output ? input : x));
  return { model: out, input, output, name: node!.name };
}

/** The drawing of B in diff mode against A. */
function drawing(a: Side, b: Side): DisplayGraph {
  const { diff, removed } = compareModels(a, b, { canonicalPlacesUpTo: 0 });
  const marks = diffMarks(diff, b.model, removed);
  assert.deepEqual(marks.elsewhere, []);
  return modelGraph(b.model, { marks: marks.marks, removed: marks.removed }).graph;
}

const removedBoxes = (g: DisplayGraph): DisplayNode[] => g.nodes.filter((n) => n.diff?.kind === "removed");

describe("graph view: removed nodes drawn in diff mode", () => {
  const resnet = decodeModel(fs.readFileSync(path.join(LIGHT, "light_resnet50.onnx")));
  const a = side(printModel(resnet));

  it("a Relu taken out of ResNet-50 is one removed box between its old neighbours", () => {
    const cut = removeMiddle(a.model, "Relu");
    const b = side(printModel(cut.model));
    const g = drawing(a, b);
    const boxes = removedBoxes(g);
    assert.equal(boxes.length, 1);
    const box = boxes[0]!;
    assert.deepEqual([box.kind, box.label, box.name], ["op", "Relu", cut.name]);
    assert.match(box.diff!.messages[0]!, new RegExp(`^node removed: ${cut.output} = Relu \\(${cut.input}\\)`));
    // in: from the box that makes its input in B; out: to the boxes that read its output in A
    const nodes = b.model.graph!.node;
    const producer = `main/n${nodes.findIndex((n) => n.output.includes(cut.input))}`;
    const readers = nodes.flatMap((n, j) =>
      n.input.includes(cut.input) && a.model.graph!.node.some((m) => m.name === n.name && m.input.includes(cut.output)) ? [`main/n${j}`] : [],
    );
    assert.ok(readers.length > 0);
    const into = g.edges.filter((e) => e.to === box.id);
    const outOf = g.edges.filter((e) => e.from === box.id);
    assert.deepEqual(
      into.map((e) => [e.from, e.value, e.diff]),
      [[producer, cut.input, "removed"]],
    );
    assert.deepEqual(outOf.map((e) => e.to).sort(), readers.sort());
    assert.ok(outOf.every((e) => e.value === cut.output && e.diff === "removed"));
    // it stands where it stood: after its producer, before its readers
    const order = g.nodes.map((n) => n.id);
    assert.ok(order.indexOf(producer) < order.indexOf(box.id) && readers.every((r) => order.indexOf(box.id) < order.indexOf(r)));
    assert.match(renderDot(g), new RegExp(`"${box.id}" \\[shape=box, label="Relu[^\\]]*color=red, style=dashed`));
  });

  it("a model compared with itself has no removed box", () => {
    const g = drawing(a, side(a.text));
    assert.equal(removedBoxes(g).length, 0);
    assert.ok(g.edges.every((e) => e.diff === undefined));
  });

  it("in a chain long enough to fold, the removed box and its neighbours stay boxes", () => {
    const chain = (n: number, skip: number): string => {
      // a Sigmoid in the middle of Relus: what taking it out removes is not ambiguous
      const lines = Array.from({ length: n }, (_, i) => (i === skip ? "" : `  t${i + 1} = ${i === 450 ? "Sigmoid" : "Relu"} (t${i === skip + 1 ? skip : i})`));
      return `<ir_version: 10, opset_import: ["" : 21]>\nchain (float[2] t0) => (float[2] t${n}) {\n${lines.filter((l) => l).join("\n")}\n}\n`;
    };
    const g = drawing(side(chain(900, -5)), side(chain(900, 450)));
    const boxes = removedBoxes(g);
    assert.deepEqual(
      boxes.map((n) => n.label),
      ["Sigmoid"],
    );
    assert.ok(
      g.nodes.some((n) => n.kind === "collapsed"),
      "the chain is folded",
    );
    for (const e of g.edges.filter((x) => x.diff === "removed")) {
      const other = g.nodes.find((n) => n.id === (e.from === boxes[0]!.id ? e.to : e.from));
      assert.equal(other?.kind, "op", `${e.from} -> ${e.to}`);
    }
    assert.equal(g.edges.filter((x) => x.diff === "removed").length, 2);
  });
});
