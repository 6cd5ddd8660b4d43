// The public entry (core/src/index.ts) against independent references: graphs against onnx 1.12's
// parse_graph (Debian's python3-onnx), functions and nodes against the same text read inside a
// model (whose reading the printed-corpus tests hold to onnx 1.23.1's), `run` against the CLI.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import * as api from "../../core/src/index.js";
import { runCli } from "../helpers/cli.js";

const { GraphProtoSchema, FunctionProtoSchema, NodeProtoSchema } = api.proto;

const GRAPHS = [
  "agraph (float[N, 128] X, float[128, 10] W, float[10] B) => (float[N, 10] C) {\n  T = MatMul(X, W)\n  S = Add(T, B)\n  C = Softmax<axis = 1>(S)\n}",
  "g (int64[3] x) => (int64[3] y) <int64[1] k = {2}> {\n  y = Mul(x, k)\n}",
];

const ORACLE = `
import base64, json, sys
import onnx.parser
print(json.dumps([base64.b64encode(onnx.parser.parse_graph(t).SerializeToString()).decode() for t in json.loads(sys.stdin.read())]))
`;

describe("the library entry", () => {
  it("reads a graph as onnx's parse_graph does", () => {
    const r = spawnSync("/usr/bin/python3", ["-c", ORACLE], { input: JSON.stringify(GRAPHS), encoding: "utf8" });
    assert.equal(r.status, 0, `the onnx 1.12 oracle failed (apt-get install python3-onnx): ${r.stderr}`);
    const expected = JSON.parse(r.stdout) as string[];
    GRAPHS.forEach((text, i) => {
      const ours = api.graphFromText(text);
      assert.deepEqual(ours.diagnostics, []);
      const reference = toBinary(GraphProtoSchema, fromBinary(GraphProtoSchema, Buffer.from(expected[i]!, "base64")));
      assert.deepEqual(toBinary(GraphProtoSchema, ours.result!), reference, text);
    });
  });

  it("reads a function and a node as they read inside a model", () => {
    const fn = `<domain: "local", opset_import: ["" : 18]>\nscaled <alpha> (x) => (y) {\n  a = Constant<value_float: float = @alpha>()\n  y = Mul(x, a)\n}`;
    const node = `y = local.scaled<alpha = 2.0>(x)`;
    const model = api.modelFromText(`<ir_version: 9, opset_import: ["" : 18, "local" : 1]>\ng (float[2] x) => (float[2] y) {\n  ${node}\n}\n${fn}\n`).model!;
    assert.ok(model);
    assert.deepEqual(toBinary(FunctionProtoSchema, api.functionFromText(fn).result!), toBinary(FunctionProtoSchema, model.functions[0]!));
    assert.deepEqual(toBinary(NodeProtoSchema, api.nodeFromText(node).result!), toBinary(NodeProtoSchema, model.graph!.node[0]!));
  });

  it("gives diagnostics with a span and no proto for broken text", () => {
    const text = "g (float[2] x) => (float[2] y) {\n  y = Relu(x\n}";
    const broken = api.graphFromText(text);
    assert.equal(broken.result, undefined);
    const error = broken.diagnostics.find((d) => d.severity === "error");
    assert.ok(error?.span);
    assert.match(error.message, /expected ',' or '\)'/);
    // Right after `x`, where the `)` is missing (LineIndex positions count from 0).
    assert.deepEqual(new api.LineIndex(text).position(error.span.start), { line: 1, character: 12 });
  });

  it("runs a model with the CLI's default inputs, seed and dims", async () => {
    const text = `<ir_version: 9, opset_import: ["" : 18]>\ng (float[N, 3] x, int64[2] k) => (float[N, 3] y, int64[2] z) {\n  y = Tanh(x)\n  z = Add(k, k)\n}\n`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-api-"));
    try {
      const file = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(file, text);
      const cli = runCli(["run", file, "--seed", "5", "--dim", "N=4", "--output-dir", path.join(dir, "out"), "--quiet"]);
      assert.equal(cli.code, 0, cli.stderr);
      const ours = await api.run(api.modelFromText(text).model!, {}, { seed: 5, dims: { N: 4 } });
      ["y", "z"].forEach((name, i) => {
        const expected = api.valueFromProto({
          kind: "tensor",
          value: fromBinary(api.proto.TensorProtoSchema, fs.readFileSync(path.join(dir, "out", `output_${i}.pb`))),
        });
        assert.equal(api.compareValues(ours.get(name), expected, { rtol: 0, atol: 0 }), undefined, name);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints a graph that onnx's parse_graph reads as the same graph", () => {
    const graphs = GRAPHS.map((t) => api.graphFromText(t).result!);
    const printed = graphs.map((g) => api.printGraph(g));
    const r = spawnSync("/usr/bin/python3", ["-c", ORACLE], { input: JSON.stringify(printed), encoding: "utf8" });
    assert.equal(r.status, 0, `the onnx 1.12 oracle failed: ${r.stderr}`);
    (JSON.parse(r.stdout) as string[]).forEach((b64, i) => {
      const reference = toBinary(GraphProtoSchema, fromBinary(GraphProtoSchema, Buffer.from(b64, "base64")));
      assert.deepEqual(reference, toBinary(GraphProtoSchema, graphs[i]!), printed[i] ?? "");
    });
  });

  it("prints functions and nodes that read back as the same protos", () => {
    const fn = api.functionFromText(
      `<domain: "local", opset_import: ["" : 18]>\nf <alpha: float = 0.5> (x) => (y) {\n  y = LeakyRelu<alpha: float = @alpha>(x)\n}`,
    ).result!;
    assert.deepEqual(toBinary(FunctionProtoSchema, api.functionFromText(api.printFunction(fn)).result!), toBinary(FunctionProtoSchema, fn));
    const node = api.nodeFromText(`[label] y, z = custom.Op<ints = [1, 2], s = "t">(a, , b)`).result!;
    assert.deepEqual(toBinary(NodeProtoSchema, api.nodeFromText(api.printNode(node)).result!), toBinary(NodeProtoSchema, node));
  });

  it("refuses to print a graph part that needs an extension comment", () => {
    const graph = api.graphFromText(GRAPHS[1]!).result!;
    // A node's doc_string has no place in the official syntax, so only a model can carry it.
    graph.node[0]!.docString = "kept only by an extension comment";
    assert.throws(() => api.printGraph(graph), /cannot express/);
  });

  it("formats a graph, a function and a node, keeping their comments", () => {
    const graph = api.formatGraphText("g(float[2] x)=>(float[2] y){ # the body\n y=Relu(x) # activation\n}");
    assert.ok(graph.ok);
    assert.match(graph.text, /# the body/);
    assert.match(graph.text, /# activation/);
    assert.deepEqual(
      toBinary(GraphProtoSchema, api.graphFromText(graph.text).result!),
      toBinary(GraphProtoSchema, api.graphFromText("g(float[2] x)=>(float[2] y){ y=Relu(x) }").result!),
    );
    const again = api.formatGraphText(graph.text);
    assert.ok(again.ok);
    assert.equal(again.text, graph.text, "formatting is stable");
    const node = api.formatNodeText("y=Add( a,b ) # sum");
    assert.ok(node.ok);
    assert.equal(node.text, "y = Add (a, b) # sum\n");
    const fn = api.formatFunctionText(`<domain:"d",opset_import:["":18]> f(x)=>(y){y=Neg(x)}`);
    assert.ok(fn.ok);
    assert.deepEqual(
      toBinary(FunctionProtoSchema, api.functionFromText(fn.text).result!),
      toBinary(FunctionProtoSchema, api.functionFromText(`<domain:"d",opset_import:["":18]> f(x)=>(y){y=Neg(x)}`).result!),
    );
    assert.equal(api.formatNodeText("y = Relu(").ok, false);
  });
});
