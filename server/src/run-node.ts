// Runs in Node: each cell in a worker thread (run-worker.ts), terminated when an edit makes it
// stale, with test_data_set_0 beside the file as its inputs (the only file IO of a run).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ErrorCodes, ResponseError } from "vscode-languageserver";
import { readCheckedAsync, type ReadRules } from "../../core/src/io/data-files.js";
import { FileError } from "../../core/src/io/files.js";
import type { RunPlatform } from "./run-command.js";
import type { RunJob, RunReply } from "./run-protocol.js";

/** The worker script, beside this module (a bundler must emit it as its own entry). */
const WORKER_URL = new URL("./run-worker.js", import.meta.url);

/** One worker kept warm between runs; a cancelled run's worker is terminated instead. */
let idle: Worker | undefined;

/**
 * The worker's own heap: a run that fills it ends the worker, not the server (V8 otherwise
 * aborts the whole process). Tensors live outside it, held by the run's memory cap.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 };

function takeWorker(): Worker {
  const w = idle ?? new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS });
  idle = undefined;
  return w;
}

function release(w: Worker): void {
  if (idle) void w.terminate();
  else {
    idle = w;
    w.unref();
  }
}

function runInWorker(job: RunJob, signal: AbortSignal): Promise<RunReply> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ ok: false, message: "the run was cancelled by an edit" });
    const worker = takeWorker();
    worker.ref();
    const finish = (): void => {
      signal.removeEventListener("abort", cancel);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const cancel = (): void => {
      finish();
      void worker.terminate();
      resolve({ ok: false, message: "the run was cancelled by an edit" });
    };
    const onMessage = (reply: RunReply): void => {
      finish();
      release(worker);
      resolve(reply);
    };
    // The worker died (its heap limit, or a crash): the run failed, the server goes on.
    const onError = (e: Error & { code?: string }): void => {
      finish();
      void worker.terminate();
      resolve({
        ok: false,
        message:
          e.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `the run ran out of memory (more than the run worker's ${WORKER_LIMITS.maxOldGenerationSizeMb} MB heap) and was stopped`
            : `the run worker failed and was stopped: ${e.message}`,
      });
    };
    const onExit = (code: number): void => {
      finish();
      resolve({ ok: false, message: `the run worker stopped unexpectedly (exit code ${code})` });
    };
    signal.addEventListener("abort", cancel, { once: true });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job);
  });
}

/** Input files bigger than this are refused (the run itself has its own memory cap). */
const MAX_INPUT_FILE_BYTES = 512 * 1024 * 1024;

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * input_0.pb, input_1.pb, ... of `test_data_set_0` next to the document, if it is a file. Read
 * without blocking the server, under the CLI's rules (regular files inside the folder, one
 * hard link, bounded size): a FIFO or a link to /dev/zero there is an error, not a hang.
 */
async function readDataSet(uri: string): Promise<Uint8Array[] | undefined> {
  if (!uri.startsWith("file:")) return undefined;
  const dir = path.join(path.dirname(fileURLToPath(uri)), "test_data_set_0");
  if (!(await exists(dir))) return undefined;
  const rules: ReadRules = { within: dir, folderName: "test_data_set_0", singleLink: true, maxBytes: MAX_INPUT_FILE_BYTES };
  const files: Uint8Array[] = [];
  for (let i = 0; ; i++) {
    const file = path.join(dir, `input_${i}.pb`);
    if (!(await exists(file))) return files;
    try {
      files.push(await readCheckedAsync(file, rules));
    } catch (e) {
      if (e instanceof FileError) throw new ResponseError(ErrorCodes.InvalidRequest, `${e.file}: ${e.message}`);
      throw e;
    }
  }
}

export const nodeRuns: RunPlatform = { runJob: runInWorker, readDataSet };
