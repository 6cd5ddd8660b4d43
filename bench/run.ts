// Benchmark: `onnxtxt run` against onnxruntime-node on the light networks, each as its own
// process (Node start-up, loading, session creation / model decoding and one run), with
// the same seeded random 1x3x224x224 input. Runs alternate to share the machine's noise;
// the table shows the median wall time of each and their ratio, and whether the outputs
// agree (rtol 1e-3, atol 1e-5).
// Usage: npm run bench [-- --repeat N] [-- model ...]

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { TensorProtoSchema, TensorProto_DataType } from "../proto/src/index.js";
import { decodeModel, decodeValue, encodeValue } from "../core/src/io/index.js";
import { compareOutputs, type Comparison } from "./compare.js";
import { seededUniform } from "./seeded.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LIGHT = path.join(REPO, "test/data/light");
const ORT_SCRIPT = path.join(REPO, "dist/bench/ort-run.js");
const CLI = path.join(REPO, "bin/onnxtxt.js");
const MODELS = ["squeezenet", "resnet50", "inception_v2", "densenet121"];
const INPUT_DIMS = [1, 3, 224, 224];
const SEED = 20261122;

interface Timed {
  seconds: number;
  ok: boolean;
  stderr: string;
}

function timedRun(args: string[]): Timed {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, ok: r.status === 0, stderr: (r.stderr ?? "") + (r.error ? String(r.error) : "") };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
}

interface Row {
  model: string;
  ort: number;
  onnxtxt: number;
  /** Per-run ratios onnxtxt / onnxruntime-node of each alternating pair. */
  pairRatios?: number[];
  comparison: Comparison | undefined;
  error?: string;
}

function benchModel(name: string, repeat: number, work: string): Row {
  const modelPath = path.join(LIGHT, `light_${name}.onnx`);
  const model = decodeModel(readFileSync(modelPath));
  const initializers = new Set(model.graph!.initializer.map((t) => t.name));
  const input = model.graph!.input.find((i) => !initializers.has(i.name))!;
  const data = seededUniform(
    INPUT_DIMS.reduce((p, d) => p * d, 1),
    SEED,
  );
  const bytes = new Uint8Array(data.buffer);
  const rawFile = path.join(work, `${name}.input.f32`);
  const pbFile = path.join(work, `${name}.input.pb`);
  writeFileSync(rawFile, bytes);
  writeFileSync(
    pbFile,
    encodeValue({
      kind: "tensor",
      value: create(TensorProtoSchema, { name: input.name, dims: INPUT_DIMS.map(BigInt), dataType: TensorProto_DataType.FLOAT, rawData: bytes }),
    }),
  );
  const ortOut = path.join(work, `${name}.ort.f32`);
  const outDir = path.join(work, `${name}.onnxtxt`);
  const ortArgs = [ORT_SCRIPT, modelPath, input.name, rawFile, INPUT_DIMS.join(","), ortOut];
  const cliArgs = [CLI, "run", modelPath, "--input", `${input.name}=${pbFile}`, "--output-dir", outDir, "--quiet"];
  const ortTimes: number[] = [];
  const cliTimes: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const o = timedRun(ortArgs);
    if (!o.ok) return { model: name, ort: NaN, onnxtxt: NaN, comparison: undefined, error: `onnxruntime-node failed: ${o.stderr.trim()}` };
    ortTimes.push(o.seconds);
    const c = timedRun(cliArgs);
    if (!c.ok)
      return { model: name, ort: median(ortTimes), onnxtxt: NaN, comparison: undefined, error: `onnxtxt run failed: ${c.stderr.trim().split("\n")[0]}` };
    cliTimes.push(c.seconds);
  }
  const ortRaw = readFileSync(ortOut);
  const expected = new Float32Array(ortRaw.buffer.slice(ortRaw.byteOffset, ortRaw.byteOffset + ortRaw.byteLength));
  const outFile = readdirSync(outDir).find((f) => f.endsWith(".pb"));
  let comparison: Comparison | undefined;
  if (outFile) {
    const value = decodeValue(readFileSync(path.join(outDir, outFile)), "tensor");
    if (value.kind === "tensor") comparison = compareOutputs(tensorFloats(value.value), expected, 1e-3, 1e-5);
  }
  const pairRatios = cliTimes.map((t, i) => t / ortTimes[i]!);
  return {
    model: name,
    ort: median(ortTimes),
    onnxtxt: median(cliTimes),
    pairRatios,
    comparison,
    ...(outFile ? {} : { error: "onnxtxt wrote no output .pb" }),
  };
}

function tensorFloats(t: { rawData: Uint8Array; floatData: number[] }): Float32Array {
  if (t.rawData.length > 0) return new Float32Array(t.rawData.buffer.slice(t.rawData.byteOffset, t.rawData.byteOffset + t.rawData.byteLength));
  return Float32Array.from(t.floatData);
}

function main(argv: string[]): number {
  let repeat = 3;
  const chosen: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repeat") repeat = Math.max(1, Number(argv[++i]));
    else chosen.push(argv[i]!);
  }
  const models = chosen.length > 0 ? chosen : MODELS;
  const work = mkdtempSync(path.join(tmpdir(), "onnxtxt-bench-"));
  let failures = 0;
  try {
    console.log(`light networks, input ${INPUT_DIMS.join("x")} (seed ${SEED}), median of ${repeat} alternating process runs`);
    console.log("model          onnxruntime-node   onnxtxt run   ratio   pair ratios   outputs (rtol 1e-3, atol 1e-5)");
    for (const name of models) {
      const row = benchModel(name, repeat, work);
      const ratio = row.onnxtxt / row.ort;
      const verdict = row.error ?? (row.comparison ? row.comparison.summary : "not compared");
      if (row.error || !row.comparison?.ok) failures++;
      const pairs = row.pairRatios ? `${Math.min(...row.pairRatios).toFixed(2)}-${Math.max(...row.pairRatios).toFixed(2)}` : "n/a";
      console.log(
        `${row.model.padEnd(14)} ${fmt(row.ort).padStart(14)}   ${fmt(row.onnxtxt).padStart(11)}   ${Number.isFinite(ratio) ? ratio.toFixed(2).padStart(5) : "  n/a"}   ${pairs.padStart(11)}   ${verdict}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

function fmt(seconds: number): string {
  return Number.isFinite(seconds) ? `${seconds.toFixed(3)} s` : "n/a";
}

process.exitCode = main(process.argv.slice(2));
