import * as assert from "node:assert/strict";
import type { Message } from "vscode-languageserver/node";
import { positionRequestsFirst } from "../../server/src/priority.js";

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
});
