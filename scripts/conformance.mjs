#!/usr/bin/env node
// The must-show check of the interpreter: for every libonnx-testdata test, run
//   onnxtxt run MODEL --input-dir test_data_set_0 --output-dir OUT
// as a separate process and compare OUT/output_N.pb with the expected output_N.pb
// (rtol 1e-3, atol 1e-7). Prints failures and the pass rate. Needs a build (npm run build).
// usage: node scripts/conformance.mjs [ROOT] [--jobs N] [--filter SUBSTRING]
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { decodeValue, valueKindOf, decodeModel } = await import(path.join(repo, "dist/core/src/io/index.js"));
const { valueFromProto, compareValues } = await import(path.join(repo, "dist/core/src/interp/index.js"));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : dflt;
};
const jobs = Number(opt("--jobs", String(Math.max(1, os.availableParallelism?.() ?? 2))));
const filter = opt("--filter", "");
const root = args[0] ?? "/usr/share/libonnx-testdata/data";
const TOL = { rtol: 1e-3, atol: 1e-7 };

function modelDirs(dir) {
  const out = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && e.name === "model.onnx")) out.push(dir);
  for (const e of entries) if (e.isDirectory()) out.push(...modelDirs(path.join(dir, e.name)));
  return out.sort();
}

function runCli(argv) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(repo, "bin/onnxtxt.js"), ...argv], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve({ code, err }));
  });
}

async function check(dir, tmp) {
  const set = path.join(dir, "test_data_set_0");
  if (!fs.existsSync(set)) return "no test_data_set_0";
  const out = path.join(tmp, path.relative(root, dir));
  const r = await runCli(["run", path.join(dir, "model.onnx"), "--input-dir", set, "--output-dir", out, "--quiet", "--no-expect"]);
  if (r.code !== 0) return r.err.trim().split("\n")[0] || `exit code ${r.code}`;
  const model = decodeModel(fs.readFileSync(path.join(dir, "model.onnx")));
  for (let i = 0; ; i++) {
    const expectedFile = path.join(set, `output_${i}.pb`);
    if (!fs.existsSync(expectedFile)) break;
    const kind = valueKindOf(model.graph.output[i]?.type);
    const actualFile = path.join(out, `output_${i}.pb`);
    if (!fs.existsSync(actualFile)) return `output_${i}.pb was not written`;
    const expected = valueFromProto(decodeValue(fs.readFileSync(expectedFile), kind));
    const actual = valueFromProto(decodeValue(fs.readFileSync(actualFile), kind));
    const d = compareValues(actual, expected, TOL);
    if (d) return `output_${i}: ${d}`;
  }
  return undefined;
}

const dirs = modelDirs(root).filter((d) => d.includes(filter));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-conformance-"));
const failures = [];
let next = 0;
const started = Date.now();
async function worker() {
  while (next < dirs.length) {
    const dir = dirs[next++];
    const f = await check(dir, tmp);
    if (f) failures.push(`${path.relative(root, dir)}: ${f}`);
  }
}
await Promise.all(Array.from({ length: jobs }, worker));
fs.rmSync(tmp, { recursive: true, force: true });
failures.sort();
for (const f of failures) console.log(`FAIL ${f}`);
const passed = dirs.length - failures.length;
console.log(`${passed}/${dirs.length} passed (${((100 * passed) / dirs.length).toFixed(1)}%) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
