import * as assert from "node:assert/strict";
import type { Message } from "vscode-languageserver/node";
import { virtualUri } from "../../server/src/embedded/hosts.js";
import { HeldRequests, positionRequestsFirst } from "../../server/src/priority.js";

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("server: requests by cost", () => {
  it("dispatches a hover sent after whole-document requests before them, notifications at once, the outline last", async () => {
    const order: string[] = [];
    const strategy = positionRequestsFirst({
      handleMessage: (m, next) => {
        next(m);
      },
    });
    const send = (m: Message): void => {
      void strategy.handleMessage(m, (x) => {
        order.push((x as unknown as { method: string }).method);
      });
    };
    // As the connection hands them over: one message per event-loop turn.
    const burst: Message[] = [
      { jsonrpc: "2.0", method: "textDocument/didChange", params: {} } as Message,
      { jsonrpc: "2.0", id: 1, method: "textDocument/semanticTokens/full/delta", params: {} } as Message,
      { jsonrpc: "2.0", id: 2, method: "textDocument/documentSymbol", params: {} } as Message,
      { jsonrpc: "2.0", id: 3, method: "textDocument/codeAction", params: {} } as Message,
      { jsonrpc: "2.0", id: 4, method: "textDocument/hover", params: {} } as Message,
    ];
    for (const m of burst) {
      send(m);
      await turn();
    }
    assert.deepEqual(order, ["textDocument/didChange", "textDocument/hover"]);
    for (let i = 0; i < 4; i++) await turn();
    // The small answers first; the outline, which can be a megabyte, last.
    assert.deepEqual(order, [
      "textDocument/didChange",
      "textDocument/hover",
      "textDocument/codeAction",
      "textDocument/semanticTokens/full/delta",
      "textDocument/documentSymbol",
    ]);
  });

  it("holds whole-document requests while a position request is being answered, for at most 200 ms", async () => {
    const order: string[] = [];
    let hoverAnswering = true;
    const strategy = positionRequestsFirst(
      {
        handleMessage: (m, next) => {
          next(m);
        },
      },
      () => hoverAnswering,
    );
    const send = (m: Message): void => {
      void strategy.handleMessage(m, (x) => {
        order.push((x as unknown as { method: string }).method);
      });
    };
    send({ jsonrpc: "2.0", id: 1, method: "textDocument/codeLens", params: {} } as Message);
    for (let i = 0; i < 10; i++) await turn();
    assert.deepEqual(order, [], "released while the hover was still being answered");
    hoverAnswering = false;
    for (let i = 0; i < 3; i++) await turn();
    assert.deepEqual(order, ["textDocument/codeLens"]);
    // A position request that never ends does not hold them for ever.
    hoverAnswering = true;
    send({ jsonrpc: "2.0", id: 2, method: "textDocument/foldingRange", params: {} } as Message);
    const start = performance.now();
    while (order.length < 2 && performance.now() - start < 2000) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(order, ["textDocument/codeLens", "textDocument/foldingRange"]);
    assert.ok(performance.now() - start >= 190, `released after ${performance.now() - start} ms`);
  });

  it("lets a handler wait until an outline request held back for its document has been handed over", async () => {
    const order: string[] = [];
    const requests = new HeldRequests();
    const strategy = positionRequestsFirst({ handleMessage: (m, next) => next(m) }, () => false, requests);
    const send = (m: Message): void => {
      void strategy.handleMessage(m, (x) => {
        order.push((x as unknown as { method: string }).method);
      });
    };
    const doc = (uri: string) => ({ textDocument: { uri } });
    send({ jsonrpc: "2.0", id: 1, method: "textDocument/semanticTokens/full", params: doc("file:///a") } as Message);
    for (let i = 0; i < 4; i++) await turn();
    assert.deepEqual(order, ["textDocument/semanticTokens/full"]);
    // The outline arrives while the tokens are being answered: held back, then handed over.
    send({ jsonrpc: "2.0", id: 2, method: "textDocument/documentSymbol", params: doc("file:///a") } as Message);
    let handedOverAt = -1;
    void requests.handedOver("textDocument/documentSymbol", "file:///a").then(() => (handedOverAt = order.length));
    let otherAt = -1;
    void requests.handedOver("textDocument/documentSymbol", "file:///b").then(() => (otherAt = order.length));
    await turn();
    assert.equal(otherAt, 1, "nothing of file:///b is held: at once");
    assert.equal(handedOverAt, -1, "resolved while the outline was still held");
    for (let i = 0; i < 4; i++) await turn();
    assert.deepEqual(order, ["textDocument/semanticTokens/full", "textDocument/documentSymbol"]);
    assert.equal(handedOverAt, 2, "resolved only after the outline was dispatched");
  });

  it("counts an outline held for a Python file as held for each ONNX text in it", async () => {
    const requests = new HeldRequests();
    requests.hold("textDocument/documentSymbol", { textDocument: { uri: "file:///m.py" } });
    let region = false;
    let other = false;
    void requests.handedOver("textDocument/documentSymbol", virtualUri("file:///m.py", 1)).then(() => (region = true));
    void requests.handedOver("textDocument/documentSymbol", virtualUri("file:///n.py", 1)).then(() => (other = true));
    await turn();
    assert.deepEqual({ region, other }, { region: false, other: true });
    requests.released();
    await turn();
    assert.equal(region, true);
  });
});
