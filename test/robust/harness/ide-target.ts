// The editor features (core/ide) on fuzzed text: every feature at a spread of offsets, with
// the spans it returns checked to lie inside the text. The server adds only LSP conversion.
import { analyze } from "../../../core/src/ide/analyze.js";
import { codeActions } from "../../../core/src/ide/code-actions.js";
import { completion } from "../../../core/src/ide/completion.js";
import { foldingRanges } from "../../../core/src/ide/folding.js";
import { formatEdits } from "../../../core/src/ide/formatting.js";
import { hover } from "../../../core/src/ide/hover.js";
import { inlayHints } from "../../../core/src/ide/inlay-hints.js";
import { definition, documentHighlights, references } from "../../../core/src/ide/navigation.js";
import { documentOutline } from "../../../core/src/ide/outline.js";
import { prepareRename, rename } from "../../../core/src/ide/rename.js";
import { semanticTokens } from "../../../core/src/ide/semantic-tokens.js";
import { signatureHelp } from "../../../core/src/ide/signature-help.js";
import type { Span } from "../../../grammar/src/span.js";
import { textDiagnosticProblems } from "./invariants.js";
import type { TextTarget } from "./targets.js";

/** Offsets to probe: both ends, and a spread over the text nudged onto punctuation. */
function probes(text: string): number[] {
  const out = new Set([0, text.length]);
  for (let k = 1; k <= 6; k++) {
    const at = Math.floor((text.length * k) / 7);
    out.add(at);
    const punct = text.slice(at).search(/[(<=,@.]/);
    if (punct >= 0) out.add(at + punct + 1);
  }
  return [...out];
}

function spanProblems(spans: readonly Span[], length: number, what: string): string[] {
  return spans
    .filter((s) => !(s.start >= 0 && s.start <= s.end && s.end <= length))
    .map((s) => `${what} span [${s.start}, ${s.end}) outside the text (${length})`);
}

export const IDE_TARGET: TextTarget = {
  name: "ide",
  run(text) {
    const a = analyze(text);
    const n = text.length;
    const problems = textDiagnosticProblems(a.diagnostics, n);
    semanticTokens(a);
    foldingRanges(a);
    documentOutline(a);
    formatEdits(a);
    inlayHints(a, 0, n);
    codeActions(a, { start: 0, end: n });
    for (const at of probes(text)) {
      hover(a, at);
      completion(a, at);
      signatureHelp(a, at);
      problems.push(...spanProblems(definition(a, at), n, "definition"));
      problems.push(...spanProblems(references(a, at, true), n, "references"));
      documentHighlights(a, at);
      prepareRename(a, at);
      rename(a, at, "renamed");
      codeActions(a, { start: at, end: Math.min(n, at + 3) });
    }
    return problems;
  },
};
