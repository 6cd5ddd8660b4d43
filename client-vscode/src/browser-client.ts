// VS Code for the Web's language client: the bundled browser server in a Web Worker.
import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/browser";
import { type ClientFactory, clientOptions } from "./language-client.js";

/** The DOM's Worker (this folder compiles without the DOM library; the web host has it). */
declare const Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[2];

export const createBrowserClient: ClientFactory = (context, settings, run) => {
  const worker = new Worker(vscode.Uri.joinPath(context.extensionUri, "dist/browser-server.js").toString(true));
  return new LanguageClient("onnxtxt", "ONNX Text Language Server", worker, clientOptions(settings, run));
};
