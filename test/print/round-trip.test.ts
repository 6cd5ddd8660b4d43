// Must-show: every test-data model comes back byte for byte through text, using one batch CLI
// call per direction and data set; and printing the re-parsed text gives the same text.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT, libonnxModelDirs, nodeTestDirs, requireDir } from "../helpers/paths.js";

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith(ext)) out.push(p);
    }
  };
  visit(dir);
  return out.sort();
}

/** onnx -> onnxtxt -> onnx with batch calls; returns the number of models compared. */
function batchRoundTrip(models: readonly string[]): number {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-rt-"));
  try {
    const textDir = path.join(work, "text");
    const backDir = path.join(work, "back");
    const toText = runCli(["convert", "--to", "onnxtxt", "--out-dir", textDir, ...models]);
    assert.equal(toText.code, 0, toText.stderr);
    const texts = filesUnder(textDir, ".onnxtxt");
    assert.equal(texts.length, models.length);
    const toBinary = runCli(["convert", "--to", "onnx", "--out-dir", backDir, ...texts]);
    assert.equal(toBinary.code, 0, toBinary.stderr);
    const backs = filesUnder(backDir, ".onnx");
    assert.equal(backs.length, models.length);
    // Both batches keep paths relative to the inputs' common folder, so sorted lists pair up.
    const sortedModels = [...models].sort();
    const failures: string[] = [];
    backs.forEach((back, i) => {
      const original = encodeModel(decodeModel(fs.readFileSync(sortedModels[i]!)));
      const again = fs.readFileSync(back);
      if (Buffer.compare(Buffer.from(original), again) !== 0) failures.push(sortedModels[i]!);
      // Stability: the re-parsed model prints to the very same text.
      const text = fs.readFileSync(texts[i]!, "utf8");
      const reparsed = modelFromText(text).model;
      if (!reparsed || printModel(reparsed) !== text) failures.push(`${texts[i]}: printing is not stable`);
    });
    assert.deepEqual(failures.slice(0, 10), []);
    return backs.length;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

describe("binary -> text -> binary (batch CLI)", function () {
  this.timeout(600_000);

  it("keeps every libonnx-testdata model byte for byte, and prints stably", () => {
    const n = batchRoundTrip(libonnxModelDirs().map((d) => path.join(d, "model.onnx")));
    assert.ok(n >= 1000);
  });

  it("keeps every onnx 1.23.1 node-test model byte for byte, and prints stably", () => {
    assert.equal(batchRoundTrip(nodeTestDirs().map((d) => path.join(d, "model.onnx"))), 1884);
  });

  it("keeps every light network byte for byte, and prints stably", () => {
    const dir = requireDir(LIGHT, "test/data/light");
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".onnx"))
      .map((f) => path.join(dir, f));
    assert.ok(batchRoundTrip(files) >= 9);
  });
});
