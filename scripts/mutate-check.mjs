#!/usr/bin/env node
// The robustness acceptance run: N mutated texts from the corpus through the real CLI,
// `onnxtxt check FILE`, one process each with a 10 s timeout. Every run must end in time with
// exit 0 or 1, print no stack trace, and every diagnostic line must be
// `FILE:LINE:COL: SEVERITY: MESSAGE [code]`.
// usage: node scripts/mutate-check.mjs [--count 300] [--seed N] [--jobs N] [--keep DIR]
// Needs a build. Exit 0 when all pass; failing inputs are kept in DIR (default mutate-failures/).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { textCorpus } from "../dist/test/robust/harness/corpus.js";
import { mutateText } from "../dist/test/robust/harness/mutate-text.js";
import { Rng } from "../dist/test/robust/harness/rng.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(REPO, "bin/onnxtxt.js");
const TIMEOUT_MS = 10_000;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const count = Number(option("count", 300));
const seed = Number(option("seed", Date.now() % 1_000_000));
const jobs = Number(option("jobs", Math.max(1, os.cpus().length)));
const keep = option("keep", "mutate-failures");

const LINE = /^(?<file>.+):(?<line>\d+):(?<col>\d+): (?:error|warning|info|hint): .+ \[[\w.-]+\]$/;
const STACK = /^\s+at .+[(:]\d+:\d+\)?$|^\w*Error: /m;

/** Problems with one run, empty when it behaved. */
export function judge(file, r) {
  const problems = [];
  if (r.timedOut) problems.push(`did not end within ${TIMEOUT_MS / 1000} s`);
  else if (r.code !== 0 && r.code !== 1) problems.push(`exit code ${r.code} (signal ${r.signal ?? "none"})`);
  const output = r.stdout + r.stderr;
  if (STACK.test(output)) problems.push("a stack trace in the output");
  for (const line of r.stderr.split("\n")) {
    if (line === "") continue;
    const m = LINE.exec(line);
    if (!m || m.groups.file !== file) problems.push(`not FILE:LINE:COL: ${JSON.stringify(line.slice(0, 200))}`);
  }
  if (r.code === 1 && r.stderr.trim() === "") problems.push("exit 1 without a diagnostic");
  return problems;
}

function runCheck(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "check", file], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

async function main() {
  const corpus = textCorpus();
  const rng = new Rng(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-mutate-"));
  const texts = Array.from({ length: count }, () => mutateText(rng.pick(corpus), rng, corpus));
  console.log(`mutate-check: seed ${seed}, ${count} mutated texts, ${jobs} at a time, timeout ${TIMEOUT_MS / 1000} s each`);
  const started = Date.now();
  const exits = { 0: 0, 1: 0 };
  let failed = 0;
  let slowest = 0;
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const i = next++;
      const file = path.join(dir, `m${i}.onnxtxt`);
      fs.writeFileSync(file, texts[i]);
      const t0 = Date.now();
      const r = await runCheck(file);
      slowest = Math.max(slowest, Date.now() - t0);
      const problems = judge(file, r);
      if (r.code in exits) exits[r.code]++;
      if (problems.length > 0) {
        failed++;
        fs.mkdirSync(keep, { recursive: true });
        const kept = path.join(keep, `seed${seed}-m${i}.onnxtxt`);
        fs.copyFileSync(file, kept);
        console.log(`FAIL ${kept}: ${problems.join("; ")}`);
      }
      fs.rmSync(file);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  fs.rmSync(dir, { recursive: true, force: true });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`mutate-check: ${count - failed}/${count} passed (exit 0: ${exits[0]}, exit 1: ${exits[1]}), slowest ${slowest} ms, ${secs} s in all`);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
