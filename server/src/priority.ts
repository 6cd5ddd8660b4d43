// Requests by cost: the connection hands the server one message per event-loop turn in arrival
// order, so a hover sent right after an edit would wait for the semantic tokens, outline, folds
// and code actions the editor asked for just before it. Those whole-document requests are held
// back until no message has arrived for two turns; position requests go ahead of them.
import type { MessageStrategy } from "vscode-languageserver/node";

const WHOLE_DOCUMENT = new Set([
  "textDocument/semanticTokens/full",
  "textDocument/semanticTokens/full/delta",
  "textDocument/documentSymbol",
  "textDocument/foldingRange",
  "textDocument/codeLens",
  "textDocument/codeAction",
]);

/** `inner`, with whole-document requests dispatched after the messages queued behind them. */
export function positionRequestsFirst(inner: MessageStrategy): MessageStrategy {
  const held: (() => void)[] = [];
  let seen = 0;
  let waiting = false;
  /** Looks again next turn; `lastSeen` is the count of messages when it was scheduled. */
  const later = (quietTurns: number): void => {
    const lastSeen = seen;
    setImmediate(() => release(lastSeen, quietTurns));
  };
  const release = (lastSeen: number, quietTurns: number): void => {
    const quiet = seen === lastSeen ? quietTurns + 1 : 0;
    if (quiet < 2) {
      later(quiet);
      return;
    }
    waiting = false;
    for (const dispatch of held.splice(0)) dispatch();
  };
  return {
    handleMessage(message, next) {
      seen++;
      const method = (message as { method?: unknown }).method;
      if (typeof method !== "string" || !WHOLE_DOCUMENT.has(method) || !("id" in message)) {
        inner.handleMessage(message, next);
        return;
      }
      held.push(() => inner.handleMessage(message, next));
      if (!waiting) {
        waiting = true;
        later(0);
      }
    },
  };
}
