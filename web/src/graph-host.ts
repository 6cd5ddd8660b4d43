// The host side of the extension's graph view (client-vscode/src/webview/graph-view.ts), which
// this page runs as is: it asks `acquireVsCodeApi()` for a channel to post to and reads the
// ELK worker's address from <body data-elk-worker>. Imported before that script so both are
// there when it starts. Its `reveal` messages come to `onReveal`.
import { elkWorker } from "playground:workers";
import type { FromView } from "../../client-vscode/src/webview/graph-messages.js";
import { scriptUrl } from "./blob-worker.js";

export const graphHost: { onReveal: (start: number, end: number) => void; ready: boolean } = { onReveal: () => {}, ready: false };

let state: unknown;
(globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
  postMessage(m: FromView): void {
    if (m.type === "ready") graphHost.ready = true;
    else if (m.type === "reveal") graphHost.onReveal(m.start, m.end);
  },
  getState: () => state,
  setState: (s: unknown) => {
    state = s;
  },
});
document.body.dataset["elkWorker"] = scriptUrl(elkWorker);
