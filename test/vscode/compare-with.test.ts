// *ONNX: Compare with...* and *Compare Selected*: the diff editor gets the text of each model,
// a binary one through its text view (so both sides read as canonical text).
import * as assert from "node:assert/strict";
import { diffEditorArgs } from "../../client-vscode/src/compare-with.js";
import { FakeHost, fileUri } from "./fake-host.js";

describe("compare with", () => {
  it("shows a binary model through its text view and a text model as it is", () => {
    const host = new FakeHost();
    const args = diffEditorArgs(fileUri("/w/old.onnx"), fileUri("/w/new.onnxtxt"), host)!;
    assert.equal(args.left.scheme, "onnxtxt-binary");
    assert.equal(args.left.path, "/w/old.onnx.onnxtxt");
    assert.deepEqual(args.right, fileUri("/w/new.onnxtxt"));
    assert.equal(args.title, "old.onnx ↔ new.onnxtxt");
    assert.deepEqual(host.errors, []);
  });

  it("refuses a missing side or a file that is not a model, with a message", () => {
    const host = new FakeHost();
    assert.equal(diffEditorArgs(fileUri("/w/a.onnx"), undefined, host), undefined);
    assert.equal(diffEditorArgs(fileUri("/w/a.onnx"), fileUri("/w/notes.txt"), host), undefined);
    assert.equal(host.errors.length, 2);
    assert.match(host.errors[1]!, /notes\.txt is not an ONNX model/);
  });
});
