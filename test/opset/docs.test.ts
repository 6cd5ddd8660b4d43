// docs/opset-conversion.md is what the step table says today.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { OPSET_DOC, opsetDocText } from "../../scripts/gen-opset-doc.js";

describe("opset conversion: docs/opset-conversion.md", () => {
  it("is up to date with the step table", () => {
    assert.ok(fs.existsSync(OPSET_DOC), "run node dist/scripts/gen-opset-doc.js");
    assert.equal(fs.readFileSync(OPSET_DOC, "utf8"), opsetDocText(), "stale: run node dist/scripts/gen-opset-doc.js");
  });
});
