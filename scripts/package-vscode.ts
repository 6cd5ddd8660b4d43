// `npm run package:vscode`: type-checks the extension, bundles the client and the language
// server with esbuild (so the .vsix needs no node_modules), and packs client-vscode/ with vsce.
//   node dist/scripts/package-vscode.js [--out FILE.vsix]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type BuildOptions } from "esbuild";
import { CACHED_SCRIPT } from "./esbuild-cached-script.js";
import { chevrotainStatic } from "./esbuild-chevrotain.js";
import { referenceKernelsOnly } from "./esbuild-web.js";
import { BROWSER_SERVER_ENTRY, noNodeBuiltins } from "./bundle-browser-server.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLIENT = path.join(REPO, "client-vscode");
export const CLIENT_ENTRY = path.join(CLIENT, "src/extension.ts");
export const SERVER_ENTRY = path.join(REPO, "server/src/main.ts");
const SERVER_LOADER_ENTRY = path.join(CLIENT, "src/server-loader.ts");
/** VS Code for the Web's client, in the web extension host (the server is bundle-browser-server.ts's entry). */
export const BROWSER_CLIENT_ENTRY = path.join(CLIENT, "src/browser-extension.ts");
export const BUNDLES = {
  client: path.join(CLIENT, "dist/extension.cjs"),
  /** What VS Code starts (client-vscode/src/server-loader.ts): it runs serverMain with a code cache. */
  server: path.join(CLIENT, "dist/server.js"),
  serverMain: path.join(CLIENT, "dist/server-main.cjs"),
  browserClient: path.join(CLIENT, "dist/browser-extension.js"),
  browserServer: path.join(CLIENT, "dist/browser-server.js"),
  /** The browser server's run worker, beside it (run-browser.ts starts it by that name). */
  browserRunWorker: path.join(CLIENT, "dist/run-worker-browser.js"),
  /** The graph view's page script and the ELK worker it starts. */
  graphView: path.join(CLIENT, "dist/graph-view.js"),
  elkWorker: path.join(CLIENT, "dist/elk-worker.js"),
};
export const GRAPH_VIEW_ENTRY = path.join(CLIENT, "src/webview/graph-view.ts");
const DIST = path.join(CLIENT, "dist");

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  // The sources are ESM with `.js` suffixes on `.ts` files; esbuild resolves those itself.
  mainFields: ["module", "main"],
  plugins: [chevrotainStatic],
};

/** The scripts the server starts beside itself run as ESM (client-vscode/package.json says
 * "type": "module"), so `import.meta.url` keeps working; CommonJS dependencies get a real `require`. */
const serverOptions: BuildOptions = {
  ...common,
  format: "esm",
  banner: { js: 'import { createRequire as __onnxtxtCreateRequire } from "node:module"; const require = __onnxtxtCreateRequire(import.meta.url);' },
  metafile: true,
};

/** The server itself runs with a code cache (server-loader.ts): its own URL stands in for import.meta.url. */
const serverMainOptions: BuildOptions = { ...common, ...CACHED_SCRIPT, metafile: true };

/** `new URL("./run-worker.js", import.meta.url)`: a script loaded beside the module (a worker). */
const SIBLING_SCRIPT = /new\s+URL\(\s*["'](\.\.?\/[^"']+)\.js["']\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Bundles the server and every script its sources load beside themselves, each to the place
 * the bundled `import.meta.url` points at: the same relative name under dist/.
 */
async function bundleServer(): Promise<string[]> {
  const done = new Set<string>();
  const queue: { source: string; out: string }[] = [{ source: SERVER_ENTRY, out: BUNDLES.serverMain }];
  await build({ ...serverOptions, entryPoints: [SERVER_LOADER_ENTRY], outfile: BUNDLES.server });
  const outputs: string[] = [BUNDLES.server];
  while (queue.length > 0) {
    const { source, out } = queue.shift()!;
    if (done.has(out)) continue;
    done.add(out);
    const result = await build({ ...(out === BUNDLES.serverMain ? serverMainOptions : serverOptions), entryPoints: [source], outfile: out });
    outputs.push(out);
    for (const input of Object.keys(result.metafile?.inputs ?? {})) {
      if (input.includes("node_modules")) continue;
      const file = path.resolve(REPO, input);
      for (const m of fs.readFileSync(file, "utf8").matchAll(SIBLING_SCRIPT)) {
        const target = path.resolve(path.dirname(out), `${m[1]!}.js`);
        if (path.relative(DIST, target).startsWith("..")) throw new Error(`${input}: '${m[1]}.js' would land outside the bundle folder`);
        const ts = path.resolve(path.dirname(file), `${m[1]!}.ts`);
        if (!fs.existsSync(ts)) throw new Error(`${input} loads '${m[1]}.js', but ${path.relative(REPO, ts)} does not exist`);
        queue.push({ source: ts, out: target });
      }
    }
  }
  return outputs;
}

export async function bundle(): Promise<string[]> {
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`no language server to bundle: ${path.relative(REPO, SERVER_ENTRY)} is missing`);
  fs.rmSync(DIST, { recursive: true, force: true });
  await build({ ...common, format: "cjs", entryPoints: [CLIENT_ENTRY], outfile: BUNDLES.client, external: ["vscode"] });
  await bundleGraphView();
  await bundleForTheWeb();
  return [
    BUNDLES.client,
    BUNDLES.browserClient,
    BUNDLES.browserServer,
    BUNDLES.browserRunWorker,
    BUNDLES.graphView,
    BUNDLES.elkWorker,
    ...(await bundleServer()),
  ];
}

/** The web extension host loads the client as CommonJS; the server is a classic worker script. */
async function bundleForTheWeb(): Promise<void> {
  const web: BuildOptions = {
    ...common,
    platform: "browser",
    target: "chrome120",
    mainFields: ["browser", "module", "main"],
    plugins: [noNodeBuiltins, chevrotainStatic, referenceKernelsOnly],
  };
  await build({ ...web, format: "cjs", entryPoints: [BROWSER_CLIENT_ENTRY], outfile: BUNDLES.browserClient, external: ["vscode"] });
  await build({ ...web, format: "iife", entryPoints: [BROWSER_SERVER_ENTRY], outfile: BUNDLES.browserServer });
  await build({ ...web, format: "iife", entryPoints: [path.join(REPO, "server/src/run-worker-browser.ts")], outfile: BUNDLES.browserRunWorker });
}

/** The graph view's page script, for the browser, and elkjs's worker beside it. */
export async function bundleGraphView(outDir = DIST): Promise<void> {
  await build({
    ...common,
    platform: "browser",
    target: "chrome120",
    format: "iife",
    entryPoints: [GRAPH_VIEW_ENTRY],
    outfile: path.join(outDir, path.basename(BUNDLES.graphView)),
  });
  const require = createRequire(import.meta.url);
  fs.copyFileSync(require.resolve("elkjs/lib/elk-worker.min.js"), path.join(outDir, path.basename(BUNDLES.elkWorker)));
}

/** Runs a tool with no stdin (so a prompt fails instead of hanging); quiet keeps its output for errors. */
function run(cmd: string, args: string[], cwd: string, quiet: boolean): void {
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"], encoding: "utf8" });
  if (r.status === 0) return;
  const output = quiet ? `\n${r.stdout ?? ""}${r.stderr ?? ""}`.trimEnd() : "";
  throw new Error(`${path.basename(args[0] ?? cmd)} failed (exit ${r.status ?? r.signal})${output}`);
}

export function typeCheck(quiet = false): void {
  const require = createRequire(import.meta.url);
  const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin/tsc");
  run(process.execPath, [tsc, "-p", path.join(CLIENT, "tsconfig.json")], REPO, quiet);
  run(process.execPath, [tsc, "-p", path.join(CLIENT, "src/webview/tsconfig.json")], REPO, quiet);
}

/** Packs client-vscode/ into `out`; vsce works offline and only takes what .vscodeignore lets through. */
export function pack(out: string, quiet = false): void {
  const require = createRequire(import.meta.url);
  const vsce = path.join(path.dirname(require.resolve("@vscode/vsce/package.json")), "vsce");
  run(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--out", out], CLIENT, quiet);
}

export async function packageExtension(out: string, quiet = false): Promise<string> {
  typeCheck(quiet);
  await bundle();
  pack(out, quiet);
  return out;
}

function defaultOut(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, "package.json"), "utf8")) as { name: string; version: string };
  return path.join(CLIENT, `${manifest.name}-${manifest.version}.vsix`);
}

async function main(argv: string[]): Promise<number> {
  const i = argv.indexOf("--out");
  const out = i >= 0 ? argv[i + 1] : defaultOut();
  if (!out) {
    process.stderr.write("usage: package-vscode [--out FILE.vsix]\n");
    return 2;
  }
  try {
    await packageExtension(path.resolve(out));
    return 0;
  } catch (e) {
    process.stderr.write(`package:vscode: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
