// onnxtxt.openAsText and the offer shown when a binary .onnx is opened.
import * as assert from "node:assert/strict";
import { NEVER_ASK, OPEN_AS_TEXT, OpenAsTextOffer, textViewForCommand } from "../../client-vscode/src/open-as-text.js";
import type { UriParts } from "../../client-vscode/src/uris.js";
import { FakeHost, fileUri } from "./fake-host.js";

function setup(enabled = true) {
  const host = new FakeHost();
  const opened: UriParts[] = [];
  let disabled = false;
  const offer = new OpenAsTextOffer(
    host,
    () => enabled && !disabled,
    async () => void (disabled = true),
    async (u) => void opened.push(u),
  );
  return { host, opened, offer, isDisabled: () => disabled };
}

describe("open as text", () => {
  it("opens the text view of a binary model from the command", () => {
    const host = new FakeHost();
    const view = textViewForCommand(fileUri("/w/m.onnx"), host);
    assert.equal(view?.scheme, "onnxtxt-binary");
    assert.equal(view?.path, "/w/m.onnx.onnxtxt");
    assert.equal(textViewForCommand(fileUri("/w/m.onnxtxt"), host), undefined);
    assert.equal(textViewForCommand(undefined, host), undefined);
    assert.equal(host.errors.length, 2);
  });

  it("offers once per opening, and opens the text view when accepted", async () => {
    const { host, opened, offer } = setup();
    host.answer = OPEN_AS_TEXT;
    assert.equal(await offer.onOpened(fileUri("/w/m.onnx")), true);
    assert.equal(await offer.onOpened(fileUri("/w/m.onnx")), false);
    assert.deepEqual(host.questions, ["m.onnx is a binary ONNX model. Open it as text?"]);
    assert.deepEqual(
      opened.map((u) => u.path),
      ["/w/m.onnx.onnxtxt"],
    );
    offer.onClosed(fileUri("/w/m.onnx"));
    assert.equal(await offer.onOpened(fileUri("/w/m.onnx")), true);
  });

  it("stops offering after Don't Ask Again", async () => {
    const { host, opened, offer, isDisabled } = setup();
    host.answer = NEVER_ASK;
    await offer.onOpened(fileUri("/w/a.onnx"));
    assert.equal(isDisabled(), true);
    assert.equal(await offer.onOpened(fileUri("/w/b.onnx")), false);
    assert.deepEqual(opened, []);
  });

  it("ignores text files, other schemes and a disabled setting", async () => {
    const { host, offer } = setup();
    assert.equal(await offer.onOpened(fileUri("/w/m.onnxtxt")), false);
    assert.equal(await offer.onOpened(fileUri("/w/m.onnx.onnxtxt", "onnxtxt-binary")), false);
    assert.equal(await setup(false).offer.onOpened(fileUri("/w/m.onnx")), false);
    assert.deepEqual(host.questions, []);
  });
});
