import * as assert from "node:assert/strict";
import { readSettings, serverSettings, type SettingGetter } from "../../client-vscode/src/settings.js";

const getter =
  (values: Record<string, unknown>): SettingGetter =>
  <T>(key: string, fallback: T) =>
    key in values ? (values[key] as T) : fallback;

describe("extension settings", () => {
  it("falls back to the defaults", () => {
    const s = readSettings(getter({}));
    assert.deepEqual(s, { serverPath: "", trace: "off", maxTensorElements: 100, externalDataThreshold: 65536, offerOpenAsText: true, maxOutlineItems: 1000 });
  });

  it("reads the user's values and rejects nonsense", () => {
    const s = readSettings(
      getter({
        "server.path": " /x/server.js ",
        "trace.server": "verbose",
        "run.maxTensorElements": 7,
        externalDataThreshold: 0,
        offerOpenAsText: false,
        "outline.maxItems": 300,
      }),
    );
    assert.deepEqual(s, {
      serverPath: "/x/server.js",
      trace: "verbose",
      maxTensorElements: 7,
      externalDataThreshold: 0,
      offerOpenAsText: false,
      maxOutlineItems: 300,
    });
    const bad = readSettings(getter({ "trace.server": "loud", "run.maxTensorElements": 0, externalDataThreshold: 2.5, "outline.maxItems": -1 }));
    assert.equal(bad.trace, "off");
    assert.equal(bad.maxTensorElements, 100);
    assert.equal(bad.externalDataThreshold, 65536);
    assert.equal(bad.maxOutlineItems, 1000);
    assert.deepEqual(serverSettings(s), { maxTensorElements: 7, externalDataThreshold: 0, maxOutlineItems: 300, runView: true });
  });
});
