// Run-cell under limits (issue 22, item 9): a cell whose run would take 3.6 GB (and whose
// output would be 900 million numbers of text) used to abort the whole language server. It
// now fails against the run's memory cap, and the server goes on answering.
import * as assert from "node:assert/strict";
import { LspClient, RpcError } from "../server/lsp-client.js";
import { close, open, useServer } from "../server/lsp-helpers.js";

const HUGE = `<ir_version: 8, opset_import: ["" : 18]>
g (float[1] x) => (float y) {
  s = Constant <value = int64[2] {30000, 30000}> ()
  y = ConstantOfShape <value = float[1] {1}> (s)
}
`;

const SMALL = `<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float y) {
  y = Relu (x)
}
`;

describe("run-cell limits: the language server survives a run that is too big", function () {
  this.timeout(60_000);
  let client: LspClient;
  useServer((c) => (client = c), { cleanExit: true });

  const run = (args: unknown) => client.request<{ outputs: { text: string }[] }>("workspace/executeCommand", { command: "onnxtxt.run", arguments: [args] });

  it("a 3.6 GB run fails with the memory cap named, and the next run works", async () => {
    const huge = await open(client, HUGE);
    await assert.rejects(run({ uri: huge.uri }), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.equal(e.message, "a tensor of 900000000 float elements would exceed the memory limit");
      return true;
    });
    close(client, huge.uri);
    const small = await open(client, SMALL);
    const r = await run({ uri: small.uri, inputs: { x: "float[2] {-1, 2}" } });
    assert.equal(r.outputs[0]!.text, "float[2] {0, 2}");
    close(client, small.uri);
  });

  it("a huge declared input shape is held to the same cap", async () => {
    const doc = await open(client, SMALL.replace("float[2] x", "float[100000, 100000] x"));
    await assert.rejects(run({ uri: doc.uri }), /a tensor of 10000000000 float elements would exceed the memory limit/);
    close(client, doc.uri);
  });
});
