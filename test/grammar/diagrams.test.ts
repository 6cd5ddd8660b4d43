// The railroad diagrams in docs/grammar.html are drawn from the parser's productions by a
// script; a committed page that no longer matches the grammar fails here.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { DIAGRAMS_FILE, generatedDiagramsText } from "../../scripts/gen-grammar-diagrams.js";

describe("grammar railroad diagrams (docs/grammar.html)", () => {
  it("are up to date with the parser's rules", () => {
    assert.equal(fs.readFileSync(DIAGRAMS_FILE, "utf8"), generatedDiagramsText(), "run node dist/scripts/gen-grammar-diagrams.js");
  });

  it("carry their renderer: no script, style or link from the network", () => {
    const html = fs.readFileSync(DIAGRAMS_FILE, "utf8");
    assert.doesNotMatch(html, /<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=/i, "nothing loaded by address");
    assert.doesNotMatch(html, /@import|url\(\s*['"]?https?:/i, "no style from elsewhere");
    assert.match(html, /Apache License 2\.0/, "the renderer's license is named");
    assert.match(html, /function Diagram|Diagram\(/, "railroad-diagrams.js is inlined");
  });

  it("show every rule, including the whole-model and node rules", () => {
    const html = generatedDiagramsText();
    for (const rule of ["model", "header", "graph", "node", "attributeList", "typeExpr", "tensorData"]) assert.match(html, new RegExp(`"name":\\s*"${rule}"`));
  });
});
