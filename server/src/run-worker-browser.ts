// The Web Worker run-cells execute in when the server itself runs in a browser worker
// (run-browser.ts starts it beside the server's script).
import "./browser/immediate.js";
import { handleRunJob } from "./run-job.js";
import type { RunJob, RunReply } from "./run-protocol.js";

/** The worker's global scope, as far as it is used here (this project compiles without the DOM library). */
declare const self: { onmessage: ((e: { data: RunJob }) => void) | null; postMessage(reply: RunReply): void };

self.onmessage = (e) => {
  void handleRunJob(e.data).then((reply) => self.postMessage(reply));
};
