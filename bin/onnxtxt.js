#!/usr/bin/env node
// Runs the CLI from the single-file bundle `npm run build` makes (much faster start-up, and a
// code cache: dist/cli/src/bundle-loader.js), or from the compiled modules when the bundle is
// missing or older than the last tsc build. An installed package has no tsc build record (it
// is not packed), so there the bundle is used when present.
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

// A larger young generation: reading a big model makes millions of short-lived objects, and with
// the default 16 MB the scavenger runs so often that a 1M-node check spent 40% of its time in GC.
setFlagsFromString("--max-semi-space-size=32");

const dist = new URL("../dist/", import.meta.url);
const bundle = fileURLToPath(new URL("cli/src/main.bundle.cjs", dist));
function bundleIsFresh() {
  const built = new URL(".tsbuildinfo", dist);
  try {
    return existsSync(built) ? statSync(bundle).mtimeMs >= statSync(built).mtimeMs : existsSync(bundle);
  } catch {
    return false;
  }
}
const argv = process.argv.slice(2);
if (bundleIsFresh()) {
  const { runBundle } = await import(new URL("cli/src/bundle-loader.js", dist).href);
  process.exitCode = await runBundle(bundle, argv);
} else {
  const { main, processOutput } = await import(new URL("cli/src/main.js", dist).href);
  process.exitCode = await main(argv, processOutput());
}
