// Opset conversion over the protocol (issue #31 item 2): the removed-op fix and the model
// conversions are offered as code actions whose edits apply; a conversion that would leave
// nodes behind comes disabled with its reason (only to clients that show one); the
// onnxtxt/convertOpset request answers the VS Code command's quick pick for any target.
import * as assert from "node:assert/strict";
import { applyEdits, offsetOf, positionOf } from "../helpers/markers.js";
import { LspClient } from "./lsp-client.js";
import { close, open, type LspDiagnostic } from "./lsp-helpers.js";

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface TextEdit {
  range: Range;
  newText: string;
}
interface Action {
  title: string;
  kind: string;
  edit?: { changes: Record<string, TextEdit[]> };
  disabled?: { reason: string };
}

const UPSAMPLER = `<ir_version: 5, opset_import: ["" : 10]>
upsampler (float[1, 1, 4, 4] x) => (float[1, 1, 8, 8] y) <
  float[1, 1, 3, 3] k = {0, 1, 0, 1, -4, 1, 0, 1, 0},
  float[4] scales = {1, 1, 2, 2}
> {
  # edges, then doubled
  e = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, k)
  u = Upsample <mode = "nearest"> (e, scales)
  y = Relu (u)
}
`;

const GRID = `<ir_version: 8, opset_import: ["" : 16]>
g (float[1,1,2,2] x, float[1,2,2,2] grid) => (float[1,1,2,2] y) {
  y = GridSample (x, grid)
}
`;

function applied(text: string, edits: TextEdit[] | undefined): string {
  assert.ok(edits, "the action has an edit");
  return applyEdits(
    text,
    edits.map((e) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), newText: e.newText })),
  );
}

let docs = 0;

/** Opens `text` and waits for the diagnostics of its full analysis (the first ones may be the parse's). */
async function openChecked(client: LspClient, text: string): Promise<{ uri: string; diagnostics: LspDiagnostic[] }> {
  const uri = `file:///tmp/onnxtxt-test/opset${++docs}.onnxtxt`;
  const checked = client.waitFor("textDocument/publishDiagnostics", (p) => {
    const d = p as { uri: string; diagnostics: LspDiagnostic[] };
    return d.uri === uri && (!text.includes("Upsample") || d.diagnostics.some((x) => x.code === "op-not-in-opset"));
  });
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
  const { diagnostics } = (await checked) as { diagnostics: LspDiagnostic[] };
  return { uri, diagnostics };
}

async function actionsAt(client: LspClient, text: string, at: number): Promise<{ uri: string; actions: Action[]; codes: (string | undefined)[] }> {
  const { uri, diagnostics } = await openChecked(client, text);
  const p = positionOf(text, at);
  const actions = await client.request<Action[]>("textDocument/codeAction", { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics } });
  return { uri, actions, codes: diagnostics.map((d) => d.code) };
}

describe("language server: opset conversion actions", function () {
  let client: LspClient;
  let plain: LspClient;
  before(async () => {
    client = new LspClient();
    await client.initialize({ textDocument: { codeAction: { disabledSupport: true } } });
    plain = new LspClient();
    await plain.initialize();
  });
  after(async () => {
    await client.shutdown();
    await plain.shutdown();
  });

  it("converts a removed op's node with its quick fix", async () => {
    const { uri, actions, codes } = await actionsAt(client, UPSAMPLER, UPSAMPLER.indexOf("Upsample"));
    close(client, uri);
    assert.ok(codes.includes("op-not-in-opset"));
    const fix = actions.find((a) => a.title === "Convert this Upsample node to Resize");
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(fix.kind, "quickfix");
    const after = applied(UPSAMPLER, fix.edit?.changes[uri]);
    assert.equal(after, UPSAMPLER.replace('u = Upsample <mode = "nearest"> (e, scales)', 'u = Resize <mode = "nearest"> (e, scales)'));
    const again = await actionsAt(client, after, 0);
    close(client, again.uri);
    assert.ok(!again.codes.includes("op-not-in-opset"));
  });

  it("offers model conversions on opset_import as refactorings that apply", async () => {
    // Upsample cannot be read at opset 10, so the model moves only once its node is fixed.
    const removed = await actionsAt(client, UPSAMPLER, 20);
    close(client, removed.uri);
    const refused = removed.actions.find((a) => a.title === "Convert model to opset 11 (1 node cannot convert)");
    assert.match(refused?.disabled?.reason ?? "", /Upsample does not exist at opset 10/);
    const fixed = UPSAMPLER.replace("u = Upsample", "u = Resize");
    const { uri, actions } = await actionsAt(client, fixed, 20);
    close(client, uri);
    const up = actions.find((a) => a.title === "Convert model to opset 11");
    assert.ok(up, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(up.kind, "refactor.rewrite");
    const after = applied(fixed, up.edit?.changes[uri]);
    assert.match(after, /opset_import: \["" : 11\]/);
    assert.ok(after.includes("# edges, then doubled"));
  });

  it("disables a conversion that leaves nodes behind, with the reason, and leaves it out for clients that cannot show one", async () => {
    const { uri, actions } = await actionsAt(client, GRID, 20);
    close(client, uri);
    const down = actions.find((a) => a.title.startsWith("Convert model to opset 15"));
    assert.ok(down);
    assert.equal(down.title, "Convert model to opset 15 (1 node cannot convert)");
    assert.match(down.disabled?.reason ?? "", /GridSample first appears at opset 16/);
    assert.equal(down.edit, undefined);
    const other = await actionsAt(plain, GRID, 20);
    close(plain, other.uri);
    assert.ok(!other.actions.some((a) => a.title.startsWith("Convert model to opset 15")));
    assert.ok(other.actions.some((a) => a.title === "Convert model to opset 17"));
  });

  it("answers onnxtxt/convertOpset for any target", async () => {
    const { uri } = await open(client, GRID);
    const info = await client.request<{ from: number; latest: number }>("onnxtxt/convertOpset", { uri });
    assert.equal(info.from, 16);
    assert.ok(info.latest >= 21);
    const r = await client.request<{ conversion: { edits: TextEdit[]; refused: { message: string; range?: Range }[] } }>("onnxtxt/convertOpset", {
      uri,
      target: 20,
    });
    assert.deepEqual(r.conversion.refused, []);
    assert.match(applied(GRID, r.conversion.edits), /"" : 20/);
    const refused = await client.request<{ conversion: { edits: TextEdit[]; refused: { message: string; range?: Range }[] } }>("onnxtxt/convertOpset", {
      uri,
      target: 12,
    });
    close(client, uri);
    assert.deepEqual(refused.conversion.edits, []);
    assert.equal(refused.conversion.refused.length, 1);
    assert.equal(refused.conversion.refused[0]!.range?.start.line, 2);
  });
});
