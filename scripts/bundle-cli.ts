// Part of `npm run build`: bundles the CLI with esbuild into one CommonJS file beside the
// compiled main.js (dist/cli/src/main.bundle.cjs, so paths taken from import.meta.url still
// hold), the language server likewise (dist/server/src/main.bundle.cjs), the kernels' helper
// thread to dist/cli/src/helper.js, where the bundle looks for it, and for the start-up
// snapshots (cli/src/snapshot-request.ts) their builder, dist/cli/src/snapshot-builder.cjs,
// and per command a bundle of the CLI with only that command, main.COMMAND.snapshot.cjs.
// Loading one file instead of ~280 modules takes a fraction of the start-up time of every
// command, and as a classic script the bundle can run with a V8 code cache
// (core/src/node/code-cache.ts), which ES modules cannot before Node 22. The command modules
// main.ts imports lazily stay lazy: esbuild evaluates each only when it is imported.
// bin/onnxtxt.js and bin/onnxtxt-ls.js use a bundle only when it is newer than the last tsc build.
//   node dist/scripts/bundle-cli.js
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { SNAPSHOT_COMMANDS } from "../cli/src/snapshot-request.js";
import { CACHED_SCRIPT } from "./esbuild-cached-script.js";
import { chevrotainStatic } from "./esbuild-chevrotain.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI_DIR = path.join(REPO, "dist/cli/src");
const SERVER_DIR = path.join(REPO, "dist/server/src");

/** What earlier builds made: an ES module bundle with chunks. */
const OLD_OUTPUT = /^main\.(chunk-[A-Za-z0-9]+|bundle)\.mjs$/;

/** Leaves main.js's other commands out of a bundle (their imports become empty modules). */
function onlyCommand(command: string): Plugin {
  return {
    name: "only-command",
    setup(build) {
      build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) =>
        args.path === `./commands/${command}.js` ? undefined : { path: args.path, namespace: "left-out" },
      );
      build.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({ contents: "export {};", loader: "js" }));
    },
  };
}

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
  };
  for (const name of fs.readdirSync(CLI_DIR)) if (OLD_OUTPUT.test(name)) fs.rmSync(path.join(CLI_DIR, name));
  await esbuild.build({ ...common, ...CACHED_SCRIPT, entryPoints: [path.join(CLI_DIR, "main.js")], outfile: path.join(CLI_DIR, "main.bundle.cjs") });
  // The language server the same way (bin/onnxtxt-ls.js runs it with a code cache): it starts
  // in 60 ms instead of 250 from ~300 modules. Scripts it starts beside itself (its run
  // worker) stay the compiled modules beside the bundle.
  await esbuild.build({ ...common, ...CACHED_SCRIPT, entryPoints: [path.join(SERVER_DIR, "main.js")], outfile: path.join(SERVER_DIR, "main.bundle.cjs") });
  // For each command's start-up snapshot, the bundle with that command only: a snapshot
  // deserialises everything the bundle defines, and the other commands' code would make it
  // slower to start. bin/onnxtxt.js starts a command's snapshot only for that command.
  for (const command of SNAPSHOT_COMMANDS) {
    await esbuild.build({
      ...common,
      ...CACHED_SCRIPT,
      plugins: [...common.plugins, onlyCommand(command)],
      entryPoints: [path.join(CLI_DIR, "main.js")],
      outfile: path.join(CLI_DIR, `main.${command}.snapshot.cjs`),
    });
  }
  // What the start-up snapshot is built from (cli/src/snapshot-builder.ts): it evaluates
  // a command's bundle itself, so it holds none of it.
  await esbuild.build({
    ...common,
    format: "cjs",
    entryPoints: [path.join(CLI_DIR, "snapshot-builder.js")],
    outfile: path.join(CLI_DIR, "snapshot-builder.cjs"),
  });
  await esbuild.build({
    ...common,
    format: "esm",
    // CommonJS dependencies get a real `require`.
    banner: { js: 'import { createRequire as __onnxtxtCreateRequire } from "node:module"; const require = __onnxtxtCreateRequire(import.meta.url);' },
    entryPoints: [path.join(REPO, "dist/core/src/interp/fast/helper.js")],
    outfile: path.join(CLI_DIR, "helper.js"),
  });
  return 0;
}

process.exitCode = await main();
