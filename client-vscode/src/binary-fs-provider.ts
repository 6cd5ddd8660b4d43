// The `onnxtxt-binary:` FileSystemProvider: VS Code edits a binary .onnx as text through it,
// and saving writes binary back. Each text view follows changes to its binary file.
import * as vscode from "vscode";
import { BinaryAsText } from "./binary-as-text.js";
import { textViewOf } from "./uris.js";
import { toUri } from "./vscode-host.js";

export class BinaryFsProvider implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  constructor(private readonly content: BinaryAsText) {}

  watch(viewUri: vscode.Uri): vscode.Disposable {
    const binary = toUri(this.content.binaryOf(viewUri));
    if (binary.scheme !== "file") return new vscode.Disposable(() => undefined);
    const dir = vscode.Uri.joinPath(binary, "..");
    const name = binary.path.slice(binary.path.lastIndexOf("/") + 1);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, name));
    const fire = (type: vscode.FileChangeType) => () => this.changes.fire([{ type, uri: toUri(textViewOf(binary)) }]);
    watcher.onDidChange(fire(vscode.FileChangeType.Changed));
    watcher.onDidDelete(fire(vscode.FileChangeType.Deleted));
    return watcher;
  }

  async stat(viewUri: vscode.Uri): Promise<vscode.FileStat> {
    const s = await vscode.workspace.fs.stat(toUri(this.content.binaryOf(viewUri)));
    return { type: vscode.FileType.File, ctime: s.ctime, mtime: s.mtime, size: s.size };
  }

  async readFile(viewUri: vscode.Uri): Promise<Uint8Array> {
    try {
      return await this.content.read(viewUri);
    } catch (e) {
      if (e instanceof vscode.FileSystemError) throw e;
      throw vscode.FileSystemError.Unavailable(e instanceof Error ? e.message : String(e));
    }
  }

  async writeFile(viewUri: vscode.Uri, content: Uint8Array): Promise<void> {
    await this.content.write(viewUri, content);
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri: viewUri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    throw vscode.FileSystemError.NoPermissions("onnxtxt-binary: only single models can be opened");
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions("onnxtxt-binary: only single models can be opened");
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions("onnxtxt-binary: delete the .onnx file instead");
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions("onnxtxt-binary: rename the .onnx file instead");
  }
}
