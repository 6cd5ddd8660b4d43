// `npm run build:playground`: the web playground (web/) as static files in dist/playground/
// that work from any static host and from file://, offline. Every worker (the language
// server, the interpreter, Monaco's editor worker, ELK's layout worker) is embedded in the
// page script as text and started from a Blob URL, since file:// pages cannot start workers
// from files. Monaco comes without its bundled TypeScript/CSS/HTML/JSON language services.
//   node dist/scripts/build-playground.js [--out DIR] [--no-check]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { bundleBrowserServer } from "./bundle-browser-server.js";
import { chevrotainStatic } from "./esbuild-chevrotain.js";
import { referenceKernelsOnly } from "./esbuild-web.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WEB = path.join(REPO, "web");
export const PLAYGROUND_DIR = path.join(REPO, "dist/playground");

/**
 * The page's policy: its own scripts and styles, workers from the Blob URLs it makes, no
 * request to any other place. 'wasm-unsafe-eval' lets the core compile its WebAssembly
 * (float printing, kernels) and nothing else: JavaScript eval stays forbidden. Monaco sets inline style attributes, hence 'unsafe-inline' for
 * styles only; its icon font is a data: URL.
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "worker-src blob:",
  "connect-src blob:",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const common: BuildOptions = {
  bundle: true,
  platform: "browser",
  target: "chrome120",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  mainFields: ["browser", "module", "main"],
  plugins: [chevrotainStatic],
};

async function scriptText(entry: string, plugins: Plugin[] = []): Promise<string> {
  const r = await build({ ...common, entryPoints: [entry], format: "iife", write: false, plugins: [...plugins, chevrotainStatic] });
  return r.outputFiles[0]!.text;
}

function virtualModule(name: string, contents: () => Promise<string> | string): Plugin {
  return {
    name,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace: "playground" }));
      b.onLoad({ filter: new RegExp(`^${name}$`), namespace: "playground" }, async () => ({ contents: await contents(), loader: "js" }));
    },
  };
}

/** The package's folder (its exports map has no ./package.json; its CommonJS entry is min/vs/index.js). */
function monacoRoot(require: NodeJS.Require): string {
  return path.resolve(path.dirname(require.resolve("monaco-editor")), "../..");
}

/** `monaco-editor` -> its editor with every contribution and the LSP client, without the bundled language services. */
function monacoEditorOnly(require: NodeJS.Require): Plugin {
  const main = path.join(monacoRoot(require), "esm/vs/editor/editor.main.js");
  return {
    name: "monaco-editor-only",
    setup(b) {
      b.onResolve({ filter: /^monaco-editor$/ }, () => ({ path: main }));
      b.onResolve({ filter: /\/languages\/features\/[a-z]+\/register\.js$/ }, (args) =>
        args.importer === main ? { path: args.path, namespace: "empty" } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export {};", loader: "js" }));
    },
  };
}

export function typeCheckWeb(): void {
  const require = createRequire(import.meta.url);
  const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin/tsc");
  // The page with the DOM's types; the run worker without them (it reaches Node-typed core code).
  for (const config of ["tsconfig.json", "tsconfig.worker.json"]) {
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(WEB, config)], { cwd: REPO, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`web/${config} does not type-check:\n${r.stdout}${r.stderr}`);
  }
}

export async function buildPlayground(out = PLAYGROUND_DIR): Promise<void> {
  const require = createRequire(import.meta.url);
  const monacoDir = monacoRoot(require);
  const [languageServer, runWorker, editorWorker] = await Promise.all([
    bundleBrowserServer(),
    scriptText(path.join(WEB, "src/run-worker.ts"), [referenceKernelsOnly]),
    scriptText(path.join(monacoDir, "esm/vs/editor/editor.worker.js")),
  ]);
  const elkWorker = fs.readFileSync(require.resolve("elkjs/lib/elk-worker.min.js"), "utf8");
  const examplesDir = path.join(REPO, "examples");
  const examples = Object.fromEntries(
    fs
      .readdirSync(examplesDir)
      .filter((f) => f.endsWith(".onnxtxt"))
      .map((f) => [f, fs.readFileSync(path.join(examplesDir, f), "utf8")]),
  );
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  await build({
    ...common,
    entryPoints: [path.join(WEB, "src/main.ts")],
    format: "iife",
    outfile: path.join(out, "playground.js"),
    loader: { ".ttf": "dataurl" },
    plugins: [
      virtualModule("playground:workers", () =>
        Object.entries({ languageServer, runWorker, editorWorker, elkWorker })
          .map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`)
          .join("\n"),
      ),
      virtualModule("playground:examples", () => `export const examples = ${JSON.stringify(examples)};`),
      monacoEditorOnly(require),
      chevrotainStatic,
    ],
  });
  fs.copyFileSync(path.join(WEB, "page.css"), path.join(out, "page.css"));
  fs.writeFileSync(path.join(out, "index.html"), fs.readFileSync(path.join(WEB, "index.html"), "utf8").replace("%CSP%", PLAYGROUND_CSP));
  fs.copyFileSync(path.join(REPO, "docs/grammar.html"), path.join(out, "grammar.html"));
  fs.copyFileSync(path.join(monacoDir, "LICENSE"), path.join(out, "LICENSE.monaco-editor.txt"));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const out = outAt >= 0 ? path.resolve(args[outAt + 1]!) : PLAYGROUND_DIR;
  if (!args.includes("--no-check")) typeCheckWeb();
  await buildPlayground(out);
  let total = 0;
  for (const f of fs.readdirSync(out)) total += fs.statSync(path.join(out, f)).size;
  console.log(`playground: ${path.relative(process.cwd(), out) || "."} (${(total / 1024 / 1024).toFixed(1)} MB)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
