// Run errors in ONNX terms (issue 22, item 13): inputs an op cannot take are named as what
// is wrong with the model, never as JavaScript's own message (typed array and string
// lengths), and a RangeError a kernel still throws becomes an error naming the node.
import { strict as assert } from "node:assert";
import { createDefaultRegistry, defaultValue, describeRunError, InterpError, Rng, runModel, type RunOptions } from "../../core/src/interp/index.js";
import { fastRegistry } from "../../core/src/interp/fast/index.js";
import { modelFromText } from "../../core/src/text.js";

const H = `<ir_version: 8, opset_import: ["" : 18]>\n`;
const JS_WORDS = /Invalid|typed array|string length|RangeError|TypeError|call stack|undefined|NaN/;

function runError(text: string, options: RunOptions = {}): string {
  const r = modelFromText(text);
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join("; "));
  const feeds = new Map(r.model.graph!.input.map((i) => [i.name, defaultValue(i.type, new Map(), new Rng(0), i.name)]));
  try {
    runModel(r.model, feeds, options);
  } catch (e) {
    assert.ok(e instanceof InterpError, String(e));
    return describeRunError(e);
  }
  return assert.fail("the run succeeded");
}

/** A chain of StringConcat doubling one character: element 0 reaches 2^29 characters. */
function doublings(count: number): string {
  const lines = [`<ir_version: 10, opset_import: ["" : 20]>`, `g (float[1] x) => (string y) {`, `  s0 = Constant <value = string[1] {"a"}> ()`];
  for (let i = 1; i <= count; i++) lines.push(`  s${i} = StringConcat (s${i - 1}, s${i - 1})`);
  lines.push(`  y = Identity (s${count})`, `}`);
  return lines.join("\n");
}

const CASES: [string, string, RegExp][] = [
  [
    "Range with delta 0",
    `${H}g (float[1] x) => (float y) { a = Constant <value = float {0}> ()\n b = Constant <value = float {1}> ()\n c = Constant <value = float {0}> ()\n y = Range(a, b, c) }`,
    /^node Range: delta is 0/,
  ],
  [
    "TopK with k past the axis",
    `${H}g (float[4] x) => (float y, int64 i) { k = Constant <value = int64[1] {1000000000000}> ()\n y, i = TopK(x, k) }`,
    /^node TopK: k = 1000000000000 must be from 0 to the size of axis 0 \(4\)$/,
  ],
  [
    "MaxPool with huge pads (fast kernel's case)",
    `${H}g (float[1,1,4,4] x) => (float y) { y = MaxPool <kernel_shape = [2, 2], pads = [1000000000, 1000000000, 1000000000, 1000000000]> (x) }`,
    /^node MaxPool: pad 1000000000 of axis 0 must be smaller than the kernel size 2$/,
  ],
  [
    "AveragePool with a negative stride",
    `${H}g (float[1,1,4,4] x) => (float y) { y = AveragePool <kernel_shape = [2, 2], strides = [-1, 1]> (x) }`,
    /^node AveragePool: strides \[-1, 1\] must have 2 values of at least 1$/,
  ],
  [
    "ConstantOfShape with a negative dim",
    `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {-3, 4}> ()\n y = ConstantOfShape(s) }`,
    /^node ConstantOfShape: the shape \[-3, 4\] has a negative dimension -3$/,
  ],
  ["Expand to a negative shape", `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {-3, 4}> ()\n y = Expand(x, s) }`, /^node Expand: .*-3/],
  [
    "StringConcat past the longest string",
    doublings(29),
    /^node StringConcat: element 0 would be 536870912 characters long, more than the 536870888 a string can hold$/,
  ],
];

describe("run errors in ONNX terms", () => {
  for (const [name, text, expected] of CASES) {
    it(`${name}: says what is wrong with the model`, () => {
      for (const registry of [undefined, fastRegistry()]) {
        const message = runError(text, registry ? { registry } : {});
        assert.match(message, expected);
        assert.doesNotMatch(message, JS_WORDS);
      }
    });
  }

  it("a RangeError from a kernel becomes an error naming the node and its inputs", () => {
    const registry = createDefaultRegistry();
    registry.register("Relu", () => {
      throw new RangeError("Invalid typed array length: -1");
    });
    const message = runError(`${H}g (float[2, 3] x) => (float y) { y = Relu(x) }`, { registry });
    assert.equal(message, "node Relu: Relu cannot be computed for the inputs float[2,3]: a size, count or length is out of range");
  });

  it("a TypeError from a kernel is reported without JavaScript's words", () => {
    const registry = createDefaultRegistry();
    registry.register("Relu", () => {
      throw new TypeError("Cannot read properties of undefined (reading 'dims')");
    });
    const message = runError(`${H}g (float[2] x) => (float y) { y = Relu(x) }`, { registry });
    assert.match(message, /^node Relu: Relu cannot be computed for the inputs float\[2\]/);
    assert.doesNotMatch(message, JS_WORDS);
  });
});
