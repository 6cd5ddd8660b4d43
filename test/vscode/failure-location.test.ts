// Placing a run failure at its node from the interpreter's `node A > B (Op): ...` message.
import * as assert from "node:assert/strict";
import { failedNodePath, locateFailedNode } from "../../client-vscode/src/failure-location.js";

const MODEL = `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (bool c, float[2] x) => (float[2] y) {
  a = Relu (x)
  b = Relu (a)
  [pick] y = If (c) <
    then_branch = t () => (float[2] o) {
      [inner] o = Neg (b)
    },
    else_branch = e () => (float[2] o) {
      o = Abs (b)
    }
  >
}
<domain: "local", opset_import: ["" : 21]>
twice (x) => (y) {
  [first] h = Add (x, x)
  y = Mul (h, h)
}
`;

const lineOf = (r: { start: { line: number } } | undefined) => r?.start.line;

describe("run failure location", () => {
  it("reads the node path from the message", () => {
    assert.deepEqual(failedNodePath("node pick (If) > inner (Neg): bad input"), [
      { name: "pick", op: "If" },
      { name: "inner", op: "Neg" },
    ]);
    assert.deepEqual(failedNodePath("node Relu: x"), [{ op: "Relu" }]);
    assert.equal(failedNodePath("input 'x' (default): no shape"), undefined);
  });

  it("finds named and unambiguous unnamed nodes, nested ones inside subgraphs", () => {
    assert.equal(lineOf(locateFailedNode(MODEL, "node pick (If): cond is empty", undefined)?.range), 4);
    assert.equal(lineOf(locateFailedNode(MODEL, "node pick (If) > inner (Neg): no", undefined)?.range), 6);
    assert.equal(lineOf(locateFailedNode(MODEL, "node pick (If) > Abs: no", undefined)?.range), 9);
    assert.equal(locateFailedNode(MODEL, "node pick (If) > Abs: no", undefined)?.node, "Abs");
  });

  it("stops at the outer node when an inner step is ambiguous or unknown, and gives up on an ambiguous first step", () => {
    assert.equal(lineOf(locateFailedNode(MODEL, "node pick (If) > Sqrt: no", undefined)?.range), 4);
    assert.equal(locateFailedNode(MODEL, "node Relu: two of them", undefined), undefined);
    assert.equal(locateFailedNode(MODEL, "node other (If): not there", undefined), undefined);
  });

  it("looks inside a function when the function ran", () => {
    assert.equal(lineOf(locateFailedNode(MODEL, "node twice > first (Add): overflow", "twice")?.range), 15);
    assert.equal(lineOf(locateFailedNode(MODEL, "node twice > Mul: overflow", "twice")?.range), 16);
    assert.equal(locateFailedNode(MODEL, "node first (Add): overflow", undefined), undefined, "not in the main graph");
  });
});
