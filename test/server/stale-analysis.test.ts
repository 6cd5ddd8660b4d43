// An edit that overtakes the incremental analysis of the one before (an undo right after a
// typo): that analysis is run to its end, and the newer edit splices into its tree rather than
// parsing the whole text again; the result is the same as analysing the final text afresh.
import * as assert from "node:assert/strict";
import { largeDocument } from "../../bench/lsp-document.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { Workspace } from "../../server/src/workspace.js";

describe("server: an edit that overtakes an incremental analysis", () => {
  it("splices into the overtaken analysis once it is finished, with the diagnostics of a fresh analysis", async () => {
    const uri = "file:///tmp/onnxtxt-test/stale.onnxtxt";
    const workspace = new Workspace(
      () => undefined,
      (_, e) => assert.fail(String(e)),
    );
    let text = largeDocument(3000);
    workspace.open(uri, "onnxtxt", 1, text);
    assert.ok(await workspace.fullAnalysis(uri));
    const at = text.indexOf(" = Add (", text.length / 2) + 6;
    const lines = text.slice(0, at).split("\n");
    const position = { line: lines.length - 1, character: lines[lines.length - 1]!.length };
    // The typo: its analysis is spliced and has only parsed when the undo comes.
    workspace.change(uri, 2, [{ range: { start: position, end: position }, text: "x" }]);
    await workspace.syntaxAnalysis(uri);
    assert.ok(workspace.spliced(uri), "the typo is analysed incrementally");
    assert.equal(workspace.ready(uri), undefined, "its analysis is not complete yet");
    workspace.change(uri, 3, [{ range: { start: position, end: { line: position.line, character: position.character + 1 } }, text: "" }]);
    await workspace.syntaxAnalysis(uri);
    assert.ok(workspace.spliced(uri), "the undo is analysed incrementally too");
    const a = await workspace.fullAnalysis(uri);
    text = workspace.document(uri)!.getText();
    assert.deepEqual(
      a?.diagnostics.map((d) => `${d.code} ${d.span?.start}`),
      analyze(text).diagnostics.map((d) => `${d.code} ${d.span?.start}`),
    );
    workspace.close(uri);
  });
});
