#!/usr/bin/env node
// Runs the CLI from the single-file bundle `npm run build` makes (much faster start-up), or from
// the compiled modules when the bundle is missing or older than the last tsc build.
import { statSync } from "node:fs";

const dist = new URL("../dist/", import.meta.url);
function bundleIsFresh() {
  try {
    return statSync(new URL("core/src/cli/main.bundle.mjs", dist)).mtimeMs >= statSync(new URL(".tsbuildinfo", dist)).mtimeMs;
  } catch {
    return false;
  }
}
const entry = bundleIsFresh() ? "core/src/cli/main.bundle.mjs" : "core/src/cli/main.js";
const { main, processOutput } = await import(new URL(entry, dist).href);

process.exitCode = await main(process.argv.slice(2), processOutput());
