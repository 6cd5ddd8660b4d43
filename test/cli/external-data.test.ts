// External data paths resolve inside the model's folder and nowhere else.
import { strict as assert } from "node:assert";
import { resolveExternalPath } from "../../core/src/io/index.js";

describe("external data paths", () => {
  it("resolve relative to the model's folder", () => {
    assert.equal(resolveExternalPath("/m", "w.bin"), "/m/w.bin");
    assert.equal(resolveExternalPath("/m", "sub/../w.bin"), "/m/w.bin");
  });
  it("refuse paths that leave the folder", () => {
    for (const bad of ["../w.bin", "/etc/passwd", "sub/../../w.bin", "", "."]) {
      assert.throws(() => resolveExternalPath("/m", bad), /must be a relative path|leaves the model's folder/, bad);
    }
  });
});
