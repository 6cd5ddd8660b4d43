// What every transport of the language server shares (Node's main.ts, the browser's
// browser-main.ts): the message order of priority.ts, the embedded-document layer, the
// handlers, and where runs happen (RunPlatform).
import type { Connection } from "vscode-languageserver";
import { withEmbeddedDocuments } from "./embedded/connection.js";
import { registerHandlers } from "./handlers.js";
import { wrapMalformedParams } from "./params.js";
import { positionRequestsFirst } from "./priority.js";
import type { RunPlatform } from "./run-command.js";

/** The position requests being answered (whole-document requests wait while there are any). */
export interface PositionCount {
  count: number;
}

/** The options to create the connection with. */
export function connectionOptions(positions: PositionCount): { messageStrategy: ReturnType<typeof positionRequestsFirst> } {
  return { messageStrategy: positionRequestsFirst(wrapMalformedParams, () => positions.count > 0) };
}

/** Registers the handlers on `connection` and starts listening. */
export function serve(connection: Connection, runs: RunPlatform, outputPending: () => boolean, positions: PositionCount): void {
  registerHandlers(withEmbeddedDocuments(connection), runs, outputPending, positions);
  connection.listen();
}
