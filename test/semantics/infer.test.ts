// Inference on small models: symbolic dims, folding of shape computations, spatial ops,
// control flow, local functions, and writing value_info back into the model.
import { strict as assert } from "node:assert";
import { TensorProto_DataType as DT } from "../../proto/src/index.js";
import { formatType, fromTypeProto, inferModel, withInferredTypes } from "../../core/src/infer/index.js";
import { fn, graph, int64s, model, node, type GraphSpec } from "./build.js";

function typesOf(spec: GraphSpec & { opset?: number; imports?: Record<string, number>; functions?: ReturnType<typeof fn>[] }): Record<string, string> {
  const r = inferModel(model(spec));
  assert.deepEqual(r.diagnostics, []);
  return Object.fromEntries([...r.inferred].map(([k, v]) => [k, formatType(v)]));
}

describe("type and shape inference", () => {
  it("carries symbolic dims through broadcasting and keeps the constraint's element type", () => {
    const t = typesOf({
      inputs: ["a: float[N,1,4]", "b: float[3,1]", "k: int64[N]"],
      nodes: [node("Add", ["a", "b"], ["s"]), node("Equal", ["k", "k"], ["e"]), node("Cast", ["k"], ["f"], { to: DT.FLOAT })],
    });
    assert.equal(t.s, "float[N,3,4]");
    assert.equal(t.e, "bool[N]");
    assert.equal(t.f, "float[N]");
  });

  it("folds Shape -> Gather -> Concat -> Reshape into a known shape", () => {
    const t = typesOf({
      inputs: ["x: float[2,3,4]"],
      initializers: [int64s("idx", [0], []), int64s("minus1", [-1])],
      nodes: [
        node("Shape", ["x"], ["shape"]),
        node("Gather", ["shape", "idx"], ["batch"]),
        node("Unsqueeze", ["batch", "zero"], ["batch1"]),
        node("Constant", [], ["zero"], { value_ints: [0] }),
        node("Concat", ["batch1", "minus1"], ["target"], { axis: 0 }),
        node("Reshape", ["x", "target"], ["y"]),
      ].sort((a, b) => (a.opType === "Constant" ? -1 : b.opType === "Constant" ? 1 : 0)),
    });
    assert.equal(t.shape, "int64[3]");
    assert.equal(t.batch, "int64[]");
    assert.equal(t.target, "int64[2]");
    assert.equal(t.y, "float[2,12]");
  });

  it("computes convolution, pooling and matrix product shapes", () => {
    const t = typesOf({
      inputs: ["x: float[1,3,224,224]", "w: float[64,3,7,7]", "m: float[B,5,8]", "n: float[8,2]"],
      nodes: [
        node("Conv", ["x", "w"], ["c"], { strides: [2, 2], pads: [3, 3, 3, 3] }),
        node("MaxPool", ["c"], ["p"], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }),
        node("GlobalAveragePool", ["p"], ["g"]),
        node("Flatten", ["g"], ["f"]),
        node("MatMul", ["m", "n"], ["mm"]),
      ],
    });
    assert.equal(t.c, "float[1,64,112,112]");
    assert.equal(t.p, "float[1,64,56,56]");
    assert.equal(t.f, "float[1,64]");
    assert.equal(t.mm, "float[B,5,2]");
  });

  it("infers through If, Loop and Scan bodies", () => {
    const t = typesOf({
      opset: 16,
      inputs: ["c: bool[]", "x: float[2,3]", "n: int64[]", "seq: float[5,4]"],
      nodes: [
        node("If", ["c"], ["i"], {
          then_branch: graph({ outputs: ["a"], nodes: [node("Relu", ["x"], ["a"])] }),
          else_branch: graph({ outputs: ["b"], nodes: [node("Neg", ["x"], ["b"])] }),
        }),
        node("Loop", ["n", "", "x"], ["final", "scanned"], {
          body: graph({
            inputs: ["iter", "cond_in", "acc"],
            outputs: ["cond_out", "acc_out", "each"],
            nodes: [node("Identity", ["cond_in"], ["cond_out"]), node("Add", ["acc", "x"], ["acc_out"]), node("ReduceSum", ["acc"], ["each"], { keepdims: 0 })],
          }),
        }),
        node("Scan", ["x", "seq"], ["state", "rows"], {
          num_scan_inputs: 1,
          body: graph({ inputs: ["s", "row"], outputs: ["s2", "r2"], nodes: [node("Identity", ["s"], ["s2"]), node("Relu", ["row"], ["r2"])] }),
        }),
      ],
    });
    assert.equal(t.i, "float[2,3]");
    assert.equal(t.final, "float[2,3]");
    assert.equal(t.scanned, "float[?]");
    assert.equal(t.state, "float[2,3]");
    assert.equal(t.rows, "float[5,4]");
  });

  it("infers calls of model-local functions with their attributes", () => {
    const t = typesOf({
      imports: { local: 1 },
      inputs: ["x: float[2,3,4]"],
      nodes: [node("Pick", ["x"], ["y"], { axes: [1] }, { domain: "local" })],
      functions: [fn("Pick", "local", ["a"], ["b"], [node("ReduceMax", ["a"], ["b"], { axes: { ref: "axes" }, keepdims: 0 })], ["axes"], 17)],
    });
    assert.equal(t.y, "float[2,4]");
  });

  it("writes a value_info for every intermediate value and types the graph outputs", () => {
    const m = model({ inputs: ["x: float[N,4]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["h"]), node("Transpose", ["h"], ["y"])] });
    const out = withInferredTypes(m, inferModel(m));
    assert.deepEqual(
      out.graph!.valueInfo.map((vi) => [vi.name, formatType(fromTypeProto(vi.type))]),
      [["h", "float[N,4]"]],
    );
    assert.equal(formatType(fromTypeProto(out.graph!.output[0]!.type)), "float[4,N]");
    assert.equal(m.graph!.valueInfo.length, 0, "the input model is left alone");
  });
});

describe("operator rule coverage", () => {
  it("has a shape rule for every operator of every standard domain at its latest opset", async () => {
    const { listOps, latestOpsetVersion } = await import("../../core/src/schema/index.js");
    const { ruleFor } = await import("../../core/src/infer/ops/index.js");
    const missing: string[] = [];
    for (const domain of ["", "ai.onnx.ml", "ai.onnx.preview", "ai.onnx.preview.training"]) {
      for (const op of listOps(domain, latestOpsetVersion(domain)!)) if (!ruleFor(domain, op.name)) missing.push(`${domain}:${op.name}`);
    }
    assert.deepEqual(missing, []);
  });
});
