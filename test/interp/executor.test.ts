// The executor: subgraphs see their enclosing scope, functions bind attributes and defaults,
// schema function bodies stand in for missing kernels, and the guards stop runaway runs.
import { strict as assert } from "node:assert";
import { modelFromText } from "../../core/src/text.js";
import { GuardError, Interpreter, createDefaultRegistry, runModel, tensor, type Tensor, type Value } from "../../core/src/interp/index.js";
import { TensorProto_DataType as DT, type ModelProto } from "../../proto/src/index.js";

function model(text: string): ModelProto {
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("\n"));
  return r.model;
}

function f32(dims: number[], values: number[]): Tensor {
  return tensor(DT.FLOAT, dims, Float32Array.from(values));
}

function values(v: Value | undefined): number[] {
  assert.ok(v && v.kind === "tensor");
  return Array.from(v.data as Float32Array);
}

const LOOP_FOREVER = `<ir_version: 10, opset_import: ["" : 21]>
forever (float[1] x) => (float[1] y) {
  t = Constant <value = bool {1}> ()
  y = Loop ("", t, x) <body = b (int64 i, bool c, float[1] a) => (bool c2, float[1] a2) {
    c2 = Identity (c)
    a2 = Add (a, x)
  }>
}`;

describe("interpreter executor", () => {
  it("runs If and Loop bodies that read outer-scope values", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g (bool flag, int64 n, float[2] x) => (float[2] r) {
  r = If (flag) <
    then_branch = t () => (float[2] s) {
      one = Constant <value = bool {1}> ()
      s = Loop (n, one, x) <body = b (int64 i, bool c, float[2] acc) => (bool c2, float[2] acc2) {
        c2 = Identity (c)
        acc2 = Add (acc, x)
      }>
    },
    else_branch = e () => (float[2] s) { s = Neg (x) }
  >
}`);
    const x = f32([2], [1, 2]);
    const n = tensor(DT.INT64, [], BigInt64Array.of(3n));
    const run = (flag: number) =>
      runModel(
        m,
        new Map<string, Value>([
          ["flag", tensor(DT.BOOL, [], Uint8Array.of(flag))],
          ["n", n],
          ["x", x],
        ]),
      ).get("r");
    assert.deepEqual(values(run(1)), [4, 8]);
    assert.deepEqual(values(run(0)), [-1, -2]);
  });

  it("calls model-local functions with given and default attributes", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2] x) => (float[2] a, float[2] b) {
  a = local.Scale (x)
  b = local.Scale <k = 3.0> (x)
}
<domain: "local", opset_import: ["" : 21]>
Scale <k: float = 2.0> (x) => (y) {
  c = Constant <value_float: float = @k> ()
  y = Mul (x, c)
}`);
    const out = runModel(m, new Map([["x", f32([2], [1, -1])]]));
    assert.deepEqual(values(out.get("a")), [2, -2]);
    assert.deepEqual(values(out.get("b")), [3, -3]);
  });

  it("expands an operator's schema function body when no kernel implements it", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 24]>
g (float[2] x) => (float[2] y) { y = Swish <alpha = 1.0> (x) }`);
    const registry = createDefaultRegistry();
    assert.ok(!registry.has("", "Swish"));
    const y = values(runModel(m, new Map([["x", f32([2], [0, 2])]]), { registry }).get("y"));
    assert.equal(y[0], 0);
    assert.ok(Math.abs(y[1]! - 2 / (1 + Math.exp(-2))) < 1e-6);
  });

  it("folds nodes with constant inputs once per model", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) {
  c = Constant <value = float[2] {1, 2}> ()
  d = Mul (c, c)
  y = Mul (x, d)
}`);
    const registry = createDefaultRegistry();
    const mul = registry.find("", "Mul", 21)!;
    let calls = 0;
    registry.register("Mul", (inputs, ctx) => {
      calls++;
      return mul(inputs, ctx);
    });
    const interp = new Interpreter(m, { registry });
    for (let i = 0; i < 3; i++) assert.deepEqual(values(interp.run(new Map([["x", f32([2], [i, 1])]])).get("y")), [i, 4]);
    assert.equal(calls, 4, "Mul (c, c) runs once, Mul (x, d) three times");
  });

  it("names the failing node and the missing operator", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) { y = NoSuchOp (x) }`);
    assert.throws(() => new Interpreter(m), /no implementation of operator NoSuchOp/);
    const bad = model(`<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[3] y) { s = Constant <value = int64[1] {3}> () \n y = Reshape (x, s) }`);
    assert.throws(
      () => runModel(bad, new Map([["x", f32([2], [1, 2])]])),
      (e: Error) => /Reshape/.test(e.message) || /cannot reshape/.test(e.message),
    );
  });

  it("stops a runaway Loop at the iteration limit", () => {
    const m = model(LOOP_FOREVER);
    assert.throws(
      () => runModel(m, new Map([["x", f32([1], [1])]]), { maxLoopIterations: 1000 }),
      (e: unknown) => e instanceof GuardError && /after 1000 iterations/.test(e.message),
    );
  });

  it("can be cancelled by an AbortSignal between nodes while it runs", async () => {
    // 400 nodes of 2000 loop iterations each: seconds of work, cancelled after 30 ms
    const steps = Array.from(
      { length: 400 },
      (_, i) =>
        `  y${i + 1} = Loop (n, t, y${i}) <body = b${i} (int64 i, bool c, float[1] a) => (bool c2, float[1] a2) { c2 = Identity (c) \n a2 = Add (a, a) }>`,
    );
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g (float[1] y0) => (float[1] y400) {
  t = Constant <value = bool {1}> ()
  n = Constant <value = int64 {2000}> ()
${steps.join("\n")}
}`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    await assert.rejects(
      new Interpreter(m, { signal: controller.signal }).runAsync(new Map([["y0", f32([1], [0])]])),
      (e: unknown) => e instanceof GuardError && /cancelled/.test(e.message),
    );
    assert.ok(Date.now() - started < 2000, "cancellation took too long");
  });

  it("can be cancelled inside a single long Loop through isCancelled", () => {
    let polls = 0;
    const m = model(LOOP_FOREVER);
    assert.throws(
      () => runModel(m, new Map([["x", f32([1], [1])]]), { isCancelled: () => ++polls > 5000 }),
      (e: unknown) => e instanceof GuardError && /cancelled/.test(e.message),
    );
  });

  it("refuses allocations beyond the memory cap", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g (int64[2] s) => (float[?, ?] y) { y = ConstantOfShape (s) }`);
    const shape = tensor(DT.INT64, [2], BigInt64Array.of(100000n, 100000n));
    assert.throws(
      () => runModel(m, new Map([["s", shape]]), { maxMemoryBytes: 64 * 1024 * 1024 }),
      (e: unknown) => e instanceof GuardError && /memory limit/.test(e.message),
    );
  });

  it("gives the same random values for the same seed", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21]>
g () => (float[4] y) { y = RandomUniform <shape = [4]> () }`);
    const a = values(runModel(m, new Map(), { seed: 7 }).get("y"));
    const b = values(runModel(m, new Map(), { seed: 7 }).get("y"));
    const c = values(runModel(m, new Map(), { seed: 8 }).get("y"));
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    assert.ok(a.every((v) => v >= 0 && v < 1));
  });
});
