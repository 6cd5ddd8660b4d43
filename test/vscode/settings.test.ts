import * as assert from "node:assert/strict";
import { readSettings, serverSettings, type SettingGetter } from "../../client-vscode/src/settings.js";

const getter =
  (values: Record<string, unknown>): SettingGetter =>
  <T>(key: string, fallback: T) =>
    key in values ? (values[key] as T) : fallback;

describe("extension settings", () => {
  it("falls back to the defaults", () => {
    const s = readSettings(getter({}));
    assert.deepEqual(s, { serverPath: "", trace: "off", maxTensorElements: 100, externalDataThreshold: 65536, offerOpenAsText: true });
  });

  it("reads the user's values and rejects nonsense", () => {
    const s = readSettings(
      getter({ "server.path": " /x/server.js ", "trace.server": "verbose", "run.maxTensorElements": 7, externalDataThreshold: 0, offerOpenAsText: false }),
    );
    assert.deepEqual(s, { serverPath: "/x/server.js", trace: "verbose", maxTensorElements: 7, externalDataThreshold: 0, offerOpenAsText: false });
    const bad = readSettings(getter({ "trace.server": "loud", "run.maxTensorElements": 0, externalDataThreshold: 2.5 }));
    assert.equal(bad.trace, "off");
    assert.equal(bad.maxTensorElements, 100);
    assert.equal(bad.externalDataThreshold, 65536);
    assert.deepEqual(serverSettings(s), { maxTensorElements: 7, externalDataThreshold: 0, runView: true });
  });
});
