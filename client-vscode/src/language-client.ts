// Starts the bundled language server (or the one `onnxtxt.server.path` names) over IPC.
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import type { GraphViewData } from "../../core/src/graph/view-data.js";
import type { RunCellArguments } from "../../core/src/ide/run-cell.js";
import { SETTINGS_SECTION, serverSettings, type Settings } from "./settings.js";

export const RUN_COMMAND = "onnxtxt.run";

function serverModulePath(context: vscode.ExtensionContext, settings: Settings): string {
  return settings.serverPath || context.asAbsolutePath("dist/server.js");
}

/** `run` takes over `onnxtxt.run` when the server registers it, so results reach the view. */
export function createLanguageClient(context: vscode.ExtensionContext, settings: Settings, run: (args: unknown[]) => Promise<unknown>): LanguageClient {
  const module = serverModulePath(context, settings);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: "onnxtxt" }],
    initializationOptions: serverSettings(settings),
    synchronize: { configurationSection: SETTINGS_SECTION },
    middleware: {
      executeCommand: (command, args, next) => (command === RUN_COMMAND ? run(args) : next(command, args)),
    },
  };
  return new LanguageClient("onnxtxt", "ONNX Text Language Server", serverOptions, clientOptions);
}

export function sendRun(client: LanguageClient, args: RunCellArguments): Promise<unknown> {
  return client.sendRequest(ExecuteCommandRequest.type, { command: RUN_COMMAND, arguments: [args] });
}

/** The graph view's data for an open document (the server's `onnxtxt/graph` request). */
/** `compareTo`: the text of a model to show the changes from (the graph view's diff mode). */
export function requestGraph(client: LanguageClient, uri: string, compareTo?: { text: string }): Promise<GraphViewData | null> {
  return client.sendRequest<GraphViewData | null>("onnxtxt/graph", { uri, ...(compareTo && { compareTo }) });
}
