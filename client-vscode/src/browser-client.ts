// VS Code for the Web's language client: the bundled browser server in a Web Worker.
import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/browser";
import { type ClientFactory, clientOptions } from "./language-client.js";

/** The DOM's Worker (this folder compiles without the DOM library; the web host has it). */
declare const Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[2];

const script = (context: vscode.ExtensionContext, name: string) => vscode.Uri.joinPath(context.extensionUri, "dist", name).toString(true);

export const createBrowserClient: ClientFactory = (context, settings, run) => {
  const worker = new Worker(script(context, "browser-server.js"));
  const options = clientOptions(settings, run);
  // The server starts its runs' worker from this URL (the host may start it from a blob: URL).
  options.initializationOptions = { ...(options.initializationOptions as object), runWorker: script(context, "run-worker-browser.js") };
  return new LanguageClient("onnxtxt", "ONNX Text Language Server", worker, options);
};
