// The onnxtxt-binary file system's content, and the URI mapping behind it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { BinaryAsText, ConversionFailed, NotATextView } from "../../client-vscode/src/binary-as-text.js";
import { coreConverter } from "../../client-vscode/src/core-converter.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { LIGHT, NODE_TESTS, requireDir } from "../helpers/paths.js";
import type { ModelConverter } from "../../client-vscode/src/model-converter.js";
import { binaryOfTextView, binaryUriFor, textViewOf } from "../../client-vscode/src/uris.js";
import { FakeHost, fileUri } from "./fake-host.js";

/** Text is the bytes reversed, so a test can tell converted content from raw content. */
function reversingConverter(calls: string[]): ModelConverter {
  return {
    textToBinary(text, fileName, external) {
      calls.push(`toBinary ${fileName} ${external.baseDir}`);
      if (text.includes("!")) return { ok: false, errors: [`${fileName}:1:1: error: bang [syntax]`, "second"] };
      return { ok: true, bytes: new TextEncoder().encode([...text].reverse().join("")) };
    },
    binaryToText(bytes, options) {
      calls.push(`toText ${options.externalDataThreshold} ${options.location}`);
      return { text: [...new TextDecoder().decode(bytes)].reverse().join(""), sidecar: new Uint8Array(0) };
    },
  };
}

describe("binary .onnx as text", () => {
  it("maps file URIs to text views and back, keeping the original scheme", () => {
    const local = fileUri("/w/m.onnx");
    const view = textViewOf(local);
    assert.equal(view.scheme, "onnxtxt-binary");
    assert.equal(view.path, "/w/m.onnx.onnxtxt");
    assert.deepEqual(JSON.parse(view.query), { scheme: "file", path: "/w/m.onnx" });
    assert.deepEqual(binaryOfTextView(view), local);
    // A view opened by 0.1.0 (restored with the window) kept the bare scheme as its query.
    assert.deepEqual(binaryOfTextView({ ...view, query: "file" }), local);
    assert.deepEqual(binaryOfTextView({ ...view, query: "{bad json" }), local);
    const remote = { ...fileUri("/home/u/m.onnx", "vscode-remote"), authority: "ssh-remote+box" };
    assert.deepEqual(binaryOfTextView(textViewOf(remote)), remote);
    assert.equal(binaryOfTextView(fileUri("/w/m.onnx.onnxtxt")), undefined);
    assert.equal(binaryUriFor(fileUri("/w/a.b.onnxtxt")).path, "/w/a.b.onnx");
    assert.equal(binaryUriFor(fileUri("/w/A.ONNXTEXT")).path, "/w/A.onnx");
  });

  it("reads the binary file and shows it as text", async () => {
    const host = new FakeHost();
    host.put(fileUri("/w/m.onnx"), "cba");
    const calls: string[] = [];
    const fsContent = new BinaryAsText(host, reversingConverter(calls), () => ({ externalDataThreshold: 7 }));
    const text = await fsContent.read(textViewOf(fileUri("/w/m.onnx")));
    assert.equal(new TextDecoder().decode(text), "abc");
    assert.deepEqual(calls, ["toText 7 m.onnx.data"]);
  });

  it("saves text back as binary", async () => {
    const host = new FakeHost();
    const calls: string[] = [];
    const fsContent = new BinaryAsText(host, reversingConverter(calls), () => ({ externalDataThreshold: 0 }));
    await fsContent.write(textViewOf(fileUri("/w/m.onnx")), new TextEncoder().encode("xyz"));
    assert.equal(new TextDecoder().decode(host.get(fileUri("/w/m.onnx"))), "zyx");
    assert.deepEqual(calls, ["toBinary /w/m.onnx /onnxtxt-binary-view"]);
  });

  it("refuses to save text with errors and leaves the binary file alone", async () => {
    const host = new FakeHost();
    host.put(fileUri("/w/m.onnx"), "old");
    const fsContent = new BinaryAsText(host, reversingConverter([]), () => ({ externalDataThreshold: 0 }));
    await assert.rejects(fsContent.write(textViewOf(fileUri("/w/m.onnx")), new TextEncoder().encode("bad!")), (e: unknown) => {
      assert.ok(e instanceof ConversionFailed);
      assert.equal(e.message, "not saved as binary: /w/m.onnx:1:1: error: bang [syntax] (and 1 more)");
      return true;
    });
    assert.equal(new TextDecoder().decode(host.get(fileUri("/w/m.onnx"))), "old");
  });

  it("rejects URIs that are not text views", async () => {
    const fsContent = new BinaryAsText(new FakeHost(), reversingConverter([]), () => ({ externalDataThreshold: 0 }));
    await assert.rejects(fsContent.read(fileUri("/w/m.onnx")), NotATextView);
  });
});

describe("binary .onnx as text, with the real printer and parser", () => {
  // Small node tests, and a real network with big weights that go to the in-memory sidecar.
  const models = [
    path.join(NODE_TESTS, "test_conv_with_strides_padding/model.onnx"),
    path.join(NODE_TESTS, "test_if/model.onnx"),
    path.join(NODE_TESTS, "test_loop11/model.onnx"),
    path.join(LIGHT, "light_squeezenet.onnx"),
  ];

  for (const file of models) {
    it(`saves ${path.basename(path.dirname(file)) === "light" ? path.basename(file) : path.basename(path.dirname(file))} back byte for byte`, async () => {
      requireDir(path.dirname(file), "test/data");
      const original = new Uint8Array(fs.readFileSync(file));
      const host = new FakeHost();
      const binary = fileUri("/w/model.onnx");
      host.put(binary, original);
      const content = new BinaryAsText(host, coreConverter, () => ({ externalDataThreshold: 4096 }));
      const view = textViewOf(binary);
      const text = await content.read(view);
      host.put(binary, "overwritten by the save below");
      await content.write(view, text);
      assert.deepEqual(host.get(binary), encodeModel(decodeModel(original)));
    });
  }

  it("keeps big tensors out of the text, restores them on save, and refuses a reference to another file", async () => {
    const weights = Array.from({ length: 2048 }, (_, i) => i / 8).join(", ");
    const source = `<ir_version: 10, opset_import: ["" : 21]>\nbig (float[2048] x) => (float[2048] y) <float[2048] w = {${weights}}> {\n  y = Add (x, w)\n}\n`;
    const compiled = coreConverter.textToBinary(source, "big.onnxtxt", { baseDir: "/", read: () => new Uint8Array(0) });
    assert.ok(compiled.ok);
    const host = new FakeHost();
    const binary = fileUri("/w/big.onnx");
    host.put(binary, compiled.bytes);
    const content = new BinaryAsText(host, coreConverter, () => ({ externalDataThreshold: 4096 }));
    const text = new TextDecoder().decode(await content.read(textViewOf(binary)));
    assert.match(text, /"location"\s*:\s*"big\.onnx\.data"/);
    assert.ok(!text.includes("255.875"), "the weights are not in the text");
    const inline = new TextDecoder().decode(await new BinaryAsText(host, coreConverter, () => ({ externalDataThreshold: 0 })).read(textViewOf(binary)));
    assert.ok(!inline.includes('"location"') && inline.includes("255.875"));
    await content.write(textViewOf(binary), new TextEncoder().encode(text.replace("Add", "Sub")));
    const saved = decodeModel(host.get(binary)!);
    assert.equal(saved.graph?.node[0]?.opType, "Sub");
    assert.deepEqual(saved.graph?.initializer, decodeModel(compiled.bytes).graph?.initializer, "the weights came back from the sidecar");
    const elsewhere = text.replace(/"big\.onnx\.data"/, '"other.bin"');
    await assert.rejects(content.write(textViewOf(binary), new TextEncoder().encode(elsewhere)), /other\.bin/);
  });
});
