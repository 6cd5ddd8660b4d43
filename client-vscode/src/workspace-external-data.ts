// External data read through vscode.workspace.fs, for documents that are not files on a local
// disk (VS Code for the Web, virtual file systems). The converter reads synchronously, so the
// files the text names are read first; a file that cannot be read fails the conversion with
// its name, as a missing file on disk does.
import * as vscode from "vscode";
import { externalRef, isExternal, resolveExternalPath } from "../../core/src/io/external-data.js";
import { modelFromText } from "../../core/src/text.js";
import { walkModel } from "../../core/src/walk.js";
import type { ExternalDataSource } from "./model-converter.js";

/** The folder of `uri` (its path up to the last `/`). */
function folderOf(uri: vscode.Uri): vscode.Uri {
  return uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf("/")) || "/" });
}

/** The external-data files `text` names, as paths below `baseDir`; none when it does not parse. */
function referencedFiles(text: string, baseDir: string): Set<string> {
  const files = new Set<string>();
  const { model } = modelFromText(text);
  if (!model) return files;
  walkModel(model, {
    tensor(t) {
      if (!isExternal(t)) return;
      try {
        files.add(resolveExternalPath(baseDir, externalRef(t).location));
      } catch {
        // The conversion reports a bad location itself, with the tensor's name.
      }
    },
  });
  return files;
}

export async function workspaceExternalData(uri: vscode.Uri, text: string): Promise<ExternalDataSource> {
  const folder = folderOf(uri);
  const baseDir = folder.path;
  const contents = new Map<string, Uint8Array | Error>();
  for (const file of referencedFiles(text, baseDir)) {
    try {
      contents.set(file, await vscode.workspace.fs.readFile(folder.with({ path: file })));
    } catch (e) {
      contents.set(file, e instanceof Error ? e : new Error(String(e)));
    }
  }
  return {
    baseDir,
    read(absPath, offset, length) {
      const bytes = contents.get(absPath);
      if (bytes === undefined) throw new Error(`${absPath}: external data was not read beside ${uri.toString(true)}`);
      if (bytes instanceof Error) throw new Error(`${absPath}: ${bytes.message}`);
      if (offset > bytes.length || (length !== undefined && offset + length > bytes.length)) {
        throw new Error(`${absPath}: ${length ?? "the"} bytes at offset ${offset} run past the end of the file (${bytes.length} bytes)`);
      }
      return bytes.subarray(offset, length === undefined ? bytes.length : offset + length);
    },
  };
}
