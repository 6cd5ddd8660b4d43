// The desktop extension's entry point: the language server runs as a Node process and
// external data is read from disk under onnx's rules.
import * as path from "node:path";
import type * as vscode from "vscode";
import { readDataRange } from "../../core/src/io/data-files.js";
import { activateWith, deactivateClient } from "./activate.js";
import { createNodeClient } from "./node-client.js";
import { workspaceExternalData } from "./workspace-external-data.js";

export function activate(context: vscode.ExtensionContext): Promise<void> {
  return activateWith(context, {
    createClient: createNodeClient,
    externalData: async (uri, text) => {
      if (uri.scheme !== "file") return workspaceExternalData(uri, text);
      const dir = path.dirname(uri.fsPath);
      return { baseDir: dir, read: readDataRange(dir) };
    },
  });
}

export const deactivate = deactivateClient;
