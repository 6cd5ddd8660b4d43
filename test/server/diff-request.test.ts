// `onnxtxt/diff` over stdio: an open document against a text (and against another open
// document), with places in both; a side with errors and malformed params are refused in one line.
// And `onnxtxt/graph` with `compareTo`: the graph view's diff mode.
import * as assert from "node:assert/strict";
import type { LspClient } from "./lsp-client.js";
import { open, useServer } from "./lsp-helpers.js";

const A = `<ir_version: 10, opset_import: ["" : 21]>
g (float[N] x) => (float[N] y) {
  a = Relu (x)
  y = LeakyRelu <alpha = 0.5> (a)
}
`;
const B = A.replace("alpha = 0.5", "alpha = 0.25").replace(/\ba\b/g, "h");

interface Diff {
  equal: boolean;
  changes: { kind: string; message: string; a?: { line?: number }; b?: { line?: number } }[];
}

describe("language server: onnxtxt/diff", () => {
  let client: LspClient;
  useServer((c) => (client = c));

  it("compares an open document with a text and with another open document", async () => {
    const { uri } = await open(client, A);
    const d = (await client.request("onnxtxt/diff", { a: { uri }, b: { text: B } })) as Diff;
    assert.equal(d.equal, false);
    assert.deepEqual(
      d.changes.map((c) => [c.kind, c.message, c.a?.line, c.b?.line]),
      [
        ["value-renamed", "value a renamed to h", 3, 3],
        ["node-changed", "node LeakyRelu: attribute alpha: 0.5 -> 0.25", 4, 4],
      ],
    );
    const other = await open(client, B);
    const both = (await client.request("onnxtxt/diff", { a: { uri }, b: { uri: other.uri }, options: { ignoreNames: true } })) as Diff;
    assert.deepEqual(
      both.changes.map((c) => c.kind),
      ["node-changed"],
    );
    const same = (await client.request("onnxtxt/diff", { a: { uri }, b: { text: A } })) as Diff;
    assert.equal(same.equal, true);
  });

  it("refuses a side with errors and malformed params, in one line", async () => {
    await assert.rejects(client.request("onnxtxt/diff", { a: { text: A }, b: { text: "g (x) => (y) { y = " } }), /B does not read as a model/);
    await assert.rejects(client.request("onnxtxt/diff", { a: 1 }), /onnxtxt\/diff takes/);
  });

  it("onnxtxt/graph with compareTo marks the changed box of the document's graph", async () => {
    const { uri } = await open(client, B);
    const view = (await client.request("onnxtxt/graph", { uri, compareTo: { text: A } })) as {
      graph: { nodes: { id: string; label: string; diff?: { kind: string; messages: string[] } }[] };
    };
    const marked = view.graph.nodes.filter((n) => n.diff);
    assert.deepEqual(
      marked.map((n) => [n.id, n.label, n.diff!.kind]),
      [
        ["main/n0", "Relu", "changed"],
        ["main/n1", "LeakyRelu", "changed"],
      ],
    );
    assert.deepEqual(marked[1]!.diff!.messages, ["node LeakyRelu: attribute alpha: 0.5 -> 0.25"]);
    const plain = (await client.request("onnxtxt/graph", { uri })) as { graph: { nodes: { diff?: unknown }[] } };
    assert.ok(plain.graph.nodes.every((n) => n.diff === undefined));
  });
});
