// convertOpset on small models: each converted model is checked and run, and its outputs are
// compared with the original's (the interpreter runs each op by the opset it is imported at).
import { strict as assert } from "node:assert";
import { checkModel } from "../../core/src/check/index.js";
import { runSync } from "../helpers/run-sync.js";
import { compareValues, type Value } from "../../core/src/interp/index.js";
import { convertOpset, convertOpsetText, OpsetError } from "../../core/src/opset/index.js";
import { modelFromText } from "../../core/src/text.js";
import type { ModelProto } from "../../proto/src/index.js";

function model(text: string): ModelProto {
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("\n"));
  return r.model;
}

function errors(m: ModelProto): string[] {
  return checkModel(m)
    .filter((d) => d.severity === "error")
    .map((d) => d.message);
}

/** Converts to `target`, checks, runs, and compares every output with the original's. */
function sameOutputs(m: ModelProto, target: number): ModelProto {
  const r = convertOpset(m, target);
  assert.deepEqual(
    r.refused.map((x) => x.reason),
    [],
  );
  assert.deepEqual(errors(r.model), []);
  const before = runSync(m);
  const after = runSync(r.model);
  for (const [name, v] of before) assert.equal(compareValues(after.get(name), v, { rtol: 1e-6, atol: 1e-7 }), undefined, name);
  return r.model;
}

const OPSET11 = `<ir_version: 6, opset_import: ["" : 11]>
g (float[2,3,4] x) => (float[2,1,4] sum, float[2,3,4] soft, float[2,3,4] logsoft, float[3,4] sq, float[2,3,2] part, float[2,3,4] clip, float[2,5,4] pad) {
  sum = ReduceSum <axes = [1]> (x)
  soft = Softmax <axis = 1> (x)
  logsoft = LogSoftmax <axis = -1> (x)
  u = Unsqueeze <axes = [0, 1]> (x)
  s0 = Squeeze <axes = [0, 1]> (u)
  sq = ReduceMax <axes = [0], keepdims = 0> (s0)
  part, rest = Split <axis = 2, split = [2, 2]> (x)
  lo = Constant <value = float {-0.25}> ()
  hi = Constant <value = float {0.25}> ()
  clip = Clip (x, lo, hi)
  pads = Constant <value = int64[6] {0, 1, 0, 0, 1, 0}> ()
  pad = Pad (x, pads)
}`;

describe("convertOpset", () => {
  it("moves Reduce*, Softmax family, Squeeze/Unsqueeze, Split up to every later opset with the same outputs", () => {
    const m = model(OPSET11);
    for (const t of [12, 13, 17, 18, 21, 28]) sameOutputs(m, t);
  });

  it("brings the converted model back down to 11 and further to 7 with the same outputs where each op exists", () => {
    const up = sameOutputs(model(OPSET11), 28);
    const back = sameOutputs(up, 11);
    assert.equal(back.graph!.node.filter((n) => n.opType === "Flatten").length, 1, "only the Softmax not on the last axis needed Flatten");
    const noPad = model(OPSET11.replace(/, float\[2,5,4\] pad\)/, ")").replace(/\n  pads = .*\n  pad = .*/, ""));
    sameOutputs(sameOutputs(noPad, 28), 7);
  });

  it("converts Softmax 11 -> 13 on an axis that is not the last without knowing the shape", () => {
    const m = model(`<ir_version: 6, opset_import: ["" : 11]>
g (float[2,3,4] x) => (float[2,3,4] y) {
  r = Relu (x)
  y = Softmax <axis = 1> (r)
}`);
    const up = sameOutputs(m, 13);
    assert.deepEqual(
      up.graph!.node.map((n) => n.opType),
      ["Relu", "Flatten", "Softmax", "Shape", "Reshape"],
    );
  });

  it("refuses an input that must become an attribute but is not constant, saying which", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 18]>
g (float[2,3] x, int64[1] axes) => (float[2,1] y) {
  y = ReduceSum (x, axes)
}`);
    const r = convertOpset(m, 12);
    assert.equal(r.refused.length, 1);
    assert.match(r.refused[0]!.reason, /'axes'.*not a constant/);
    assert.equal(r.refused[0]!.path, "graph 'g'");
    assert.equal(r.model.graph!.node[0]!.input.length, 2, "the refused node keeps its old form");
  });

  it("refuses an op below its first version and a type the older schema does not take", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 20]>
g (float[1,1,4,4] x, float[1,2,2,2] grid, int32[3] i) => (float[1,1,2,2] y, int32[3] j) {
  y = GridSample (x, grid)
  j = Abs (i)
}`);
    const r = convertOpset(m, 5);
    const reasons = r.refused.map((x) => x.reason);
    assert.ok(reasons.some((x) => /GridSample first appears at opset 16/.test(x)));
    assert.ok(reasons.some((x) => /tensor\(int32\), which Abs-1 does not accept/.test(x)));
  });

  it("replaces Upsample by Resize going up and back going down, and Scatter by ScatterElements", () => {
    const m = model(`<ir_version: 4, opset_import: ["" : 9]>
g (float[1,1,2,2] x, float[3,3] d, float[2,3] u) => (float[1,1,4,6] y, float[3,3] s) {
  sc = Constant <value = float[4] {1, 1, 2, 3}> ()
  i = Constant <value = int64[2,3] {1, 0, 2, 0, 2, 1}> ()
  y = Upsample <mode = "nearest"> (x, sc)
  s = Scatter <axis = 0> (d, i, u)
}`);
    const up = sameOutputs(m, 13);
    assert.deepEqual(
      up.graph!.node.map((n) => n.opType).filter((o) => o !== "Constant"),
      ["Resize", "ScatterElements"],
    );
    const down = sameOutputs(up, 9);
    assert.deepEqual(
      down.graph!.node.map((n) => n.opType).filter((o) => o !== "Constant"),
      ["Upsample", "Scatter"],
    );
  });

  it("rewrites legacy broadcasting (opset 6) as numpy broadcasting and back", () => {
    const m = model(`<ir_version: 3, opset_import: ["" : 6]>
g (float[2,3,4] a, float[3] b, float[4] c) => (float[2,3,4] y, float[2,3,4] z) {
  y = Add <broadcast = 1, axis = 1> (a, b)
  z = Mul <broadcast = 1> (a, c)
}`);
    const up = convertOpset(m, 7);
    assert.deepEqual(up.refused, []);
    assert.deepEqual(errors(up.model), []);
    assert.ok(up.model.graph!.node.some((n) => n.opType === "Unsqueeze"));
    // The interpreter has no legacy broadcasting: the expected values are computed here.
    const a = Float32Array.from({ length: 24 }, (_, i) => i);
    const b = Float32Array.from([10, 20, 30]);
    const c = Float32Array.from([1, 2, 3, 4]);
    const t = (dims: number[], data: Float32Array): Value => ({ kind: "tensor", dtype: 1, dims, data });
    const out = runSync(up.model, { a: t([2, 3, 4], a), b: t([3], b), c: t([4], c) });
    const y = out.get("y")!;
    const z = out.get("z")!;
    assert.ok(y.kind === "tensor" && z.kind === "tensor");
    for (let i = 0; i < 24; i++) {
      assert.equal(Number(y.data[i]), a[i]! + b[Math.floor(i / 4) % 3]!);
      assert.equal(Number(z.data[i]), a[i]! * c[i % 4]!);
    }
    const r = convertOpset(
      model(`<ir_version: 3, opset_import: ["" : 7]>
g (float[2,1] a, float[1,3] b) => (float[2,3] y) {
  y = Add (a, b)
}`),
      6,
    );
    assert.match(r.refused[0]!.reason, /numpy broadcasting, which opset 6 does not have/);
  });

  it("converts the nodes of subgraphs and local functions, and updates their opset imports", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 11, "local" : 1]>
g (bool c, float[2,3] x) => (float[2,1] y, float[2,1] z) {
  y = If (c) <then_branch = t () => (float[2,1] a) { a = ReduceSum <axes = [1]> (x) }, else_branch = e () => (float[2,1] b) { b = ReduceMax <axes = [1]> (x) }>
  z = local.f (x)
}
<domain: "local", opset_import: ["" : 11]>
f (v) => (w) { w = ReduceMean <axes = [1]> (v) }`);
    const up = sameOutputs(m, 18);
    assert.equal(Number(up.functions[0]!.opsetImport.find((o) => o.domain === "")!.version), 18);
    assert.equal(up.functions[0]!.node.find((n) => n.opType === "ReduceMean")!.input.length, 2);
  });

  it("refuses custom operators of unknown domains and targets that do not exist, in one line", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 13, "com.acme" : 1]>
g (float[2] x) => (float[2] y) {
  y = com.acme.Magic (x)
}`);
    assert.match(convertOpset(m, 14).refused[0]!.reason, /custom operator com\.acme\.Magic/);
    assert.throws(
      () => convertOpset(m, 0),
      (e: unknown) => e instanceof OpsetError && /opset 0 of ai\.onnx does not exist \(known: 1 to \d+\)/.test(e.message),
    );
    assert.throws(() => convertOpset(m, 99), OpsetError);
  });

  it("keeps the layout and comments of unchanged statements in text, and gives refused nodes their span", () => {
    const text = `<ir_version: 7, opset_import: ["" : 11]>
g (float[2,3] x) => (float[2,1] y, float[2,3] r) {
  # the sum over the last axis
  y = ReduceSum <axes = [1]> (x)   # keep me
  r =   Relu(x)    # odd spacing stays
}`;
    const out = convertOpsetText(text, 13);
    assert.equal(out.canonical, false);
    assert.equal(
      out.text,
      `<ir_version: 7, opset_import: ["" : 13]>
g (float[2,3] x) => (float[2,1] y, float[2,3] r) {
  # the sum over the last axis
  y_axes = Constant <value = int64[1] {1}> ()
  y = ReduceSum (x, y_axes)   # keep me
  r =   Relu(x)    # odd spacing stays
}`,
    );
    const refused = convertOpsetText(text.replace("Relu(x)", "com.acme.Relu(x)"), 13).conversion.refused;
    assert.equal(refused.length, 1);
    assert.equal(text.replace("Relu(x)", "com.acme.Relu(x)").slice(refused[0]!.span!.start, refused[0]!.span!.end).trim(), "r =   com.acme.Relu(x)");
  });

  it("spreads GroupNormalization-18's per-group scale and bias over the channels going up; refuses to go back to the deprecated 18", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 18]>
g (float[2,4,3] x, float[2] scale, float[2] bias) => (float[2,4,3] y) {
  y = GroupNormalization <num_groups = 2> (x, scale, bias)
}`);
    const up = sameOutputs(m, 21);
    assert.match(convertOpset(up, 18).refused[0]!.reason, /GroupNormalization-18 is deprecated/);
  });

  it("turns LabelEncoder-1's classes into key/value lists and back (ai.onnx.ml)", () => {
    const m = model(`<ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 1]>
g (string[3] x) => (int64[3] y) {
  y = ai.onnx.ml.LabelEncoder <classes_strings = ["a", "b", "c"], default_int64 = 7> (x)
}`);
    const up = convertOpset(m, 13, { domains: { "ai.onnx.ml": 2 } });
    assert.deepEqual(up.refused, []);
    assert.deepEqual(errors(up.model), []);
    const node = up.model.graph!.node[0]!;
    assert.deepEqual(node.attribute.map((a) => a.name).sort(), ["default_int64", "keys_strings", "values_int64s"]);
    const down = convertOpset(up.model, 13, { domains: { "ai.onnx.ml": 1 } });
    assert.deepEqual(down.refused, []);
    assert.deepEqual(down.model.graph!.node[0]!.attribute.map((a) => a.name).sort(), ["classes_strings", "default_int64"]);
  });

  it("raises the IR version going up, and lowers it going down as far as the target opset and the model's features allow", () => {
    const m = model(`<ir_version: 5, opset_import: ["" : 10]>
g (float[2] x) => (float[2] y) {
  y = Relu (x)
}`);
    const up = convertOpset(m, 21).model;
    assert.equal(up.irVersion, 10n);
    assert.equal(convertOpset(up, 11).model.irVersion, 6n);
    const withFunction = model(`<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2] x) => (float[2] y) {
  y = local.f (x)
}
<domain: "local", opset_import: ["" : 21]>
f (a) => (b) { b = Relu (a) }`);
    assert.equal(convertOpset(withFunction, 11).model.irVersion, 8n, "local functions need IR 8");
  });

  it("edits the changed statements inside a subgraph in text, keeping the rest of the holding statement", () => {
    const text = `<ir_version: 8, opset_import: ["" : 11]>
g (bool c, float[2,3] x) => (float[2,1] y) {
  y = If (c) <
    then_branch = t () => (float[2,1] a) {
      a = ReduceSum <axes = [1]> (x)   # inside
    },
    else_branch = e () => (float[2,1] b) {
      b = Identity (x1)
    }
  >
  x1 = ReduceMax <axes = [1]> (x)
}`
      .replace("x1 = ReduceMax <axes = [1]> (x)\n", "")
      .replace("Identity (x1)", "ReduceMax <axes = [1]> (x)");
    const out = convertOpsetText(text, 13);
    assert.equal(out.canonical, false);
    assert.equal(
      out.text,
      text
        .replace('"" : 11', '"" : 13')
        .replace("a = ReduceSum <axes = [1]> (x)", "a_axes = Constant <value = int64[1] {1}> ()\n      a = ReduceSum (x, a_axes)"),
    );
    assert.equal(out.conversion.rewritten, 1, "ReduceSum-13 takes axes as an input; ReduceMax-13 still takes the attribute");
  });

  it("gives PRelu-6's per-channel slope trailing 1s going up, and takes them off going down", () => {
    const m = model(`<ir_version: 3, opset_import: ["" : 6]>
g (float[1,2,2,3] x) => (float[1,2,2,3] y) <float[2] slope = {0.1, 0.5}> {
  y = PRelu (x, slope)
}`);
    const up = sameOutputs(m, 7);
    assert.ok(up.graph!.node.some((n) => n.opType === "Unsqueeze"));
    const down = sameOutputs(up, 6);
    assert.ok(down.graph!.node.some((n) => n.opType === "Squeeze"));
  });

  it("knows the types inside a local function from its call sites", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2,3,4] x, float[5,3,2] z) => (float[2,3,4] y, float[5,3,2] w) {
  y = local.f (x)
  w = local.f (z)
}
<domain: "local", opset_import: ["" : 21]>
f (a) => (b) {
  b = Softmax <axis = 1> (a)
}`);
    // Both calls give rank 3, so going below 13 Softmax on axis 1 moves that axis last and back.
    const down = sameOutputs(m, 11);
    assert.deepEqual(
      down.functions[0]!.node.map((n) => n.opType),
      ["Transpose", "Softmax", "Transpose"],
    );
    const mixed = model(`<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2,3,4] x, float[3,2] z) => (float[2,3,4] y, float[3,2] w) {
  y = local.f (x)
  w = local.f (z)
}
<domain: "local", opset_import: ["" : 21]>
f (a) => (b) {
  b = Softmax <axis = 1> (a)
}`);
    assert.match(convertOpset(mixed, 11).refused[0]!.reason, /rank of 'a' is unknown/, "call sites of different ranks agree on no rank");
  });
});
