// Every text of test/data/onnx/printed (onnx 1.23.1's printer output for the backend node tests)
// must lower to exactly the ModelProto that onnx 1.23.1's parser made of it (`.parsed.onnx`).
// Both sides are serialized by protobuf-es, so field order and NaN payloads compare fairly.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";
import { PRINTED, requireDir } from "../helpers/paths.js";

describe("printed corpus: text -> ModelProto equals onnx 1.23.1's parser", () => {
  it("matches every .parsed.onnx byte for byte", () => {
    const files = fs
      .readdirSync(requireDir(PRINTED, "test/data/onnx/printed.tar.xz"))
      .filter((f) => f.endsWith(".onnxtxt"))
      .sort();
    assert.ok(files.length > 1800, `only ${files.length} texts found`);
    const failures: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(path.join(PRINTED, f), "utf8");
      const r = modelFromText(text);
      if (!r.model) {
        failures.push(`${f}: ${r.diagnostics.map((d) => d.message).join("; ")}`);
        continue;
      }
      const expected = fromBinary(ModelProtoSchema, fs.readFileSync(path.join(PRINTED, f.replace(/\.onnxtxt$/, ".parsed.onnx"))));
      const a = Buffer.from(toBinary(ModelProtoSchema, r.model));
      const b = Buffer.from(toBinary(ModelProtoSchema, expected));
      if (!a.equals(b)) failures.push(`${f}: the ModelProto differs`);
    }
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${files.length} differ`);
  });
});
