// The example drawings in docs/graphs are what `onnxtxt graph` makes of examples/ today, and
// each is a well-formed SVG with one box per operator statement of its example.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EXAMPLES_DIR, GRAPHS_DIR, exampleNames, exampleSvg } from "../../scripts/gen-graph-svgs.js";

describe("graph view: committed example drawings", () => {
  for (const name of exampleNames()) {
    it(`docs/graphs/${name}.svg is up to date`, async () => {
      const file = path.join(GRAPHS_DIR, `${name}.svg`);
      assert.ok(fs.existsSync(file), "run node dist/scripts/gen-graph-svgs.js");
      assert.equal(fs.readFileSync(file, "utf8"), await exampleSvg(name), "stale: run node dist/scripts/gen-graph-svgs.js");
    });
  }

  it("draws one box per op statement (Constants feeding one consumer excepted)", () => {
    const text = fs.readFileSync(path.join(EXAMPLES_DIR, "convnet.onnxtxt"), "utf8");
    const statements = [...text.matchAll(/^\s*[\w, ]+=\s*(\w+)\s*[(<]/gm)].map((m) => m[1]!).filter((op) => op !== "Constant");
    const svg = fs.readFileSync(path.join(GRAPHS_DIR, "convnet.svg"), "utf8");
    const boxes = [...svg.matchAll(/<g class="box op[^"]*"[^>]*>[\s\S]*?<text class="label"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]!);
    assert.deepEqual(boxes.sort(), statements.sort());
  });
});
