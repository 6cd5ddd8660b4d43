// Every test-data model and value file decodes and re-encodes to the same message.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeModel, decodeValue, encodeModel, encodeValue, valueKindOf } from "../../core/src/io/index.js";
import { LIGHT, libonnxModelDirs, nodeTestDirs, requireDir } from "../helpers/paths.js";

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function checkDir(dir: string): void {
  const bytes = fs.readFileSync(path.join(dir, "model.onnx"));
  const model = decodeModel(bytes);
  // Byte identity is stricter than message equality (which also fails on NaN != NaN).
  assert.ok(sameBytes(encodeModel(model), bytes), `${dir}: model changed through decode/encode`);
  const graph = model.graph!;
  for (const set of fs.readdirSync(dir).filter((d) => d.startsWith("test_data_set"))) {
    for (const file of fs.readdirSync(path.join(dir, set))) {
      const m = /^(input|output)_(\d+)\.pb$/.exec(file);
      if (!m) continue;
      const values = m[1] === "input" ? graph.input.filter((i) => !graph.initializer.some((t) => t.name === i.name)) : graph.output;
      const kind = valueKindOf(values[Number(m[2])]?.type);
      const raw = fs.readFileSync(path.join(dir, set, file));
      const value = decodeValue(raw, kind);
      assert.ok(sameBytes(encodeValue(value), raw), `${dir}/${set}/${file}: ${kind} changed through decode/encode`);
    }
  }
}

describe("binary round trip", () => {
  it("keeps every libonnx-testdata model and value file", () => {
    const dirs = libonnxModelDirs();
    assert.ok(dirs.length >= 1000, `expected the 1072 libonnx-testdata models, found ${dirs.length}`);
    for (const d of dirs) checkDir(d);
  });

  it("keeps every onnx 1.23.1 node-test model and value file", () => {
    const dirs = nodeTestDirs();
    assert.equal(dirs.length, 1884);
    for (const d of dirs) checkDir(d);
  });

  it("keeps every light network model", () => {
    const files = fs.readdirSync(requireDir(LIGHT, "test/data/light")).filter((f) => f.endsWith(".onnx"));
    assert.ok(files.length >= 9);
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(LIGHT, f));
      assert.ok(sameBytes(encodeModel(decodeModel(bytes)), bytes), `${f}: model changed through decode/encode`);
    }
  });
});
