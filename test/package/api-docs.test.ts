// docs/api.md is the reference of what the package exports today (scripts/gen-api-docs.ts), and
// every export in it comes with its declaration.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { API_DOC, apiDocText } from "../../scripts/gen-api-docs.js";

describe("API reference: docs/api.md", () => {
  const text = apiDocText();

  it("is up to date with the entry points' declarations", () => {
    assert.ok(fs.existsSync(API_DOC), "run npm run build && node dist/scripts/gen-api-docs.js");
    assert.equal(fs.readFileSync(API_DOC, "utf8"), text, "stale: run npm run build && node dist/scripts/gen-api-docs.js");
  });

  it("gives every export of both entry points its declaration", () => {
    const sections = text.split(/^### /m).slice(1);
    const bare = sections.filter((s) => !s.includes("(namespace)") && !s.includes("```ts")).map((s) => s.split("\n")[0]);
    assert.deepEqual(bare, []);
    for (const name of ["modelFromText", "checkModel", "run", "cloneModel", "extractModel", "composeModels", "formatDiagnostics", "loadModel", "saveModel"]) {
      assert.match(text, new RegExp(`^### \`${name}\`$`, "m"), name);
    }
  });
});
