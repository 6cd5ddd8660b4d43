import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  AttributeProto_AttributeType as AT,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  ValueInfoProtoSchema,
  type ModelProto,
  type NodeProto,
  type TensorProto,
} from "../../proto/src/index.js";
import { defaultRegistry, DT, Interpreter, tensor, tensorToProto, type Tensor } from "../../core/src/interp/index.js";
import { AFFINE_CHAIN, CONV_CHAIN, fuseConvChains } from "../../core/src/interp/fast/fuse.js";
import { fastRegistry } from "../../core/src/interp/fast/index.js";
import { closeness, randomArray, seededRandom } from "./reference.js";

const random = seededRandom(4242);

function node(opType: string, input: string[], output: string[], attrs: Record<string, number | number[]> = {}): NodeProto {
  const attribute = Object.entries(attrs).map(([name, v]) =>
    Array.isArray(v)
      ? create(AttributeProtoSchema, { name, type: AT.INTS, ints: v.map(BigInt) })
      : Number.isInteger(v) && name !== "epsilon"
        ? create(AttributeProtoSchema, { name, type: AT.INT, i: BigInt(v) })
        : create(AttributeProtoSchema, { name, type: AT.FLOAT, f: v }),
  );
  return create(NodeProtoSchema, { opType, input, output, attribute, name: output[0] ?? "" });
}

function init(name: string, dims: number[], data?: Float32Array): TensorProto {
  const n = dims.reduce((p, d) => p * d, 1);
  return tensorToProto(tensor(DT.FLOAT, dims, data ?? randomArray(n, random)), name);
}

function model(nodes: NodeProto[], initializers: TensorProto[], outputs: string[]): ModelProto {
  return create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 17n })],
    graph: create(GraphProtoSchema, {
      node: nodes,
      initializer: initializers,
      input: [create(ValueInfoProtoSchema, { name: "x" })],
      output: outputs.map((name) => create(ValueInfoProtoSchema, { name })),
    }),
  });
}

function run(m: ModelProto, fast: boolean, x: Tensor): Map<string, Tensor> {
  const interp = new Interpreter(fast ? fuseConvChains(m) : m, { registry: fast ? fastRegistry() : defaultRegistry });
  return interp.run(new Map([["x", x]])) as Map<string, Tensor>;
}

const C = 6;
const input = (): Tensor => tensor(DT.FLOAT, [1, 3, 9, 8], randomArray(3 * 9 * 8, random));
const variance = (): Float32Array => randomArray(C, random).map((v) => Math.abs(v) + 0.5);

function chainModel(mulShape: number[], outputs = ["y"]): ModelProto {
  return model(
    [
      node("Conv", ["x", "w", "b"], ["c"], { pads: [1, 1, 1, 1], kernel_shape: [3, 3] }),
      node("BatchNormalization", ["c", "s", "bb", "mean", "var"], ["n"], { epsilon: 1e-3 }),
      node("Mul", ["k", "n"], ["m"]),
      node("Add", ["m", "a"], ["p"]),
      node("Relu", ["p"], ["y"]),
    ],
    [
      init("w", [C, 3, 3, 3]),
      init("b", [C]),
      init("s", [C]),
      init("bb", [C]),
      init("mean", [C]),
      init("var", [C], variance()),
      init("k", mulShape),
      init("a", [C, 1, 1]),
    ],
    outputs,
  );
}

describe("Conv chain fusion", () => {
  it("fuses Conv, BatchNormalization, Mul, Add and Relu into one node", () => {
    const fused = fuseConvChains(chainModel([C, 1, 1]));
    assert.deepEqual(
      fused.graph!.node.map((n) => n.opType),
      [CONV_CHAIN],
    );
    assert.deepEqual(fused.graph!.node[0]!.output, ["y"]);
  });

  it("gives the unfused reference results when folded", () => {
    const m = chainModel([1, C, 1, 1]);
    const x = input();
    const want = run(m, false, x).get("y")!;
    const got = run(m, true, x).get("y")!;
    assert.deepEqual(got.dims, want.dims);
    assert.ok(closeness(got.data as Float32Array, want.data as Float32Array, 1e-4, 1e-5) <= 1);
  });

  it("falls back to the original nodes when a step is not per channel", () => {
    // A Mul by a full [1, C, 9, 8] tensor cannot fold into the weights.
    const m = chainModel([1, C, 9, 8]);
    assert.equal(fuseConvChains(m).graph!.node.length, 1);
    const x = input();
    const want = run(m, false, x).get("y")!;
    const got = run(m, true, x).get("y")!;
    assert.ok(closeness(got.data as Float32Array, want.data as Float32Array, 1e-4, 1e-5) <= 1);
  });

  it("folds a residual Sum before the Relu, and only with an output-shaped operand", () => {
    for (const [resDims, fused] of [
      [[1, C, 9, 8], true],
      [[C, 1, 1], true],
      [[1, 1, 9, 8], true],
    ] as const) {
      const m = model(
        [
          node("Conv", ["x", "w"], ["c"], { pads: [1, 1, 1, 1], kernel_shape: [3, 3] }),
          node("BatchNormalization", ["c", "s", "bb", "mean", "var"], ["n"]),
          node("Sum", ["r", "n"], ["p"]),
          node("Relu", ["p"], ["y"]),
        ],
        [init("w", [C, 3, 3, 3]), init("s", [C]), init("bb", [C]), init("mean", [C]), init("var", [C], variance()), init("r", [...resDims])],
        ["y"],
      );
      assert.equal(fuseConvChains(m).graph!.node.length, fused ? 1 : 4);
      const x = input();
      const want = run(m, false, x).get("y")!;
      const got = run(m, true, x).get("y")!;
      assert.deepEqual(got.dims, want.dims);
      assert.ok(closeness(got.data as Float32Array, want.data as Float32Array, 1e-4, 1e-5) <= 1, `residual [${resDims}]`);
    }
  });

  it("fuses BatchNormalization chains on other inputs into one per-channel pass", () => {
    for (const [mulDims, foldable] of [
      [[3, 1, 1], true],
      [[1, 3, 9, 8], false],
    ] as const) {
      const m = model(
        [
          node("BatchNormalization", ["x", "s", "bb", "mean", "var"], ["n"], { epsilon: 1e-3 }),
          node("Mul", ["n", "k"], ["m"]),
          node("Add", ["a", "m"], ["p"]),
          node("Relu", ["p"], ["y"]),
        ],
        [
          init("s", [3]),
          init("bb", [3]),
          init("mean", [3]),
          init(
            "var",
            [3],
            randomArray(3, random).map((v) => Math.abs(v) + 0.5),
          ),
          init("k", [...mulDims]),
          init("a", [3, 1, 1]),
        ],
        ["y"],
      );
      assert.deepEqual(
        fuseConvChains(m).graph!.node.map((n) => n.opType),
        [AFFINE_CHAIN],
      );
      const x = input();
      const want = run(m, false, x).get("y")!;
      const got = run(m, true, x).get("y")!;
      assert.deepEqual(got.dims, want.dims);
      assert.ok(closeness(got.data as Float32Array, want.data as Float32Array, 1e-5, 1e-6) <= 1, `foldable ${foldable}`);
    }
  });

  it("stops at values that are graph outputs or read twice", () => {
    const m = chainModel([C, 1, 1], ["y", "n"]);
    assert.deepEqual(
      fuseConvChains(m).graph!.node.map((n) => n.opType),
      [CONV_CHAIN, "Mul", "Add", "Relu"],
    );
    const twice = model(
      [node("Conv", ["x", "w"], ["c"], { kernel_shape: [1, 1] }), node("Relu", ["c"], ["r"]), node("Add", ["c", "r"], ["y"])],
      [init("w", [C, 3, 1, 1])],
      ["y"],
    );
    assert.equal(fuseConvChains(twice), twice);
  });
});
