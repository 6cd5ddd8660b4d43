// What the CLI's start-up snapshot holds. scripts/bundle-cli.ts makes this file into
// dist/cli/src/snapshot-builder.cjs, and cli/src/snapshot-request.ts runs it as
//   node --snapshot-blob OUT --build-snapshot snapshot-builder.cjs
// It evaluates the command's bundle (main.COMMAND.snapshot.cjs, the CLI with that command
// only), loads the command and runs its core work once on a small model (cli/src/warm-up.ts),
// so that a process started from the snapshot has the parser built, the schemas read and the
// hot functions compiled. The snapshot's main function runs the
// command, unless the bundle is no longer the one the snapshot was made from: then it removes
// the snapshot and runs the command as if there had been none.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as v8 from "node:v8";
import type { Output } from "./command.js";

interface BundleExports {
  main(argv: readonly string[], io: Output): Promise<number>;
  processOutput(): Output;
  warmUp(command: string): Promise<void>;
}

/** The bundle's size and time, and whether a tsc build is newer (bin/onnxtxt.js then runs the modules). */
function identity(bundle: string): string {
  try {
    const st = fs.statSync(bundle);
    const built = path.join(path.dirname(bundle), "../../.tsbuildinfo");
    const stale = fs.existsSync(built) && fs.statSync(built).mtimeMs > st.mtimeMs;
    return `${st.size}-${st.mtimeMs}${stale ? "-stale" : ""}`;
  } catch {
    return "gone";
  }
}

const bundle = process.env.ONNXTXT_SNAPSHOT_BUNDLE;
const command = process.env.ONNXTXT_SNAPSHOT_COMMAND;
if (!v8.startupSnapshot.isBuildingSnapshot() || !bundle || !command)
  throw new Error("snapshot-builder: run by `node --build-snapshot` with ONNXTXT_SNAPSHOT_BUNDLE and ONNXTXT_SNAPSHOT_COMMAND");
const made = identity(bundle);

// While building, only Node's own modules can be required; once deserialised, the bundle's
// external packages (onnxruntime-node) come from beside it.
let requireNow: (id: string) => unknown = require;
const exports = { exports: {} as BundleExports };
const source = fs.readFileSync(bundle, "utf8");
new Function("exports", "require", "module", "__filename", "__dirname", source)(
  exports.exports,
  (id: string) => requireNow(id),
  exports,
  bundle,
  path.dirname(bundle),
);
const cli = exports.exports;

/** Runs the command in a new process without the snapshot, and ends this one as it ended. */
function runWithoutSnapshot(bin: string, argv: readonly string[]): void {
  const blob = process.env.ONNXTXT_SNAPSHOT_BLOB;
  if (blob) fs.rmSync(blob, { force: true });
  const r = spawnSync(process.execPath, [bin, ...argv], { stdio: "inherit" });
  if (r.signal) process.kill(process.pid, r.signal);
  process.exitCode = r.status ?? 2;
}

void cli.warmUp(command).then(() => {
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    // argv: node, this package's bin/onnxtxt.js, the command's arguments.
    const [, bin = "", ...argv] = process.argv;
    if (identity(bundle) !== made) return runWithoutSnapshot(bin, argv);
    requireNow = createRequire(bundle);
    if (process.env.ONNXTXT_TRACE_START) process.stderr.write(`onnxtxt: started from the snapshot ${process.env.ONNXTXT_SNAPSHOT_BLOB}\n`);
    void cli.main(argv, cli.processOutput()).then((code) => {
      process.exitCode = code;
    });
  });
});
