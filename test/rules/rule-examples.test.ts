// Every rule page's bad example reports its code through the pipeline `check` runs (lowering,
// then checkModel with the source map), and its fixed example does not.
import { strict as assert } from "node:assert";
import { modelFromText } from "../../core/src/text.js";
import { checkModel } from "../../core/src/check/index.js";
import { RULE_DOCS } from "../../core/src/check/rule-docs.js";

/** Codes the text cannot show: they come from files, the CLI or the formatter. */
const NO_EXAMPLE = new Set([
  "missing-graph",
  "embedded-skipped",
  "unused-suppression",
  "unknown-suppression-code",
  "opset-below-minimum",
  "format",
  "external-data",
  "file",
  "internal",
  "tensor-data-type",
]);

function codesOf(text: string): string[] {
  const r = modelFromText(text);
  const codes = r.diagnostics.map((d) => d.code);
  if (r.model) codes.push(...checkModel(r.model, { ...(r.sourceMap && { sourceMap: r.sourceMap }), suggestNames: true }).map((d) => d.code));
  return codes;
}

describe("rule pages: examples", () => {
  it("every code has an example unless the text cannot show it", () => {
    for (const r of RULE_DOCS) assert.equal(r.example === undefined, NO_EXAMPLE.has(r.code), r.code);
  });
  for (const r of RULE_DOCS) {
    if (!r.example) continue;
    const { bad, fixed } = r.example;
    it(`${r.code}: the bad example reports it, the fixed one has no problem at all`, () => {
      assert.ok(codesOf(bad).includes(r.code), `${r.code}: bad example reports ${JSON.stringify(codesOf(bad))}`);
      assert.deepEqual(codesOf(fixed), [], `${r.code}: fixed example`);
    });
  }
});
