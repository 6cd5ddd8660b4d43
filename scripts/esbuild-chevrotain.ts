// An esbuild plugin for every bundle: grammar/src/chevrotain.js (which loads Chevrotain's
// single-file build with a top-level await, for fast unbundled start-up) is replaced by
// chevrotain-static, which imports the package statically so the bundler can inline it.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Plugin } from "esbuild";

export const chevrotainStatic: Plugin = {
  name: "chevrotain-static",
  setup(build) {
    build.onResolve({ filter: /^\.\/chevrotain\.js$/ }, (args) => {
      const ext = path.extname(args.importer);
      const target = path.join(args.resolveDir, `chevrotain-static${ext}`);
      return fs.existsSync(target) ? { path: target } : undefined;
    });
  },
};
