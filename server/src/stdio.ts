// The stdio transport with a writer that writes each message as it is sent. The library's
// stream writer puts every message behind a setImmediate of its own, so on a busy server a
// diagnostics publication or a response waits behind every handler continuation queued before
// it: on the 50k-node document the open's diagnostics waited for the first folds and semantic
// tokens. Writes to one stream go out in the order they are made, so no queue is needed.
// (Over IPC the library already sends each message at once.)
import { format } from "node:util";
import { AbstractMessageWriter, type Connection, type Message, type MessageWriter } from "vscode-languageserver/node";
import { describeMessage, type Trace } from "./trace.js";

export class ImmediateWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  /** `trace`: each message's size and when it was handed to the stream (trace.ts). */
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly trace?: Trace,
  ) {
    super();
    out.on("error", (e: Error) => this.fireError(e));
    out.on("close", () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(msg), "utf8");
    this.trace?.(`out ${describeMessage(msg)} ${body.byteLength} B`);
    this.out.write(`Content-Length: ${body.byteLength}\r\n\r\n`, "ascii");
    return new Promise((resolve, reject) => {
      this.out.write(body, (error) => {
        if (!error) {
          this.errors = 0;
          resolve();
          return;
        }
        this.errors++;
        this.fireError(error, msg, this.errors);
        reject(error);
      });
    });
  }

  end(): void {
    this.out.end();
  }
}

/**
 * What the library does for `--stdio` when it makes the streams itself: stdout carries the
 * protocol, so the console goes to the client's log; the server exits when stdin ends (with
 * 1 unless the client asked for a shutdown first).
 */
export function adoptStdio(connection: Connection): void {
  const log = connection.console;
  console.log = (...args: unknown[]) => log.log(format(...args));
  console.info = (...args: unknown[]) => log.info(format(...args));
  console.debug = (...args: unknown[]) => log.log(format(...args));
  console.warn = (...args: unknown[]) => log.warn(format(...args));
  console.error = (...args: unknown[]) => log.error(format(...args));
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  const exit = (): never => process.exit(shutdown ? 0 : 1);
  process.stdin.on("end", exit);
  process.stdin.on("close", exit);
}
