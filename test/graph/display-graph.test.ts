// The graph model behind `onnxtxt graph` and the editor's graph view, on the examples and the
// light networks: spans lead back to statements, bodies and function calls become groups,
// edges connect real producers and consumers, and big graphs fold with a note.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { modelFromText } from "../../core/src/text.js";
import { decodeModel } from "../../core/src/io/index.js";
import { inferModel } from "../../core/src/infer/index.js";
import { displayGraph, modelGraph, type DisplayGraph, type DisplayNode } from "../../core/src/graph/index.js";
import { bigGraphText } from "../../bench/parse-bench.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { graphView } from "../../core/src/graph/view-data.js";
import { LIGHT, REPO } from "../helpers/paths.js";

function fromText(file: string): { text: string; graph: DisplayGraph } {
  const text = fs.readFileSync(path.join(REPO, "examples", file), "utf8");
  const r = modelFromText(text);
  assert.ok(r.model, `${file} lowers`);
  const graph = displayGraph(r.model, { sourceMap: r.sourceMap, graphTypes: inferModel(r.model).graphTypes });
  return { text, graph };
}

function ops(graph: DisplayGraph): DisplayNode[] {
  return graph.nodes.filter((n) => n.kind === "op");
}

function statement(text: string, node: DisplayNode): string {
  assert.ok(node.span, `${node.label} has a span`);
  return text.slice(node.span.start, node.span.end);
}

/** Every edge joins two nodes of its own graph, in every nested graph. */
function assertEdgesClosed(graph: DisplayGraph): void {
  const ids = new Set(graph.nodes.map((n) => n.id));
  for (const e of graph.edges) {
    assert.ok(ids.has(e.from), `edge ${e.value} from ${e.from}`);
    assert.ok(ids.has(e.to), `edge ${e.value} to ${e.to}`);
  }
  for (const n of graph.nodes) n.groups.forEach(assertEdgesClosed);
}

describe("graph view: display graph", () => {
  it("ties every op of the examples to its statement", () => {
    for (const file of ["mlp.onnxtxt", "convnet.onnxtxt", "control-flow.onnxtxt", "local-function.onnxtxt"]) {
      const { text, graph } = fromText(file);
      assertEdgesClosed(graph);
      for (const op of ops(graph)) assert.match(statement(text, op), new RegExp(`=\\s*(\\w+\\.)?${op.label}\\b`), file);
    }
  });

  it("draws If branches and the Loop body as groups, with captured values wired to their owner", () => {
    const { text, graph } = fromText("control-flow.onnxtxt");
    const ifNode = ops(graph).find((n) => n.label === "If")!;
    assert.deepEqual(ifNode.groups.map((g) => g.title).sort(), ["else_branch", "then_branch"]);
    // `x` is read only inside the branches: the edge reaches the If node.
    assert.ok(graph.edges.some((e) => e.value === "x" && e.to === ifNode.id && e.type === "float[3]"));
    assert.ok(graph.edges.some((e) => e.value === "flag" && e.to === ifNode.id));
    const then = ifNode.groups.find((g) => g.title === "then_branch")!;
    const loop = ops(then).find((n) => n.label === "Loop")!;
    assert.match(statement(text, loop), /^total = Loop \(n, cond, zero\)/);
    assert.deepEqual(
      loop.groups.map((g) => g.title),
      ["body"],
    );
    assert.deepEqual(
      ops(loop.groups[0]!).map((n) => n.label),
      ["Identity", "Add"],
    );
    // The Constants feeding the Loop are shown as lines of the Loop box, not as boxes.
    assert.ok(
      loop.details.some((d) => d.startsWith("zero: float[3]")),
      loop.details.join("; "),
    );
  });

  it("shows a model-local function's body inside each call", () => {
    const { graph } = fromText("local-function.onnxtxt");
    const calls = ops(graph);
    assert.equal(calls.length, 2);
    for (const call of calls) {
      assert.equal(call.domain, "local");
      assert.equal(call.groups.length, 1);
      assert.deepEqual(
        ops(call.groups[0]!).map((n) => n.label),
        ["GreaterOrEqual", "Mul", "Where"],
      );
    }
    assert.deepEqual(calls[1]!.details, ["alpha=0.5"]);
    assert.ok(graph.edges.some((e) => e.value === "x" && e.type === "float[N]"));
  });

  it("draws the light networks with their real output shapes", () => {
    for (const name of ["resnet50", "densenet121", "inception_v1"]) {
      const model = decodeModel(fs.readFileSync(path.join(LIGHT, `light_${name}.onnx`)));
      const { graph, notes } = modelGraph(model);
      assert.deepEqual(notes, [], `${name} needs no folding`);
      assertEdgesClosed(graph);
      const constants = model.graph!.node.filter((n) => n.opType === "ConstantOfShape" || n.opType === "Constant").length;
      assert.equal(ops(graph).length, model.graph!.node.length - constants, `${name}: one box per op, weights inline`);
      // The expected output stored beside each network (made by onnxruntime) gives the final shape.
      const expected = decodeTensorDims(fs.readFileSync(path.join(LIGHT, `light_${name}_output_0.pb`)));
      const output = model.graph!.output[0]!.name;
      const into = graph.edges.find((e) => e.to.endsWith(`/out:${output}`))!;
      assert.equal(into.type, `float[${expected.join(", ")}]`, name);
    }
  });

  it("puts the checker's errors on the node they are about", () => {
    const text = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) {\n  t = Relu (x, x)\n  y = Neg (t)\n}\n';
    const data = graphView(analyze(text));
    assert.ok(data, "a checker error still leaves a model to draw");
    const [relu, neg] = ops(data.graph);
    assert.equal(relu!.label, "Relu");
    assert.match(relu!.errors.join("\n"), /Relu/);
    assert.deepEqual(neg!.errors, []);
  });

  it("folds a 50k-node chain into a few boxes and says so", () => {
    const r = modelFromText(bigGraphText(50_000));
    const { graph, notes } = modelGraph(r.model!);
    assert.ok(graph.nodes.length < 10, `${graph.nodes.length} boxes`);
    const box = graph.nodes.find((n) => n.kind === "collapsed")!;
    assert.equal(box.count, 49_998);
    assert.match(notes.join("\n"), /49,998 ops in a straight run/);
    assertEdgesClosed(graph);
  });
});

/** The dims of a serialized TensorProto (field 1, packed or not), without our own decoder. */
function decodeTensorDims(bytes: Uint8Array): number[] {
  const dims: number[] = [];
  let i = 0;
  const varint = (): number => {
    let v = 0,
      shift = 0,
      b: number;
    do {
      b = bytes[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  };
  while (i < bytes.length) {
    const key = varint();
    const field = key >>> 3,
      wire = key & 7;
    if (field === 1 && wire === 0) dims.push(varint());
    else if (field === 1 && wire === 2) {
      const end = varint() + i;
      while (i < end) dims.push(varint());
    } else if (wire === 0) varint();
    else if (wire === 2) {
      const length = varint();
      i += length;
    } else if (wire === 5) i += 4;
    else if (wire === 1) i += 8;
    else throw new Error(`wire type ${wire}`);
  }
  return dims;
}
