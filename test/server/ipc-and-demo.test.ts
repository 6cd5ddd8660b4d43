// The other transport (--node-ipc) and the stand-alone client script (no project code).
import * as assert from "node:assert/strict";
import { execFileSync, fork } from "node:child_process";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";
import { SERVER_BIN } from "./lsp-client.js";

describe("language server transports and clients", function () {
  it("answers initialize over --node-ipc", async () => {
    const child = fork(SERVER_BIN, ["--node-ipc"], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
    try {
      const reply = await new Promise<{ id: number; result: { capabilities: Record<string, unknown> } }>((resolve, reject) => {
        child.on("message", (m) => {
          const msg = m as { id?: number };
          if (msg.id === 1) resolve(m as { id: number; result: { capabilities: Record<string, unknown> } });
        });
        child.on("error", reject);
        child.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } });
      });
      assert.ok(reply.result.capabilities.hoverProvider);
    } finally {
      child.kill();
    }
  });

  it("serves the stand-alone python client everything it asks for", () => {
    const out = execFileSync("/usr/bin/python3", [path.join(REPO, "scripts/lsp-demo.py")], { encoding: "utf8", timeout: 60000 });
    for (const line of [
      "valid file diagnostics: []",
      "broken file: line 4:",
      "hover on W: float[4, 2] W",
      "hover on h: float[N, 2] h",
      "rename h -> hidden: [(3, 2, 'hidden'), (4, 12, 'hidden')]",
      "formatting edits: [(3, '  h = MatMul (x, W)\\n')]",
      "run-cell: [{'name': 'y', 'type': 'float[1, 2]', 'text': 'float[1, 2] {0, 0}'}]",
      "hover on h after the run: float[1, 2] {-6, -6}",
      "server exit code: 0",
    ])
      assert.ok(out.includes(line), `missing ${JSON.stringify(line)} in:\n${out}`);
    assert.match(out, /completion after '= Re': \d+ ops, including \['Relu', 'Reshape', 'Resize'\]/);
  });
});
