// The webview that shows run results; one panel, reused for every run.
import * as vscode from "vscode";
import { widenLimit } from "./run-cell.js";
import type { RunFailure } from "./run-protocol.js";
import { renderRunView, type RunViewModel } from "./run-view.js";

export function nonce(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < 32; i++) out += chars.charAt(Math.floor(Math.random() * chars.length));
  return out;
}

interface ViewMessage {
  readonly action?: unknown;
  readonly output?: unknown;
}

export class RunPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private model: RunViewModel | undefined;
  private failureAt: { uri: string; failure: RunFailure } | undefined;
  readonly diagnostics = vscode.languages.createDiagnosticCollection("onnxtxt-run");

  show(model: RunViewModel): void {
    this.model = model;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "onnxtxt.runOutput",
        "ONNX Run",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((m: ViewMessage) => this.onMessage(m));
    }
    this.panel.title = `Run: ${model.title}`;
    this.panel.webview.html = renderRunView(model, nonce(), this.panel.webview.cspSource);
    this.panel.reveal(undefined, true);
  }

  markFailure(uri: string, failure: RunFailure | undefined): void {
    const target = vscode.Uri.parse(uri);
    this.failureAt = failure ? { uri, failure } : undefined;
    if (!failure?.range) {
      this.diagnostics.delete(target);
      return;
    }
    const r = failure.range;
    const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
    const d = new vscode.Diagnostic(range, `run failed: ${failure.message}`, vscode.DiagnosticSeverity.Error);
    d.source = "onnxtxt run";
    this.diagnostics.set(target, [d]);
  }

  private onMessage(m: ViewMessage): void {
    if ((m.action === "more" || m.action === "all") && typeof m.output === "number" && this.model) {
      this.show(widenLimit(this.model, m.output, m.action === "all"));
    } else if (m.action === "reveal" && this.failureAt?.failure.range) {
      const r = this.failureAt.failure.range;
      const selection = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
      void vscode.window.showTextDocument(vscode.Uri.parse(this.failureAt.uri), { selection, viewColumn: vscode.ViewColumn.One });
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.diagnostics.dispose();
  }
}
