// The EditorHost and FileAccess over the real VS Code API.
import * as vscode from "vscode";
import type { EditorHost } from "./editor-host.js";
import type { UriParts } from "./uris.js";

export function toUri(u: UriParts): vscode.Uri {
  return u instanceof vscode.Uri ? u : vscode.Uri.from(u);
}

export const vscodeHost: EditorHost = {
  async exists(uri) {
    try {
      await vscode.workspace.fs.stat(toUri(uri));
      return true;
    } catch {
      return false;
    }
  },
  async readFile(uri) {
    return vscode.workspace.fs.readFile(toUri(uri));
  },
  async writeFile(uri, bytes) {
    await vscode.workspace.fs.writeFile(toUri(uri), bytes);
  },
  info(message) {
    void vscode.window.showInformationMessage(message);
  },
  error(message) {
    void vscode.window.showErrorMessage(message);
  },
  async ask(message, ...actions) {
    return vscode.window.showWarningMessage(message, { modal: true }, ...actions);
  },
  async suggest(message, ...actions) {
    return vscode.window.showInformationMessage(message, ...actions);
  },
};
