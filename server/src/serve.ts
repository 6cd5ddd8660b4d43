// What every transport of the language server shares (Node's main.ts, the browser's
// browser-main.ts): the message order of priority.ts, the embedded-document layer, the
// handlers, and where runs happen (RunPlatform).
import type { Connection, MessageStrategy } from "vscode-languageserver";
import { withEmbeddedDocuments } from "./embedded/connection.js";
import { registerHandlers } from "./handlers.js";
import { wrapMalformedParams } from "./params.js";
import { positionRequestsFirst, type OrderState } from "./priority.js";
import type { RunPlatform } from "./run-command.js";
import { tracedStrategy, type Trace } from "./trace.js";

/** The options to create the connection with; `trace`: a timeline of the messages (trace.ts). */
export function connectionOptions(state: OrderState, trace?: Trace): { messageStrategy: MessageStrategy } {
  const order = (inner: MessageStrategy): MessageStrategy => positionRequestsFirst(inner, () => state.count > 0, state.held);
  return { messageStrategy: trace ? tracedStrategy(order, wrapMalformedParams, trace) : order(wrapMalformedParams) };
}

/** Registers the handlers on `connection` and starts listening. */
export function serve(connection: Connection, runs: RunPlatform, outputPending: () => boolean, state: OrderState): void {
  registerHandlers(withEmbeddedDocuments(connection), runs, outputPending, state);
  connection.listen();
}
