#!/usr/bin/env node
// The long fuzz run: `npm run fuzz -- [--seed N] [--count N] [--time SECONDS] [--attack-time SECONDS] [--corpus N] [--out DIR]
// [--hostile-runs P] [--long-lists P]`. Mutates the text corpus and the backend test models
// through every stage (see test/robust/harness); a share P of the inputs are hostile models
// run by the interpreter under small caps (default 0.1), or texts with one data-sized list
// (default 0.01). Failing inputs are written to DIR (default fuzz-failures/) with their
// seed and iteration; exit 1 if any failed. Needs a build (`npm run build`).
import * as fs from "node:fs";
import * as path from "node:path";
import { runFuzz } from "../dist/test/robust/harness/fuzz.js";
import { binaryCorpus, textCorpus } from "../dist/test/robust/harness/corpus.js";
import { runAttacks } from "../dist/test/robust/harness/attacks.js";

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (name !== "out" && !Number.isFinite(v)) throw new Error(`--${name} needs a number`);
  return name === "out" ? args[i + 1] : v;
}
const seed = option("seed", Date.now() % 1_000_000);
const count = option("count", 20000);
const timeMs = option("time", 600) * 1000;
const corpusLimit = option("corpus", undefined);
const outDir = option("out", "fuzz-failures");
const hostileRuns = option("hostile-runs", 0.1);
const longLists = option("long-lists", 0.01);

const texts = textCorpus(corpusLimit);
const binaries = binaryCorpus(corpusLimit);
console.log(`fuzz: seed ${seed}, up to ${count} inputs or ${timeMs / 1000} s, corpus ${texts.length} texts + ${binaries.length} models`);
// Three quarters of the time for mutated models, the rest for file-system and protocol
// attacks (hostile external data and outputs, signals, malformed LSP params: issue #22).
const attackMs = option("attack-time", timeMs / 4 / 1000) * 1000;
const report = runFuzz({ seed, count, timeMs: timeMs - attackMs, texts, binaries, slowMs: 10_000, hostileRuns, longLists });
console.log(
  `fuzz: ${report.inputs} inputs, ${report.failures.length} failures; slowest ${report.slowest.ms.toFixed(0)} ms (iteration ${report.slowest.iteration}, ${report.slowest.size} units)`,
);
const seen = new Set();
for (const f of report.failures) {
  const key = `${f.target}: ${f.problem.split("\n")[0]}`;
  if (seen.has(key)) continue;
  seen.add(key);
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `seed${seed}-it${f.iteration}.${typeof f.input === "string" ? "onnxtxt" : "onnx"}`);
  fs.writeFileSync(file, f.input);
  console.log(`FAIL ${key}\n  input: ${file}\n  ${f.problem.split("\n").slice(1).join("\n  ")}`);
}
const attacks = await runAttacks({ seed, count, timeMs: attackMs });
console.log(`fuzz: ${attacks.attacks} attacks, ${attacks.failures.length} failures`);
for (const f of attacks.failures.slice(0, 20))
  console.log(`FAIL ${f.attack} (iteration ${f.iteration}): ${f.problem}\n  scene: ${f.scene.split("\n").join("\n         ")}`);
process.exitCode = report.failures.length + attacks.failures.length > 0 ? 1 : 0;
