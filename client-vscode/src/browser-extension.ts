// VS Code for the Web's entry point (vscode.dev, github.dev, a local web build): the language
// server runs in a Web Worker and files are read through vscode.workspace.fs.
import type * as vscode from "vscode";
import { activateWith, deactivateClient } from "./activate.js";
import { createBrowserClient } from "./browser-client.js";
import { workspaceExternalData } from "./workspace-external-data.js";

export function activate(context: vscode.ExtensionContext): Promise<void> {
  return activateWith(context, { createClient: createBrowserClient, externalData: workspaceExternalData });
}

export const deactivate = deactivateClient;
