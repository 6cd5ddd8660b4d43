// The graph view beside the text (ONNX: Show Graph): a webview that follows its document.
// Edits bring a new picture at most every REFRESH_MS; moving the cursor selects the node under
// it; clicking a node selects its statement in the text.
import * as vscode from "vscode";
import type { GraphViewData } from "../../core/src/graph/view-data.js";
import { nonce } from "./run-panel.js";
import { graphPageHtml } from "./webview/graph-page.js";
import type { FromView, ToView } from "./webview/graph-messages.js";

const REFRESH_MS = 150;

/** `compareTo`: in diff mode, the text of the model the changes are from. */
type GraphSource = (uri: string, compareTo?: { text: string }) => Promise<GraphViewData | null>;

export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private document: vscode.TextDocument | undefined;
  private column: vscode.ViewColumn | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** Diff mode: the model (text) the changes are shown from, and its name. */
  private compareTo: { text: string; name: string } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: GraphSource,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document && e.contentChanges.length > 0) this.schedule();
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document !== this.document || !e.selections[0]) return;
        this.column = e.textEditor.viewColumn;
        void this.post({ type: "cursor", offset: e.textEditor.document.offsetAt(e.selections[0].active) });
      }),
    ];
  }

  show(editor: vscode.TextEditor, compareTo?: { text: string; name: string }): void {
    this.document = editor.document;
    this.column = editor.viewColumn;
    this.compareTo = compareTo;
    const name = vscode.workspace.asRelativePath(editor.document.uri, false).split("/").pop();
    const title = compareTo ? `Graph changes: ${compareTo.name} → ${name}` : `Graph: ${name}`;
    if (this.panel) {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      void this.refresh();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    const panel = vscode.window.createWebviewPanel(
      "onnxtxt.graph",
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [dist],
        retainContextWhenHidden: true,
      },
    );
    panel.webview.html = graphPageHtml({
      cspSource: panel.webview.cspSource,
      nonce: nonce(),
      script: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, "graph-view.js")).toString(),
      elkWorker: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, "elk-worker.js")).toString(),
    });
    panel.webview.onDidReceiveMessage((m: FromView) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.panel = undefined;
      clearTimeout(this.timer);
    });
    this.panel = panel;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
  }

  private async refresh(): Promise<void> {
    const doc = this.document;
    if (!doc || !this.panel) return;
    try {
      const data = await this.source(doc.uri.toString(), this.compareTo && { text: this.compareTo.text });
      if (doc === this.document) await this.post({ type: "graph", ...(data && { data }) });
    } catch (e) {
      void vscode.window.showErrorMessage(`ONNX graph: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async post(message: ToView): Promise<void> {
    await this.panel?.webview.postMessage(message);
  }

  private onMessage(m: FromView): void {
    const doc = this.document;
    if (!doc) return;
    if (m.type === "ready") {
      void this.refresh().then(() => {
        const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
        if (editor) void this.post({ type: "cursor", offset: doc.offsetAt(editor.selection.active) });
      });
    } else if (m.type === "reveal") {
      const selection = new vscode.Range(doc.positionAt(m.start), doc.positionAt(m.end));
      void vscode.window.showTextDocument(doc, { selection, viewColumn: this.column ?? vscode.ViewColumn.One, preserveFocus: false });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
