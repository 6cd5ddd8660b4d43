// Reading extension comments back: what they change, and what happens when they are wrong.
import { strict as assert } from "node:assert";
import { isFieldSet } from "@bufbuild/protobuf";
import { NodeProtoSchema } from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";

const BASE = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) {
  y = Relu (x)
}
`;

function withLine(before: string, line: string): string {
  return BASE.replace(before, `${line}\n${before}`);
}

describe("extension comments", () => {
  it("apply node fields and model defaults", () => {
    const r = modelFromText(withLine("  y = Relu", '#@node {"doc_string":"rectifies","metadata_props":[{"key":"k","value":"v"}]}'));
    const node = r.model!.graph!.node[0]!;
    assert.equal(node.docString, "rectifies");
    assert.deepEqual(
      node.metadataProps.map((p) => [p.key, p.value]),
      [["k", "v"]],
    );
    assert.ok(isFieldSet(node, NodeProtoSchema.field.domain), "the official parser sets domain");
    const unset = modelFromText(`#@model {"@node_domain":"unset"}\n` + BASE);
    assert.ok(!isFieldSet(unset.model!.graph!.node[0]!, NodeProtoSchema.field.domain));
  });

  it("are ordinary comments when they do not start with '@'", () => {
    const r = modelFromText(withLine("  y = Relu", "# node {not json}"));
    assert.deepEqual(r.diagnostics, []);
  });

  it("report malformed JSON and unknown fields as errors at the comment", () => {
    const text = withLine("  y = Relu", "#@node {doc_string: 1}");
    const r = modelFromText(text);
    const d = r.diagnostics.find((x) => x.code === "extension");
    assert.ok(d && d.severity === "error" && d.span);
    assert.equal(text.slice(d.span.start, d.span.start + 7), "#@node ");
    const unknown = modelFromText(withLine("  y = Relu", '#@node {"no_such_field": 1}'));
    assert.ok(unknown.diagnostics.some((x) => x.code === "extension" && x.severity === "error" && /no field 'no_such_field'/.test(x.message)));
  });

  it("warn when nothing of their kind follows", () => {
    const r = modelFromText(BASE + '#@node {"doc_string":"orphan"}\n');
    assert.ok(r.model);
    assert.ok(r.diagnostics.some((x) => x.code === "extension" && x.severity === "warning" && /not followed by a node/.test(x.message)));
  });
});
