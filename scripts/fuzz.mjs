#!/usr/bin/env node
// The long fuzz run: `npm run fuzz -- [--seed N] [--count N] [--time SECONDS] [--attack-time SECONDS] [--corpus N] [--out DIR]
// [--hostile-runs P] [--long-lists P] [--host-time SECONDS]`. A tenth of the time (--host-time) mutates host files
// holding ONNX texts (test/embedded/fixtures). Mutates the text corpus and the backend test models
// through every stage (see test/robust/harness); a share P of the inputs are hostile models
// run by the interpreter under small caps (default 0.1), or texts with one data-sized list
// (default 0.01). Failing inputs are written to DIR (default fuzz-failures/) with their
// seed and iteration; exit 1 if any failed. Needs a build (`npm run build`).
import * as fs from "node:fs";
import * as path from "node:path";
import { runFuzz } from "../dist/test/robust/harness/fuzz.js";
import { binaryCorpus, textCorpus } from "../dist/test/robust/harness/corpus.js";
import { runAttacks } from "../dist/test/robust/harness/attacks.js";
import { hostCorpus, runHostFuzz } from "../dist/test/robust/harness/host-fuzz.js";

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
// A tenth for host files holding ONNX texts (Python, C++, Markdown, JavaScript: issue #30).
const hostMs = option("host-time", timeMs / 10 / 1000) * 1000;
const report = runFuzz({ seed, count, timeMs: timeMs - attackMs - hostMs, texts, binaries, slowMs: 10_000, hostileRuns, longLists });
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
const hosts = runHostFuzz({ seed, count, timeMs: hostMs, hosts: hostCorpus(), slowMs: 10_000 });
console.log(`fuzz: ${hosts.inputs} host files, ${hosts.failures.length} failures`);
const seenHost = new Set();
for (const f of hosts.failures) {
  const key = `host ${f.input.language}: ${f.problem.split("\n")[0]}`;
  if (seenHost.has(key)) continue;
  seenHost.add(key);
  fs.mkdirSync(outDir, { recursive: true });
  const ext = { python: "py", cpp: "cc", markdown: "md", javascript: "mjs" }[f.input.language];
  const file = path.join(outDir, `seed${seed}-host${f.iteration}.${ext}`);
  fs.writeFileSync(file, f.input.text);
  console.log(`FAIL ${key}\n  input: ${file}\n  ${f.problem.split("\n").slice(1).join("\n  ")}`);
}
const attacks = await runAttacks({ seed, count, timeMs: attackMs });
console.log(`fuzz: ${attacks.attacks} attacks, ${attacks.failures.length} failures`);
for (const f of attacks.failures.slice(0, 20))
  console.log(`FAIL ${f.attack} (iteration ${f.iteration}): ${f.problem}\n  scene: ${f.scene.split("\n").join("\n         ")}`);
process.exitCode = report.failures.length + hosts.failures.length + attacks.failures.length > 0 ? 1 : 0;
