// The railroad diagrams in docs/grammar.html are drawn from the parser's productions by a
// script; a committed page that no longer matches the grammar fails here.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { DIAGRAMS_FILE, generatedDiagramsText } from "../../scripts/gen-grammar-diagrams.js";

describe("grammar railroad diagrams (docs/grammar.html)", () => {
  it("are up to date with the parser's rules", () => {
    assert.equal(fs.readFileSync(DIAGRAMS_FILE, "utf8"), generatedDiagramsText(), "run node dist/scripts/gen-grammar-diagrams.js");
  });

  it("show every rule, including the whole-model and node rules", () => {
    const html = generatedDiagramsText();
    for (const rule of ["model", "header", "graph", "node", "attributeList", "typeExpr", "tensorData"]) assert.match(html, new RegExp(`"name":\\s*"${rule}"`));
  });
});
