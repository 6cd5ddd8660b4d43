// The onnxtxt-binary file system's content, and the URI mapping behind it.
import * as assert from "node:assert/strict";
import { BinaryAsText, ConversionFailed, NotATextView } from "../../client-vscode/src/binary-as-text.js";
import type { ModelConverter } from "../../client-vscode/src/model-converter.js";
import { binaryOfTextView, binaryUriFor, textViewOf } from "../../client-vscode/src/uris.js";
import { FakeHost, fileUri } from "./fake-host.js";

/** Text is the bytes reversed, so a test can tell converted content from raw content. */
function reversingConverter(calls: string[]): ModelConverter {
  return {
    textToBinary(text, fileName) {
      calls.push(`toBinary ${fileName}`);
      if (text.includes("!")) return { ok: false, errors: [`${fileName}:1:1: error: bang [syntax]`, "second"] };
      return { ok: true, bytes: new TextEncoder().encode([...text].reverse().join("")) };
    },
    binaryToText(bytes, options) {
      calls.push(`toText ${options.externalDataThreshold}`);
      return [...new TextDecoder().decode(bytes)].reverse().join("");
    },
  };
}

describe("binary .onnx as text", () => {
  it("maps file URIs to text views and back, keeping the original scheme", () => {
    const local = fileUri("/w/m.onnx");
    const view = textViewOf(local);
    assert.equal(view.scheme, "onnxtxt-binary");
    assert.equal(view.path, "/w/m.onnx.onnxtxt");
    assert.deepEqual(binaryOfTextView(view), local);
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
    assert.deepEqual(calls, ["toText 7"]);
  });

  it("saves text back as binary", async () => {
    const host = new FakeHost();
    const calls: string[] = [];
    const fsContent = new BinaryAsText(host, reversingConverter(calls), () => ({ externalDataThreshold: 0 }));
    await fsContent.write(textViewOf(fileUri("/w/m.onnx")), new TextEncoder().encode("xyz"));
    assert.equal(new TextDecoder().decode(host.get(fileUri("/w/m.onnx"))), "zyx");
    assert.deepEqual(calls, ["toBinary /w/m.onnx"]);
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
