// esbuild options for a bundle run as a classic script, which core/src/node/code-cache.ts can
// run with a V8 code cache (Node 20 caches no ES module's compilation) and a start-up snapshot
// can hold: scripts/bundle-cli.ts's CLI, per-command snapshot and language server bundles, and
// scripts/package-vscode.ts's server for the extension.
import type { BuildOptions } from "esbuild";

export const CACHED_SCRIPT = {
  format: "cjs",
  // The bundle's own URL wherever the sources ask for theirs.
  define: { "import.meta.url": "__bundleUrl" },
  // import() as require(): a script run from a code cache has no loader for dynamic imports in Node 20.
  supported: { "dynamic-import": false },
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
} as const satisfies BuildOptions;
