// A full semantic-token response (megabytes of JSON on a big document) goes out after the
// outline asked for in the same tick, even when the tokens are ready first (carried across an
// edit): queued behind them, the outline reached the client tens of milliseconds late.
import * as assert from "node:assert/strict";
import { largeDocument } from "../../bench/lsp-document.js";
import { LspClient } from "./lsp-client.js";

describe("language server: the order of whole-document responses", function () {
  this.timeout(120_000);
  let client: LspClient;
  before(async () => {
    client = new LspClient();
    await client.initialize({});
  });
  after(() => client.shutdown());

  it("sends the outline before the full tokens asked for with it, after an edit in one statement", async () => {
    const uri = "file:///tmp/onnxtxt-test/response-order.onnxtxt";
    let text = largeDocument(20_000);
    const doc = { textDocument: { uri } };
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
    await Promise.all([client.request("textDocument/semanticTokens/full", doc), client.request("textDocument/documentSymbol", doc)]);
    for (let version = 2; version <= 4; version++) {
      // A name made longer inside one statement: the tokens of the version before are carried.
      const at = text.indexOf(" = Add (", Math.floor((text.length * version) / 6));
      const line = text.slice(0, at).split("\n").length - 1;
      const character = at - (text.lastIndexOf("\n", at - 1) + 1);
      text = `${text.slice(0, at)}x${text.slice(at)}`;
      client.notify("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: "x" }],
      });
      const order: string[] = [];
      const noted = async <T>(name: string, response: Promise<T>): Promise<T> => {
        const r = await response;
        order.push(name);
        return r;
      };
      const tokens = noted("tokens", client.request<{ data: number[] }>("textDocument/semanticTokens/full", doc));
      const symbols = noted("symbols", client.request<unknown[]>("textDocument/documentSymbol", doc));
      const [t, s] = await Promise.all([tokens, symbols]);
      assert.ok(t.data.length > 100_000 && s.length > 0);
      assert.deepEqual(order, ["symbols", "tokens"], `version ${version}`);
    }
  });
});
