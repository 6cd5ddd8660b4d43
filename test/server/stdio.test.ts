import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { PassThrough, Writable } from "node:stream";
import { ImmediateWriter } from "../../server/src/stdio.js";
import { SERVER_BIN } from "./lsp-client.js";

function frame(message: unknown): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe("server: the stdio writer", () => {
  it("puts each framed message on the stream before write returns, in order", async () => {
    const out = new PassThrough();
    const writer = new ImmediateWriter(out);
    const first = { jsonrpc: "2.0", method: "textDocument/publishDiagnostics", params: { uri: "file:///é.onnxtxt", diagnostics: [] } };
    const second = { jsonrpc: "2.0", id: 1, result: null };
    const written = [writer.write(first), writer.write(second)];
    // Nothing waited for a later turn of the event loop (the library's writer does).
    assert.equal(out.read()?.toString("utf8"), frame(first) + frame(second));
    await Promise.all(written);
  });

  it("rejects a write the stream fails and reports it as an error", async () => {
    const broken = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error("EPIPE")) });
    broken.on("error", () => undefined);
    const writer = new ImmediateWriter(broken);
    const errors: string[] = [];
    writer.onError(([e]) => errors.push(e.message));
    const response = { jsonrpc: "2.0", id: 1, result: null };
    await assert.rejects(writer.write(response), /EPIPE/);
    assert.ok(errors.includes("EPIPE"), errors.join());
  });

  it("exits with 1 when its client goes away without a shutdown", async () => {
    const server = spawn(process.execPath, [SERVER_BIN, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    server.stdin.end();
    assert.equal(await exited, 1);
  });
});
