// A small JSON-RPC client that speaks to the server over stdio like an editor would:
// Content-Length framing, requests with ids, and notifications kept for inspection.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";

export const SERVER_BIN = path.join(REPO, "bin/onnxtxt-ls.js");

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export interface Notification {
  readonly method: string;
  readonly params: unknown;
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class LspClient {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private readonly chunks: Buffer[] = [];
  /** Bytes in `buffer` and `chunks`; `needed`: how many the message being received takes. */
  private received = 0;
  private needed = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((n: Notification) => void)[] = [];
  readonly notifications: Notification[] = [];
  /** The methods of the requests the server sent, in order. */
  readonly serverRequests: string[] = [];
  stderr = "";

  /** `nodeArgs`: options for the server's node (a benchmark's `--cpu-prof`); `env`: its environment, if not this one. */
  constructor(args: string[] = ["--stdio"], script = SERVER_BIN, nodeArgs: string[] = [], env?: NodeJS.ProcessEnv) {
    this.proc = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: "pipe", ...(env && { env }) });
    this.proc.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    this.proc.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.proc.on("exit", () => {
      for (const p of this.pending.values()) p.reject(new Error(`server exited; stderr: ${this.stderr}`));
      this.pending.clear();
    });
  }

  request<R = unknown>(method: string, params: unknown): Promise<R> {
    const id = this.nextId++;
    this.write({ jsonrpc: "2.0", id, method, params });
    return new Promise<R>((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /** Resolves with the first notification (already received or future) that matches. */
  waitFor(method: string, match: (params: unknown) => boolean = () => true, timeoutMs = 20000): Promise<unknown> {
    const seen = this.notifications.find((n) => n.method === method && match(n.params));
    if (seen) return Promise.resolve(seen.params);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${method}`)), timeoutMs);
      this.listeners.push((n) => {
        if (n.method === method && match(n.params)) {
          clearTimeout(timer);
          resolve(n.params);
        }
      });
    });
  }

  /** Forgets notifications received so far (e.g. before an edit, to wait for fresh ones). */
  clearNotifications(): void {
    this.notifications.length = 0;
  }

  async initialize(capabilities: Record<string, unknown> = {}, initializationOptions?: unknown): Promise<{ capabilities: Record<string, unknown> }> {
    const r = await this.request<{ capabilities: Record<string, unknown> }>("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities,
      ...(initializationOptions !== undefined && { initializationOptions }),
    });
    this.notify("initialized", {});
    return r;
  }

  async shutdown(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.on("exit", () => resolve()));
    try {
      await this.request("shutdown", null);
      this.notify("exit", null);
    } catch {
      this.proc.kill();
    }
    await exited;
  }

  get exitCode(): number | null {
    return this.proc.exitCode;
  }

  private write(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    // A big message comes in many chunks: they are joined once it is all there, not one by one
    // (that copying grows with the square of its size and would count against the server).
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.received < this.needed) return;
    this.buffer = Buffer.concat([this.buffer, ...this.chunks.splice(0)]);
    this.received = this.buffer.length;
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString();
      const m = /Content-Length: (\d+)/i.exec(header);
      if (!m) throw new Error(`bad header: ${header}`);
      const length = Number(m[1]);
      this.needed = headerEnd + 4 + length;
      if (this.buffer.length < this.needed) return;
      this.needed = 0;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.received = this.buffer.length;
      this.dispatch(JSON.parse(body) as Record<string, unknown>);
    }
  }

  private dispatch(msg: Record<string, unknown>): void {
    if (typeof msg.id === "number" && ("result" in msg || "error" in msg)) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      const err = msg.error as { code: number; message: string } | undefined;
      if (err) p.reject(new RpcError(err.code, err.message));
      else p.resolve(msg.result);
    } else if (typeof msg.method === "string" && msg.id !== undefined) {
      // A request from the server (e.g. workspace/configuration): answer with nothing.
      this.serverRequests.push(msg.method);
      this.write({ jsonrpc: "2.0", id: msg.id, result: null });
    } else if (typeof msg.method === "string") {
      const n = { method: msg.method, params: msg.params };
      this.notifications.push(n);
      for (const l of this.listeners) l(n);
    }
  }
}
