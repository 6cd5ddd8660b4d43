// One small broken model per diagnostic code: the checker reports that code, at the right
// node, and nothing else of severity error. A valid model checks clean.
import { strict as assert } from "node:assert";
import { clone, create } from "@bufbuild/protobuf";
import { AttributeProtoSchema, ModelProtoSchema, OperatorSetIdProtoSchema, TensorProtoSchema, type ModelProto } from "../../proto/src/index.js";
import { CHECK_CODES, checkModel, type CheckCode } from "../../core/src/check/index.js";
import { fn, floats, graph, int64s, model, node } from "./build.js";

interface Fixture {
  model: ModelProto;
  /** A piece of the `where` path the diagnostic must carry. */
  where: string;
}

const FIXTURES: Record<CheckCode, Fixture> = {
  "undefined-value": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Add", ["x", "nope"], ["y"], {}, { name: "add" })] }),
    where: "node 'add' (Add)",
  },
  "use-before-definition": {
    model: model({
      inputs: ["x: float[2]"],
      outputs: ["z"],
      nodes: [node("Relu", ["t"], ["z"], {}, { name: "late" }), node("Neg", ["x"], ["t"])],
    }),
    where: "node 'late' (Relu)",
  },
  redefinition: {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"]), node("Neg", ["x"], ["y"], {}, { name: "again" })] }),
    where: "node 'again' (Neg)",
  },
  "output-not-produced": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y", "ghost: float[2]"], nodes: [node("Relu", ["x"], ["y"])] }),
    where: "output 'ghost'",
  },
  "missing-graph": {
    model: create(ModelProtoSchema, { irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })] }),
    where: "model",
  },
  "missing-shape": {
    model: model({ inputs: ["x: int8"], outputs: ["y: int8[]"], nodes: [node("Neg", ["x"], ["y"])] }),
    where: "input 'x'",
  },
  "domain-not-imported": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Normalizer", ["x"], ["y"], {}, { domain: "ai.onnx.ml", name: "n" })] }),
    where: "node 'n' (ai.onnx.ml.Normalizer)",
  },
  "duplicate-opset-import": {
    model: (() => {
      const m = model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"])] });
      m.opsetImport.push(create(OperatorSetIdProtoSchema, { domain: "ai.onnx", version: 17n }));
      return m;
    })(),
    where: "opset_import 'ai.onnx'",
  },
  "unknown-op": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Frobnicate", ["x"], ["y"], {}, { name: "f" })] }),
    where: "node 'f' (Frobnicate)",
  },
  "op-not-in-opset": {
    model: model({ opset: 18, inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Gelu", ["x"], ["y"], {}, { name: "g" })] }),
    where: "node 'g' (Gelu)",
  },
  "wrong-arity": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x", "x"], ["y"], {}, { name: "r" })] }),
    where: "node 'r' (Relu)",
  },
  "missing-input": {
    model: model({ inputs: ["w: float[1,1,1,1]"], outputs: ["y"], nodes: [node("Conv", ["", "w"], ["y"], {}, { name: "c" })] }),
    where: "node 'c' (Conv)",
  },
  "missing-attribute": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Concat", ["x", "x"], ["y"], {}, { name: "cat" })] }),
    where: "node 'cat' (Concat)",
  },
  "unknown-attribute": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"], { alpha: { float: 0.1 } }, { name: "r" })] }),
    where: "node 'r' (Relu) > attribute 'alpha'",
  },
  "attribute-type": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Concat", ["x", "x"], ["y"], { axis: "zero" }, { name: "cat" })] }),
    where: "node 'cat' (Concat) > attribute 'axis'",
  },
  "duplicate-attribute": {
    model: (() => {
      const n = node("Transpose", ["x"], ["y"], { perm: [1, 0] }, { name: "t" });
      n.attribute.push(clone(AttributeProtoSchema, n.attribute[0]!));
      return model({ inputs: ["x: float[2,3]"], outputs: ["y"], nodes: [n] });
    })(),
    where: "node 't' (Transpose) > attribute 'perm'",
  },
  "attribute-ref-outside-function": {
    model: model({ inputs: ["x: float[2,3]"], outputs: ["y"], nodes: [node("Softmax", ["x"], ["y"], { axis: { ref: "ax" } }, { name: "s" })] }),
    where: "node 's' (Softmax) > attribute 'axis'",
  },
  "unknown-attribute-ref": {
    model: model({
      imports: { local: 1 },
      inputs: ["x: float[2,3]"],
      outputs: ["y"],
      nodes: [node("MySoftmax", ["x"], ["y"], {}, { domain: "local" })],
      functions: [fn("MySoftmax", "local", ["a"], ["b"], [node("Softmax", ["a"], ["b"], { axis: { ref: "dim" } }, { name: "inner" })], ["axis"])],
    }),
    where: "function 'local.MySoftmax' > node 'inner' (Softmax) > attribute 'axis'",
  },
  "element-count": {
    model: model({ inputs: ["x: float[2,2]"], initializers: [floats("w", [1, 2, 3], [2, 2])], outputs: ["y"], nodes: [node("Add", ["x", "w"], ["y"])] }),
    where: "initializer 'w'",
  },
  "tensor-data-type": {
    model: (() => {
      const w = floats("w", [1, 2]);
      w.dataType = 0; // UNDEFINED
      return model({ inputs: ["x: float[2]"], initializers: [w], outputs: ["y"], nodes: [node("Add", ["x", "w"], ["y"])] });
    })(),
    where: "initializer 'w'",
  },
  "type-mismatch": {
    model: model({ inputs: ["x: float[2]", "n: int64[2]"], outputs: ["y"], nodes: [node("Add", ["x", "n"], ["y"], {}, { name: "add" })] }),
    where: "node 'add' (Add)",
  },
  "type-not-allowed": {
    model: model({ inputs: ["x: int64[2]"], outputs: ["y"], nodes: [node("Sqrt", ["x"], ["y"], {}, { name: "s" })] }),
    where: "node 's' (Sqrt)",
  },
  "broadcast-mismatch": {
    model: model({ inputs: ["a: float[2,3]", "b: float[4]"], outputs: ["y"], nodes: [node("Mul", ["a", "b"], ["y"], {}, { name: "m" })] }),
    where: "node 'm' (Mul)",
  },
  "shape-incompatible": {
    model: model({ inputs: ["a: float[2,3]", "b: float[4,5]"], outputs: ["y"], nodes: [node("MatMul", ["a", "b"], ["y"], {}, { name: "mm" })] }),
    where: "node 'mm' (MatMul)",
  },
  "declared-type-mismatch": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y: float[3]"], nodes: [node("Relu", ["x"], ["y"], {}, { name: "r" })] }),
    where: "node 'r' (Relu) > value 'y'",
  },
  "unused-value": {
    model: model({ inputs: ["x: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"]), node("Neg", ["x"], ["dead"], {}, { name: "n" })] }),
    where: "node 'n' (Neg)",
  },
  "unused-input": {
    model: model({ inputs: ["x: float[2]", "spare: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"])] }),
    where: "input 'spare'",
  },
  "input-shadows-initializer": {
    model: model({ inputs: ["x: float[2]", "w: float[2]"], initializers: [floats("w", [1, 2])], outputs: ["y"], nodes: [node("Add", ["x", "w"], ["y"])] }),
    where: "initializer 'w'",
  },
  "unused-initializer": {
    model: model({ inputs: ["x: float[2]"], initializers: [floats("w", [1, 2])], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"])] }),
    where: "initializer 'w'",
  },
  "unused-value-info": {
    model: model({ inputs: ["x: float[2]"], valueInfo: ["t: float[2]"], outputs: ["y"], nodes: [node("Relu", ["x"], ["y"])] }),
    where: "value_info 't'",
  },
  "float64-constant": {
    model: model({
      inputs: ["x: float[2]"],
      initializers: [create(TensorProtoSchema, { name: "w", dataType: 11, dims: [2n], doubleData: [1, 2] })],
      outputs: ["y"],
      nodes: [node("Cast", ["w"], ["wf"], { to: 1 }), node("Add", ["x", "wf"], ["y"])],
    }),
    where: "initializer 'w'",
  },
  "identity-chain": {
    model: model({
      inputs: ["x: float[2]"],
      outputs: ["y"],
      nodes: [node("Identity", ["x"], ["a"]), node("Identity", ["a"], ["y"], {}, { name: "again" })],
    }),
    where: "node 'again' (Identity)",
  },
};

describe("checker diagnostics", () => {
  for (const [code, fixture] of Object.entries(FIXTURES) as [CheckCode, Fixture][]) {
    it(`reports ${code}`, () => {
      const diags = checkModel(fixture.model);
      const hit = diags.find((d) => d.code === code);
      assert.ok(hit, `no ${code} among ${JSON.stringify(diags)}`);
      assert.equal(hit.severity, CHECK_CODES[code].severity);
      assert.ok(hit.where?.includes(fixture.where), `where '${hit.where}' lacks '${fixture.where}'`);
      assert.ok(hit.message.length > 10 && !hit.message.includes("undefined"), hit.message);
      const otherErrors = diags.filter((d) => d.severity === "error" && d.code !== code);
      assert.deepEqual(otherErrors, [], `unexpected errors besides ${code}`);
    });
  }

  it("has a fixture for every code", () => {
    assert.deepEqual(Object.keys(FIXTURES).sort(), Object.keys(CHECK_CODES).sort());
  });

  it("finds nothing wrong in valid models, functions and subgraphs included", () => {
    const valid = model({
      opset: 18,
      imports: { local: 1 },
      inputs: ["x: float[N,3]", "c: bool[]"],
      initializers: [int64s("shape", [-1])],
      outputs: ["y: float[?]", "z"],
      nodes: [
        node("Scale", ["x"], ["s"], { k: { float: 2 } }, { domain: "local" }),
        node("Reshape", ["s", "shape"], ["y"]),
        node("If", ["c"], ["z"], {
          then_branch: graph({ outputs: ["t"], nodes: [node("Identity", ["x"], ["t"])] }),
          else_branch: graph({ outputs: ["e"], nodes: [node("Neg", ["x"], ["e"])] }),
        }),
      ],
      functions: [
        fn(
          "Scale",
          "local",
          ["a"],
          ["b"],
          [node("Constant", [], ["k"], { value_float: { ref: "k" } }), node("CastLike", ["k", "a"], ["kk"]), node("Mul", ["a", "kk"], ["b"])],
          ["k"],
        ),
      ],
    });
    assert.deepEqual(checkModel(valid), []);
  });
});
