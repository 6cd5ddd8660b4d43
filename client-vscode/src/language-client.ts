// What the language client is, wherever it runs: its documents, settings and middleware, and
// the requests the extension sends. node-client.ts and browser-client.ts start it.
import type * as vscode from "vscode";
import { type BaseLanguageClient, ExecuteCommandRequest, type LanguageClientOptions } from "vscode-languageclient";
import type { GraphViewData } from "../../core/src/graph/view-data.js";
import type { RunCellArguments } from "../../core/src/ide/run-cell.js";
import { SETTINGS_SECTION, serverSettings, type Settings } from "./settings.js";

export const RUN_COMMAND = "onnxtxt.run";

/** The languages whose files can hold ONNX texts the server reads (docs/embedded.md). */
export const HOST_LANGUAGES = ["python", "cpp", "c", "markdown"] as const;

const DOCUMENT_SELECTOR = [{ language: "onnxtxt" }, ...HOST_LANGUAGES.map((language) => ({ language }))];

/** `run` takes over `onnxtxt.run` when the server registers it, so results reach the view. */
export function clientOptions(settings: Settings, run: (args: unknown[]) => Promise<unknown>): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: serverSettings(settings),
    synchronize: { configurationSection: SETTINGS_SECTION },
    middleware: {
      executeCommand: (command, args, next) => (command === RUN_COMMAND ? run(args) : next(command, args)),
      // In a host file the injection grammars colour the ONNX text; the server's tokens would take
      // the whole file's semantic colouring away from the host language's own extension.
      provideDocumentSemanticTokens: (doc, token, next) => (doc.languageId === "onnxtxt" ? next(doc, token) : null),
      provideDocumentSemanticTokensEdits: (doc, previous, token, next) => (doc.languageId === "onnxtxt" ? next(doc, previous, token) : null),
      provideDocumentRangeSemanticTokens: (doc, range, token, next) => (doc.languageId === "onnxtxt" ? next(doc, range, token) : null),
    },
  };
}

/** Starts a language client for `context` (a server process in the desktop, a worker on the web). */
export type ClientFactory = (context: vscode.ExtensionContext, settings: Settings, run: (args: unknown[]) => Promise<unknown>) => BaseLanguageClient;

export function sendRun(client: BaseLanguageClient, args: RunCellArguments): Promise<unknown> {
  return client.sendRequest(ExecuteCommandRequest.type, { command: RUN_COMMAND, arguments: [args] });
}

/** The graph view's data for an open document (the server's `onnxtxt/graph` request). */
/** `compareTo`: the text of a model to show the changes from (the graph view's diff mode); `position`: in a host file, the ONNX text there. */
export function requestGraph(client: BaseLanguageClient, uri: string, compareTo?: { text: string }, position?: vscode.Position): Promise<GraphViewData | null> {
  return client.sendRequest<GraphViewData | null>("onnxtxt/graph", {
    uri,
    ...(compareTo && { compareTo }),
    ...(position && { position: { line: position.line, character: position.character } }),
  });
}
