// The library's run() (onnxtxt/node, fast kernels) against `onnxtxt run`, both as a whole Node
// process on SqueezeNet: start, import, load, run, exit. Medians of alternating runs, so that
// load on the machine hits both alike. Issue #32's goal: library <= 1.2x the CLI.
//   node dist/bench/library-run.js [RUNS]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MODEL = path.join(REPO, "test/data/light/light_squeezenet.onnx");
const CLI = path.join(REPO, "bin/onnxtxt.js");

/** What a library user's script does: import onnxtxt/node, load the model, run it. */
function libraryScript(dir: string): string {
  const file = path.join(dir, "use-library.mjs");
  const entry = pathToFileURL(path.join(REPO, "dist/core/src/node/index.js")).href;
  fs.writeFileSync(
    file,
    `import { loadModel, run } from ${JSON.stringify(entry)};\nconst outputs = await run(loadModel(${JSON.stringify(MODEL)}));\nif (outputs.size === 0) process.exit(1);\n`,
  );
  return file;
}

function seconds(args: readonly string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  const s = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return s;
}

function main(): void {
  const runs = Number(process.argv[2] ?? 7);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-library-run-"));
  try {
    const script = libraryScript(dir);
    const cli: number[] = [];
    const library: number[] = [];
    seconds([CLI, "run", MODEL, "--quiet"]); // warm the file cache for both
    for (let i = 0; i < runs; i++) {
      cli.push(seconds([CLI, "run", MODEL, "--quiet"]));
      library.push(seconds([script]));
    }
    const c = median(cli);
    const l = median(library);
    console.log(`SqueezeNet, whole process, median of ${runs} alternating runs (${os.cpus().length} cores)`);
    console.log(`  onnxtxt run (CLI)        ${c.toFixed(3)} s`);
    console.log(`  onnxtxt/node run()       ${l.toFixed(3)} s`);
    console.log(`  ratio library / CLI      ${(l / c).toFixed(2)}   goal <= 1.2 ${l / c <= 1.2 ? "ok" : "MISSED"}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
