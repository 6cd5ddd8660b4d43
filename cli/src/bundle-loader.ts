// Runs the CLI's CommonJS bundle (dist/cli/src/main.bundle.cjs, made by scripts/bundle-cli.ts)
// with a V8 code cache (core/src/node/code-cache.ts), one per command (each compiles other
// functions), and asks for the command's start-up snapshot after a run that did its work.
import { cacheDir, runCached } from "../../core/src/node/code-cache.js";
import type { Output } from "./command.js";
import { requestSnapshot } from "./snapshot-request.js";

interface BundleExports {
  main(argv: readonly string[], io: Output): Promise<number>;
  processOutput(): Output;
}

/** Runs the bundle's `main` on `argv` and returns its exit code. */
export async function runBundle(bundle: string, argv: readonly string[]): Promise<number> {
  const dir = cacheDir();
  const cli = runCached<BundleExports>(bundle, argv[0] ?? "", dir);
  const code = await cli.exports.main(argv, cli.exports.processOutput());
  // Made from a run that did the command's work (not --help, not a usage error), so that it
  // holds the functions the command's next runs will need.
  const worked = code !== 2 && !argv.includes("--help") && !argv.includes("-h");
  if (worked) {
    cli.saveCache();
    requestSnapshot(bundle, dir, argv[0] ?? "");
  }
  return code;
}
