// Requests by cost: the connection hands the server one message per event-loop turn in arrival
// order, so a hover sent right after an edit would wait for the semantic tokens, outline, folds
// and code actions the editor asked for just before it. Those whole-document requests are held
// back until no message has arrived for two turns and no position request is being answered;
// position requests go ahead of them, and among them the small answers go first.
import type { MessageStrategy } from "vscode-languageserver";
import { hostOfVirtual } from "./embedded/hosts.js";

/**
 * The whole-document requests, in the order they are released: the small answers first, the
 * outline (up to a megabyte of JSON on a big document) last, so that none waits behind it.
 */
const WHOLE_DOCUMENT_ORDER = [
  "textDocument/codeLens",
  "textDocument/foldingRange",
  "textDocument/codeAction",
  "textDocument/semanticTokens/full/delta",
  "textDocument/semanticTokens/full",
  "textDocument/documentSymbol",
];
const RANK = new Map(WHOLE_DOCUMENT_ORDER.map((method, i) => [method, i]));

/**
 * How long whole-document work waits, at most, for position requests still being answered:
 * queued requests here, and the slices of one already running (slices.ts).
 */
export const MAX_HOLD_MS = 200;

/**
 * The whole-document requests held back, not yet handed to the handlers. A handler that must
 * answer after one of them (a full token response after the outline asked with it, which may
 * reach the server a few turns later) waits until they are handed over, all at once.
 */
export class HeldRequests {
  private readonly requests: { readonly method: string; readonly uri: unknown }[] = [];
  private readonly waiting: (() => void)[] = [];

  hold(method: string, params: unknown): void {
    this.requests.push({ method, uri: (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri });
  }

  /** The held requests have been handed over. */
  released(): void {
    this.requests.length = 0;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /**
   * Resolves once no `method` request on `uri` is held: at once, or when the held ones are handed
   * over. An ONNX text inside a Python, C++ or Markdown file has a virtual URI of its own; the
   * client's request names the host file.
   */
  handedOver(method: string, uri: string): Promise<void> {
    const host = hostOfVirtual(uri)?.host;
    if (!this.requests.some((r) => r.method === method && (r.uri === uri || r.uri === host))) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** What the message order and the handlers share. */
export interface OrderState {
  /** The position requests being answered (whole-document requests wait while there are any). */
  count: number;
  readonly held: HeldRequests;
  /** The messages the transport has read (arrivals.ts), before the connection hands them over. */
  arrived: number;
}

export function orderState(): OrderState {
  return { count: 0, held: new HeldRequests(), arrived: 0 };
}

/**
 * `inner`, with whole-document requests dispatched after the messages queued behind them, and
 * while `positionBusy()` (a hover waiting for the analysis of an edit) after it, within MAX_HOLD_MS.
 * `requests` hears which are held and when they are handed over.
 */
export function positionRequestsFirst(inner: MessageStrategy, positionBusy: () => boolean = () => false, requests?: HeldRequests): MessageStrategy {
  const held: { rank: number; dispatch: () => void }[] = [];
  let seen = 0;
  let waiting = false;
  let heldSince = 0;
  /** Looks again next turn; `lastSeen` is the count of messages when it was scheduled. */
  const later = (quietTurns: number): void => {
    const lastSeen = seen;
    setImmediate(() => release(lastSeen, quietTurns));
  };
  const release = (lastSeen: number, quietTurns: number): void => {
    const quiet = seen === lastSeen ? quietTurns + 1 : 0;
    if (quiet < 2 || (positionBusy() && performance.now() - heldSince < MAX_HOLD_MS)) {
      later(quiet);
      return;
    }
    waiting = false;
    // A stable sort: requests of one kind keep their order.
    for (const { dispatch } of held.splice(0).sort((a, b) => a.rank - b.rank)) dispatch();
    requests?.released();
  };
  return {
    handleMessage(message, next) {
      seen++;
      const method = (message as { method?: unknown }).method;
      const rank = typeof method === "string" ? RANK.get(method) : undefined;
      if (rank === undefined || !("id" in message)) {
        inner.handleMessage(message, next);
        return;
      }
      held.push({ rank, dispatch: () => inner.handleMessage(message, next) });
      requests?.hold(method as string, (message as { params?: unknown }).params);
      if (!waiting) {
        waiting = true;
        heldSince = performance.now();
        later(0);
      }
    },
  };
}
