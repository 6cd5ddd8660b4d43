// Differential test against the reference C++ parser available here (Debian's onnx 1.12,
// /usr/bin/python3): every text in test/corpus/common is written in the subset both parsers read
// identically (syntax doc §6), so both must build the same ModelProto.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";
import { REPO } from "../helpers/paths.js";

const CORPUS = path.join(REPO, "test/corpus/common");

const ORACLE = `
import base64, json, sys
import onnx.parser
out = {}
for f in sys.argv[1:]:
    try:
        out[f] = base64.b64encode(onnx.parser.parse_model(open(f, encoding="utf-8").read()).SerializeToString()).decode()
    except Exception as e:
        out[f] = "ERROR " + str(e)
print(json.dumps(out))
`;

describe("corpus: same ModelProto as the onnx 1.12 C++ parser (common subset)", () => {
  const files = fs
    .readdirSync(CORPUS)
    .filter((f) => f.endsWith(".onnxtxt"))
    .sort()
    .map((f) => path.join(CORPUS, f));
  let reference: Record<string, string> = {};

  before(() => {
    const r = spawnSync("/usr/bin/python3", ["-c", ORACLE, ...files], { encoding: "utf8" });
    assert.equal(r.status, 0, `the onnx 1.12 oracle failed (apt-get install python3-onnx): ${r.stderr}`);
    reference = JSON.parse(r.stdout) as Record<string, string>;
  });

  it("has a corpus", () => assert.ok(files.length >= 10));

  for (const file of files) {
    it(path.basename(file), () => {
      const ref = reference[file]!;
      assert.ok(!ref.startsWith("ERROR"), `the reference rejects it: ${ref}`);
      const r = modelFromText(fs.readFileSync(file, "utf8"));
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === "error"),
        [],
      );
      const expected = toBinary(ModelProtoSchema, fromBinary(ModelProtoSchema, Buffer.from(ref, "base64")));
      const actual = toBinary(ModelProtoSchema, r.model!);
      assert.ok(Buffer.from(actual).equals(Buffer.from(expected)), "the ModelProto differs from the reference's");
    });
  }
});
