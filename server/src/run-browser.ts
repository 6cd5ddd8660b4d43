// Runs when the server is in a browser's Web Worker (VS Code for the Web): each cell in a
// nested worker (run-worker-browser.js, whose URL the client gives as initializationOptions
// `runWorker`: a host may start the server from a blob: URL, with nothing beside it),
// terminated when an edit makes the run stale. A browser document has no folder to read
// test_data_set_0 from, so inputs come from the directives and the defaults.
import type { RunPlatform } from "./run-command.js";
import type { RunJob, RunReply } from "./run-protocol.js";

interface RunWorker {
  onmessage: ((e: { data: RunReply }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  postMessage(job: RunJob): void;
  terminate(): void;
}

declare const Worker: new (url: string) => RunWorker;

/** The run worker's script, from the client's initializationOptions. */
let workerUrl: string | undefined;

function runInWorker(job: RunJob, signal: AbortSignal): Promise<RunReply> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ ok: false, message: "the run was cancelled by an edit" });
    if (workerUrl === undefined)
      return resolve({ ok: false, message: "this client gave no run worker (initializationOptions.runWorker), so runs are not available" });
    const worker = new Worker(workerUrl);
    const done = (reply: RunReply): void => {
      signal.removeEventListener("abort", cancel);
      worker.terminate();
      resolve(reply);
    };
    const cancel = (): void => done({ ok: false, message: "the run was cancelled by an edit" });
    signal.addEventListener("abort", cancel, { once: true });
    worker.onmessage = (e) => done(e.data);
    worker.onerror = (e) => done({ ok: false, message: `the run worker failed and was stopped: ${e.message ?? "unknown error"}` });
    worker.postMessage(job);
  });
}

export const browserRuns: RunPlatform = {
  runJob: runInWorker,
  readDataSet: () => Promise.resolve(undefined),
  initialize(options) {
    const url = (options as { runWorker?: unknown } | null | undefined)?.runWorker;
    workerUrl = typeof url === "string" ? url : undefined;
  },
};
