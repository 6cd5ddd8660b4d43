// onnxtxt.convertToBinary over a stubbed editor, with the real parser behind it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { convertToBinary, OVERWRITE } from "../../client-vscode/src/convert-to-binary.js";
import { coreConverter } from "../../client-vscode/src/core-converter.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { modelFromText } from "../../core/src/text.js";
import { REPO } from "../helpers/paths.js";
import { FakeHost, fileUri } from "./fake-host.js";

const MLP = fs.readFileSync(path.join(REPO, "examples/mlp.onnxtxt"), "utf8");
const NO_EXTERNAL = {
  baseDir: "/w",
  read: (): never => {
    throw new Error("no external data here");
  },
};
const doc = (p: string, text: string) => ({ uri: fileUri(p), fileName: p, getText: () => text });

describe("onnxtxt.convertToBinary", () => {
  it("writes model.onnx beside model.onnxtxt with the parser's bytes", async () => {
    const host = new FakeHost();
    assert.equal(await convertToBinary(doc("/w/mlp.onnxtxt", MLP), host, coreConverter, NO_EXTERNAL), "written");
    const written = host.get(fileUri("/w/mlp.onnx"));
    assert.ok(written, "no .onnx written");
    assert.deepEqual(written, encodeModel(modelFromText(MLP).model!));
    assert.equal(decodeModel(written).graph?.name, modelFromText(MLP).model!.graph?.name);
    assert.deepEqual(host.questions, []);
    assert.match(host.infos[0]!, /^Wrote mlp\.onnx \(\d+ bytes\)\.$/);
  });

  it("asks before replacing an existing file and keeps it when the user declines", async () => {
    const host = new FakeHost();
    host.put(fileUri("/w/mlp.onnx"), "old");
    host.answer = undefined;
    assert.equal(await convertToBinary(doc("/w/mlp.onnxtxt", MLP), host, coreConverter, NO_EXTERNAL), "cancelled");
    assert.deepEqual(host.questions, ["mlp.onnx already exists. Replace it?"]);
    assert.equal(new TextDecoder().decode(host.get(fileUri("/w/mlp.onnx"))), "old");
  });

  it("replaces the existing file when the user chooses Overwrite", async () => {
    const host = new FakeHost();
    host.put(fileUri("/w/mlp.onnx"), "old");
    host.answer = OVERWRITE;
    assert.equal(await convertToBinary(doc("/w/mlp.onnxtxt", MLP), host, coreConverter, NO_EXTERNAL), "written");
    assert.deepEqual(host.get(fileUri("/w/mlp.onnx")), encodeModel(modelFromText(MLP).model!));
  });

  it("reports a syntax error as FILE:LINE:COL and writes nothing", async () => {
    const host = new FakeHost();
    const broken = '<ir_version: 10, opset_import: ["" : 21]>\nmain (float x) => (float y) {\n  y = Relu (x\n}\n';
    assert.equal(await convertToBinary(doc("/w/bad.onnxtxt", broken), host, coreConverter, NO_EXTERNAL), "failed");
    assert.equal(host.get(fileUri("/w/bad.onnx")), undefined);
    assert.equal(host.errors.length, 1);
    assert.match(host.errors[0]!, /^Not converted: \/w\/bad\.onnxtxt:\d+:\d+: error: .+ \[[a-z-]+\]/);
  });

  it("refuses a document that is not .onnxtxt", async () => {
    const host = new FakeHost();
    assert.equal(await convertToBinary(doc("/w/notes.txt", "x"), host, coreConverter, NO_EXTERNAL), "not-onnxtxt");
    assert.equal(await convertToBinary(undefined, host, coreConverter, NO_EXTERNAL), "not-onnxtxt");
    assert.equal(host.errors.length, 2);
    assert.equal(host.files.size, 0);
  });

  it("leaves a binary model opened as text to Save", async () => {
    const host = new FakeHost();
    const view = { uri: fileUri("/w/m.onnx.onnxtxt", "onnxtxt-binary"), fileName: "/w/m.onnx.onnxtxt", getText: () => MLP };
    assert.equal(await convertToBinary(view, host, coreConverter, NO_EXTERNAL), "already-binary");
    assert.deepEqual(host.infos, ["This is m.onnx opened as text: saving it writes the binary file."]);
    assert.equal(host.files.size, 0);
  });

  it("reports a failed write without claiming success", async () => {
    const host = new FakeHost();
    host.failWrites = true;
    assert.equal(await convertToBinary(doc("/w/mlp.onnxtxt", MLP), host, coreConverter, NO_EXTERNAL), "failed");
    assert.deepEqual(host.errors, ["Could not write mlp.onnx: disk full"]);
    assert.deepEqual(host.infos, []);
  });
});
