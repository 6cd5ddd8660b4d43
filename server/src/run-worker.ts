// The worker thread run-cells execute in, so a long run never blocks the server and an edit
// can cancel it by terminating the thread. It stays alive between runs (module loading is
// the slow part of starting one) and re-analyses the text of each job it is given.
import { parentPort } from "node:worker_threads";
import { handleRunJob } from "./run-job.js";
import type { RunJob } from "./run-protocol.js";

parentPort!.on("message", (job: RunJob) => {
  void handleRunJob(job).then((reply) => parentPort!.postMessage(reply));
});
