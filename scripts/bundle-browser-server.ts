// The language server for a Web Worker (server/src/browser-main.ts) as one script: the
// playground embeds it, and VS Code for the Web's extension ships it. The handlers are the
// Node server's; the bundle runs the reference kernels (esbuild-web.ts) and refuses to build
// if any Node built-in is still reached.
import { builtinModules } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { chevrotainStatic } from "./esbuild-chevrotain.js";
import { referenceKernelsOnly } from "./esbuild-web.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BROWSER_SERVER_ENTRY = path.join(REPO, "server/src/browser-main.ts");

const BUILTINS = new Set(builtinModules);

/** An error for any Node built-in the browser bundles reach (their code must take none). */
export const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      const name = args.path.replace(/^node:/, "").split("/")[0]!;
      if (!args.path.startsWith("node:") && !BUILTINS.has(name)) return undefined;
      return { errors: [{ text: `the browser language server reaches the Node built-in '${args.path}' (from ${path.relative(REPO, args.importer)})` }] };
    });
  },
};

/** The browser language server as the text of one classic worker script. */
export async function bundleBrowserServer(): Promise<string> {
  const r = await build({
    entryPoints: [BROWSER_SERVER_ENTRY],
    bundle: true,
    platform: "browser",
    target: "chrome120",
    format: "iife",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    mainFields: ["browser", "module", "main"],
    write: false,
    plugins: [noNodeBuiltins, referenceKernelsOnly, chevrotainStatic],
  });
  return r.outputFiles[0]!.text;
}
