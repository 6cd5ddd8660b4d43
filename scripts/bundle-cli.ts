// Part of `npm run build`: bundles the CLI with esbuild beside the compiled main.js
// (dist/cli/src/main.bundle.mjs plus its chunks main.chunk-HASH.mjs in the same folder,
// so paths taken from import.meta.url still hold in every chunk) and the kernels' helper
// thread to dist/cli/src/helper.js, where the bundle looks for it. Loading a few files
// instead of ~280 modules takes a fraction of the start-up time of every command; code
// splitting follows main.ts's lazy command imports, so `convert` compiles only what it uses.
// bin/onnxtxt.js uses the bundle only when it is newer than the last tsc build.
//   node dist/scripts/bundle-cli.js
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { chevrotainStatic } from "./esbuild-chevrotain.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI_DIR = path.join(REPO, "dist/cli/src");

const CHUNK = /^main\.chunk-[A-Za-z0-9]+\.mjs$/;

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
    // Less to parse at every start-up. Identifiers are not renamed, so names stay without
    // esbuild's keepNames, which wraps every closure in a defineProperty call: that made a
    // 1M-node check take 14 s instead of 10.7 s.
    minifyWhitespace: true,
    minifySyntax: true,
    // Native code, loaded from node_modules.
    external: ["onnxruntime-node"],
    // Chevrotain inlined by a static import (grammar/src/chevrotain.ts loads it at run time).
    plugins: [chevrotainStatic],
    // CommonJS dependencies get a real `require`.
    banner: { js: 'import { createRequire as __onnxtxtCreateRequire } from "node:module"; const require = __onnxtxtCreateRequire(import.meta.url);' },
  };
  // Chunks of an earlier build have other hashes: remove them so none goes stale.
  for (const name of fs.readdirSync(CLI_DIR)) if (CHUNK.test(name)) fs.rmSync(path.join(CLI_DIR, name));
  await esbuild.build({
    ...common,
    entryPoints: [path.join(CLI_DIR, "main.js")],
    splitting: true,
    outdir: CLI_DIR,
    entryNames: "[name].bundle",
    chunkNames: "main.chunk-[hash]",
    outExtension: { ".js": ".mjs" },
  });
  await esbuild.build({ ...common, entryPoints: [path.join(REPO, "dist/core/src/interp/fast/helper.js")], outfile: path.join(CLI_DIR, "helper.js") });
  return 0;
}

process.exitCode = await main();
