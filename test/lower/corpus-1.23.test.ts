// test/corpus/v123: texts in the 1.23 syntax (quoted names, labels, overloads, new types, function
// defaults...), which the 1.12 oracle cannot read. Each must lower without any diagnostic, and its
// meaning must not depend on layout: the same text with comments removed and all blanks
// collapsed to single spaces must give the same ModelProto.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import { parseModel } from "../../grammar/src/index.js";
import { modelFromText } from "../../core/src/text.js";
import { REPO } from "../helpers/paths.js";

const CORPUS = path.join(REPO, "test/corpus/v123");

/** Removes comments and collapses blanks outside strings, using the parser's own comment spans. */
function flatten(text: string): string {
  let out = "";
  let from = 0;
  for (const c of parseModel(text).comments) {
    out += text.slice(from, c.span.start);
    from = c.span.end;
  }
  out += text.slice(from);
  return out.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_m, str: string | undefined) => str ?? " ");
}

describe("corpus: 1.23 syntax", () => {
  const files = fs
    .readdirSync(CORPUS)
    .filter((f) => f.endsWith(".onnxtxt"))
    .sort();
  it("has a corpus", () => assert.ok(files.length >= 4));
  for (const f of files) {
    it(f, () => {
      const text = fs.readFileSync(path.join(CORPUS, f), "utf8");
      // the corpus writes a -1 dimension on purpose (onnx reads it): the warning about it is expected
      const expected = f === "new-types.onnxtxt" ? ["warning negative-dimension"] : [];
      const r = modelFromText(text);
      assert.deepEqual(
        r.diagnostics.map((d) => `${d.severity} ${d.code}`),
        expected,
      );
      const flat = modelFromText(flatten(text));
      assert.deepEqual(
        flat.diagnostics.map((d) => `${d.severity} ${d.code}`),
        expected,
      );
      assert.ok(!flatten(text).includes("\n"));
      assert.deepEqual(toBinary(ModelProtoSchema, flat.model!), toBinary(ModelProtoSchema, r.model!));
    });
  }
});
