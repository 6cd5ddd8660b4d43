// The language server for a Web Worker (server/src/browser-main.ts) as one script: the
// playground embeds it, and VS Code for the Web's extension can ship it. The handlers are the
// Node server's; the bundle swaps what is Node-only for its browser side and refuses to
// build if any Node built-in is still reached.
import { builtinModules } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { chevrotainStatic } from "./esbuild-chevrotain.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BROWSER_SERVER_ENTRY = path.join(REPO, "server/src/browser-main.ts");

/** Node-only modules of server/src and their browser replacements. */
const SWAPS: Readonly<Record<string, string>> = {
  "run-command.js": path.join(REPO, "server/src/browser/run-command.ts"),
};

const BUILTINS = new Set(builtinModules);

/**
 * `vscode-languageserver/node` -> `/browser` (the handlers take only protocol values and
 * types from it, the same in both), the swaps above, and an error for any Node built-in.
 */
export const browserServerPlugin: Plugin = {
  name: "browser-server",
  setup(b) {
    b.onResolve({ filter: /^vscode-languageserver\/node$/ }, (args) =>
      b.resolve("vscode-languageserver/browser", { kind: args.kind, resolveDir: args.resolveDir }),
    );
    b.onResolve({ filter: /^\.\/run-command\.js$/ }, (args) =>
      path.basename(args.importer) === "handlers.ts" ? { path: SWAPS["run-command.js"]! } : undefined,
    );
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
    plugins: [browserServerPlugin, chevrotainStatic],
  });
  return r.outputFiles[0]!.text;
}
