// An esbuild plugin for the bundles that run in a browser: the fast kernels' entry point
// (core/src/interp/fast/index.ts, whose thread pool needs Node's worker_threads) becomes
// fast/off.ts, which runs everything on the reference kernels.
import * as path from "node:path";
import type { Plugin } from "esbuild";

export const referenceKernelsOnly: Plugin = {
  name: "reference-kernels-only",
  setup(build) {
    build.onResolve({ filter: /\/fast\/index\.js$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (!target.endsWith(path.join("core", "src", "interp", "fast", "index.js"))) return undefined;
      return { path: path.join(path.dirname(target), `off${path.extname(args.importer)}`) };
    });
  },
};
