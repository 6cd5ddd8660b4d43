// Part of `npm run build`: bundles the CLI with esbuild into one file beside the compiled
// main.js (dist/core/src/cli/main.bundle.mjs, so paths taken from import.meta.url still hold)
// and the kernels' helper thread to dist/core/src/cli/helper.js, where the bundle looks for
// it. Loading one file instead of ~280 modules takes a fraction of the start-up time of every
// command. bin/onnxtxt.js uses the bundle only when it is newer than the last tsc build.
//   node dist/scripts/bundle-cli.js
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI_DIR = path.join(REPO, "dist/core/src/cli");

async function main(): Promise<number> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    console.error("bundle-cli: esbuild is not installed; the CLI runs unbundled");
    return 0;
  }
  const common = {
    bundle: true,
    platform: "node" as const,
    format: "esm" as const,
    target: "node20",
    logLevel: "warning" as const,
    // Less to parse at every start-up; names stay for anything that reads them.
    minify: true,
    keepNames: true,
    // Native, or loaded from its own single-file build at run time (grammar/src/chevrotain.ts).
    external: ["onnxruntime-node", "chevrotain"],
    // CommonJS dependencies get a real `require`.
    banner: { js: 'import { createRequire as __onnxtxtCreateRequire } from "node:module"; const require = __onnxtxtCreateRequire(import.meta.url);' },
  };
  await esbuild.build({ ...common, entryPoints: [path.join(CLI_DIR, "main.js")], outfile: path.join(CLI_DIR, "main.bundle.mjs") });
  await esbuild.build({ ...common, entryPoints: [path.join(REPO, "dist/core/src/interp/fast/helper.js")], outfile: path.join(CLI_DIR, "helper.js") });
  return 0;
}

process.exitCode = await main();
