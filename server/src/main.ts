// The onnxtxt language server: `onnxtxt-ls --stdio` or `--node-ipc` (the transport is read
// from the command line by vscode-languageserver). Wires the connection to the handlers.
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { registerHandlers } from "./handlers.js";

export function startServer(): void {
  const connection = createConnection(ProposedFeatures.all);
  registerHandlers(connection);
  connection.listen();
}

startServer();
