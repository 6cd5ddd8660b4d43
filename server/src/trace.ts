// A timeline of what the server does, for finding out why a request was slow: each message's
// arrival, when its handler started, when its response left (with its size), and the
// diagnostics published; one line each, stamped with the wall clock in milliseconds (so that
// it lines up with a client's own log). Off unless asked for (main.ts: ONNXTXT_LS_TRACE=1,
// written to stderr, which editors show in the server's output channel).
import type { Message, MessageStrategy } from "vscode-languageserver";

export type Trace = (event: string) => void;

/** A trace that writes each event on a line of its own through `write`. */
export function traceTo(write: (line: string) => void): Trace {
  return (event) => write(`${(performance.timeOrigin + performance.now()).toFixed(1)} ${event}\n`);
}

/** What a message is, in a few words: `hover#12`, `didChange`, `response#12`. */
export function describeMessage(message: Message): string {
  const m = message as { method?: unknown; id?: unknown; params?: { textDocument?: { version?: unknown } } };
  const method = typeof m.method === "string" ? m.method.replace(/^(textDocument|workspace)\//, "") : "response";
  const version = m.params?.textDocument?.version;
  return `${method}${m.id !== undefined ? `#${String(m.id)}` : ""}${typeof version === "number" ? ` v${version}` : ""}`;
}

/** `inner`, tracing each message as it arrives (`in`) and as it is handed to its handler (`start`). */
export function tracedStrategy(outer: (inner: MessageStrategy) => MessageStrategy, inner: MessageStrategy, trace: Trace): MessageStrategy {
  const strategy = outer({
    handleMessage(message, next) {
      trace(`start ${describeMessage(message)}`);
      inner.handleMessage(message, next);
    },
  });
  return {
    handleMessage(message, next) {
      trace(`in ${describeMessage(message)}`);
      strategy.handleMessage(message, next);
    },
  };
}

/**
 * Traces each time the event loop was held up for more than `threshold` ms (`blocked N ms`):
 * a timer due every few milliseconds that ran that much late. Unref'd where the platform can.
 */
export function traceBlocking(trace: Trace, threshold = 15): void {
  const every = 2;
  let due = performance.now() + every;
  const tick = (): void => {
    const now = performance.now();
    if (now - due > threshold) trace(`blocked ${(now - due).toFixed(0)} ms`);
    due = now + every;
    const t = setTimeout(tick, every) as unknown as { unref?: () => void };
    t.unref?.();
  };
  const t = setTimeout(tick, every) as unknown as { unref?: () => void };
  t.unref?.();
}
