// Opset conversion, each command as its own process timed with /usr/bin/time (wall seconds,
// peak resident memory):
//  - ResNet-50 (test/data/light, opset 9) to the newest opset, binary in and out (goal: <= 0.5 s);
//  - a model with 1 GiB of external weights (a sparse data file) from opset 11 to the newest and
//    back: its ReduceSum nodes are rewritten, the weights are never read (peak memory stays small).
// Usage: npm run build && node dist/bench/opset-bench.js [--repeat N] [--keep DIR]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  AttributeProto_AttributeType,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  TensorProtoSchema,
  TensorProto_DataLocation,
  TensorProto_DataType,
  TypeProtoSchema,
  TypeProto_TensorSchema,
  ValueInfoProtoSchema,
} from "../proto/src/index.js";
import { encodeModel } from "../core/src/io/index.js";
import { median, numberArg } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "bin/onnxtxt.js");

interface Measured {
  readonly seconds: number;
  readonly peakMiB: number;
  readonly ok: boolean;
  readonly stderr: string;
}

function measure(argv: readonly string[]): Measured {
  const r = spawnSync("/usr/bin/time", ["-f", "@@ %e %M", ...argv], { encoding: "utf8" });
  const m = /@@ ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? "");
  return {
    seconds: m ? Number(m[1]) : Number.NaN,
    peakMiB: m ? Number(m[2]) / 1024 : Number.NaN,
    ok: r.status === 0,
    stderr: (r.stderr ?? "").replace(/@@.*$/s, "").trim(),
  };
}

function floatOutput(name: string) {
  const tensorType = create(TypeProto_TensorSchema, { elemType: TensorProto_DataType.FLOAT });
  return create(ValueInfoProtoSchema, { name, type: create(TypeProtoSchema, { value: { case: "tensorType", value: tensorType } }) });
}

/** Eight [rows, 4096] float32 weights in a sparse `big.onnx.data` of `bytes`, each reduced by a ReduceSum-11. */
function writeExternalModel(dir: string, bytes: number): void {
  const n = 8;
  const rows = Math.floor(bytes / n / 4 / 4096);
  const each = rows * 4096 * 4;
  const data = path.join(dir, "big.onnx.data");
  fs.writeFileSync(data, "");
  fs.truncateSync(data, each * n); // sparse: no disk, and reading it would show in the memory column
  const entry = (key: string, value: string) => create(StringStringEntryProtoSchema, { key, value });
  const initializer = [];
  const node = [];
  for (let i = 0; i < n; i++) {
    initializer.push(
      create(TensorProtoSchema, {
        name: `W${i}`,
        dims: [BigInt(rows), 4096n],
        dataType: TensorProto_DataType.FLOAT,
        dataLocation: TensorProto_DataLocation.EXTERNAL,
        externalData: [entry("location", "big.onnx.data"), entry("offset", String(i * each)), entry("length", String(each))],
      }),
    );
    const axes = create(AttributeProtoSchema, { name: "axes", type: AttributeProto_AttributeType.INTS, ints: [0n] });
    node.push(create(NodeProtoSchema, { opType: "ReduceSum", name: `sum${i}`, input: [`W${i}`], output: [`s${i}`], attribute: [axes] }));
  }
  node.push(create(NodeProtoSchema, { opType: "Sum", name: "total", input: initializer.map((_, i) => `s${i}`), output: ["y"] }));
  const model = create(ModelProtoSchema, {
    irVersion: 7n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 11n })],
    graph: create(GraphProtoSchema, { name: "weights", initializer, node, output: [floatOutput("y")] }),
  });
  fs.writeFileSync(path.join(dir, "big.onnx"), encodeModel(model));
}

function row(label: string, runs: readonly Measured[]): string {
  const ok = runs.every((r) => r.ok);
  return `${label.padEnd(58)} ${median(runs.map((r) => r.seconds))
    .toFixed(2)
    .padStart(6)} s ${median(runs.map((r) => r.peakMiB))
    .toFixed(0)
    .padStart(6)} MiB${ok ? "" : `  FAILED: ${runs.find((r) => !r.ok)?.stderr}`}`;
}

function main(): number {
  const repeat = numberArg("repeat", 5);
  const keep = process.argv.indexOf("--keep");
  const work = keep >= 0 ? process.argv[keep + 1]! : fs.mkdtempSync(path.join(tmpdir(), "onnxtxt-opset-bench-"));
  fs.mkdirSync(work, { recursive: true });
  try {
    const resnet = path.join(REPO, "test/data/light/light_resnet50.onnx");
    writeExternalModel(work, 2 ** 30);
    const cases: [string, string[]][] = [
      ["ResNet-50 (opset 9) -> newest, .onnx -> .onnx", ["upgrade", resnet, path.join(work, "resnet50-new.onnx")]],
      ["ResNet-50 (opset 9) -> newest, .onnx -> .onnxtxt", ["upgrade", resnet, path.join(work, "resnet50-new.onnxtxt")]],
      ["1 GiB external weights, opset 11 -> newest", ["upgrade", path.join(work, "big.onnx"), path.join(work, "big-new.onnx")]],
      ["1 GiB external weights, newest -> opset 11", ["downgrade", "--opset", "11", path.join(work, "big-new.onnx"), path.join(work, "big-back.onnx")]],
    ];
    console.log(`opset conversion, whole process, median of ${repeat}`);
    let failed = false;
    for (const [label, args] of cases) {
      const runs = Array.from({ length: repeat }, () => measure([process.execPath, CLI, ...args]));
      failed ||= runs.some((r) => !r.ok);
      console.log(row(label, runs));
    }
    return failed ? 1 : 0;
  } finally {
    if (keep < 0) fs.rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = main();
