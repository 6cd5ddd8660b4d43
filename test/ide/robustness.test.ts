// Broken text is normal input: every feature answers at every offset of valid documents and
// of their truncations, without throwing.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { analyze } from "../../core/src/ide/analyze.js";
import { codeActions } from "../../core/src/ide/code-actions.js";
import { codeLenses } from "../../core/src/ide/code-lens.js";
import { completion } from "../../core/src/ide/completion.js";
import { foldingRanges } from "../../core/src/ide/folding.js";
import { hover } from "../../core/src/ide/hover.js";
import { inlayHints } from "../../core/src/ide/inlay-hints.js";
import { definition, documentHighlights, references } from "../../core/src/ide/navigation.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { prepareRename, rename } from "../../core/src/ide/rename.js";
import { semanticTokens } from "../../core/src/ide/semantic-tokens.js";
import { signatureHelp } from "../../core/src/ide/signature-help.js";
import { REPO } from "../helpers/paths.js";

const EXAMPLES = path.join(REPO, "examples");

function exercise(text: string): number {
  const a = analyze(text);
  let answers = 0;
  documentOutline(a);
  foldingRanges(a);
  semanticTokens(a);
  codeLenses(a);
  inlayHints(a, 0, text.length);
  for (let offset = 0; offset <= text.length; offset++) {
    if (hover(a, offset)) answers++;
    definition(a, offset);
    references(a, offset, true);
    documentHighlights(a, offset);
    completion(a, offset);
    signatureHelp(a, offset);
    if (prepareRename(a, offset).ok) rename(a, offset, "renamed_value");
    codeActions(a, { start: offset, end: offset });
  }
  return answers;
}

describe("ide: robustness", () => {
  for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".onnxtxt"))) {
    it(`answers everywhere in ${file} and its truncations`, () => {
      const text = fs.readFileSync(path.join(EXAMPLES, file), "utf8");
      assert.ok(exercise(text) > 0, "no hover anywhere in a valid example");
      // Truncations cut statements, lists and strings in the middle.
      for (let cut = 7; cut < text.length; cut += Math.max(7, Math.floor(text.length / 12))) exercise(text.slice(0, cut));
    });
  }
});
