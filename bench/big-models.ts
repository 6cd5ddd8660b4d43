// Big models through the CLI, each command as its own process timed with /usr/bin/time
// (wall seconds and peak resident memory):
//  - print of a model with 128 MiB of float32 weights (one initializer of 2^25 random values),
//    stdout to a file, against onnx's C++ printer: bench/onnx-printer/driver.cc built by
//    bench/onnx-printer/build.sh from an onnx source tree, given as ONNX_PRINTER=path (the row says
//    "skipped" without it). Both texts' weights are read back and compared with the model's.
//  - run of an 8-node model (MatMul chain) with 1 GiB of external float32 weights, against
//    onnxruntime-node creating a session and running once (bench/ort-run.ts); outputs compared.
//    Also `run --backend ort`, which should cost what onnxruntime-node itself does.
// Each command runs --repeat times (default 3), alternating; the rows show medians.
// Usage: npm run build && [ONNX_PRINTER=path/onnx-printer] node dist/bench/big-models.js [--repeat N] [--keep DIR]

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import {
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
  TensorShapeProtoSchema,
  TensorShapeProto_DimensionSchema,
  ValueInfoProtoSchema,
  type ModelProto,
} from "../proto/src/index.js";
import { decodeValue, encodeModel, encodeValue } from "../core/src/io/index.js";
import { compareOutputs } from "./compare.js";
import { seededUniform } from "./seeded.js";
import { median, numberArg } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "bin/onnxtxt.js");
const ORT_SCRIPT = path.join(REPO, "dist/bench/ort-run.js");

interface Measured {
  seconds: number;
  peakMiB: number;
  ok: boolean;
  stderr: string;
}

/** Runs `argv` under /usr/bin/time, stdout to `stdoutFile`. */
function measure(argv: string[], stdoutFile: string): Measured {
  const out = fs.openSync(stdoutFile, "w");
  try {
    const r = spawnSync("/usr/bin/time", ["-f", "@@ %e %M", ...argv], { stdio: ["ignore", out, "pipe"], encoding: "utf8" });
    const m = /@@ ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? "");
    return {
      seconds: m ? Number(m[1]) : NaN,
      peakMiB: m ? Number(m[2]) / 1024 : NaN,
      ok: r.status === 0,
      stderr: (r.stderr ?? "").replace(/@@.*$/s, "").trim(),
    };
  } finally {
    fs.closeSync(out);
  }
}

function floatInfo(name: string, dims: number[]) {
  const shape = create(TensorShapeProtoSchema, {
    dim: dims.map((d) => create(TensorShapeProto_DimensionSchema, { value: { case: "dimValue", value: BigInt(d) } })),
  });
  return create(ValueInfoProtoSchema, {
    name,
    type: create(TypeProtoSchema, { value: { case: "tensorType", value: create(TypeProto_TensorSchema, { elemType: TensorProto_DataType.FLOAT, shape }) } }),
  });
}

function randomWeights(n: number, seed: number): Float32Array {
  const w = seededUniform(n, seed);
  for (let i = 0; i < n; i++) w[i] = (w[i]! - 0.5) * 0.05;
  return w;
}

const PRINT_WEIGHTS = 2 ** 25;
const PRINT_SEED = 7;

/** y = Identity(W), W 2^25 float32 values (128 MiB) stored inline. */
function printModel(): ModelProto {
  const n = PRINT_WEIGHTS;
  const w = randomWeights(n, PRINT_SEED);
  return create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
    graph: create(GraphProtoSchema, {
      name: "weights",
      initializer: [create(TensorProtoSchema, { name: "W", dims: [BigInt(n)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(w.buffer) })],
      node: [create(NodeProtoSchema, { opType: "Identity", input: ["W"], output: ["y"] })],
      output: [floatInfo("y", [n])],
    }),
  });
}

const WIDE = 8192;
const NARROW = 4096;

/** x[1,4096] through 8 MatMuls with weights alternating [4096,8192] and [8192,4096]: 1 GiB in `data`. */
function writeRunModel(dir: string): void {
  const dataName = "run.onnx.data";
  const fd = fs.openSync(path.join(dir, dataName), "w");
  const initializer = [];
  const node = [];
  let offset = 0;
  let prev = "x";
  for (let i = 0; i < 8; i++) {
    const dims = i % 2 === 0 ? [NARROW, WIDE] : [WIDE, NARROW];
    const w = randomWeights(dims[0]! * dims[1]!, 100 + i);
    fs.writeSync(fd, new Uint8Array(w.buffer));
    const entry = (key: string, value: string) => create(StringStringEntryProtoSchema, { key, value });
    initializer.push(
      create(TensorProtoSchema, {
        name: `W${i}`,
        dims: dims.map(BigInt),
        dataType: TensorProto_DataType.FLOAT,
        dataLocation: TensorProto_DataLocation.EXTERNAL,
        externalData: [entry("location", dataName), entry("offset", String(offset)), entry("length", String(w.byteLength))],
      }),
    );
    offset += w.byteLength;
    const out = i === 7 ? "y" : `h${i}`;
    node.push(create(NodeProtoSchema, { opType: "MatMul", name: `mm${i}`, input: [prev, `W${i}`], output: [out] }));
    prev = out;
  }
  fs.closeSync(fd);
  const model = create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
    graph: create(GraphProtoSchema, { name: "chain", initializer, node, input: [floatInfo("x", [1, NARROW])], output: [floatInfo("y", [1, NARROW])] }),
  });
  fs.writeFileSync(path.join(dir, "run.onnx"), encodeModel(model));
}

/**
 * The numbers of a printed text's weight list (from the `{` after `W =` to its `}`) as float32,
 * or why they cannot be read: the two printers lay the list out and spell small numbers
 * differently (0.000015 against 1.5e-05), so they are compared by value.
 */
function weightValues(file: string, count: number): Float32Array | string {
  const values = new Float32Array(count);
  const fd = fs.openSync(file, "r");
  const chunk = Buffer.alloc(1 << 20);
  let n = 0;
  let head: string | undefined = "";
  let carry = "";
  try {
    for (let at = 0, got; (got = fs.readSync(fd, chunk, 0, chunk.length, at)) > 0; at += got) {
      let text = chunk.toString("latin1", 0, got);
      if (head !== undefined) {
        head += text;
        const w = head.indexOf("W =");
        const open = w < 0 ? -1 : head.indexOf("{", w);
        if (open < 0) continue;
        text = head.slice(open + 1);
        head = undefined;
      }
      text = carry + text;
      const close = text.indexOf("}");
      const pieces = (close >= 0 ? text.slice(0, close) : text).split(",");
      carry = close >= 0 ? "" : pieces.pop()!;
      if (close >= 0 && pieces.length === 1 && pieces[0]!.trim() === "") pieces.pop();
      for (const piece of pieces) {
        if (n === count) return `more than ${count} values`;
        values[n++] = Number(piece);
      }
      if (close >= 0) return n === count ? values : `${n} values, not ${count}`;
    }
  } finally {
    fs.closeSync(fd);
  }
  return "no weight list";
}

/** How `text`'s weights compare with the model's own. */
function checkWeights(text: string, weights: Float32Array): string | undefined {
  const values = weightValues(text, weights.length);
  if (typeof values === "string") return values;
  const [a, b] = [new Uint32Array(values.buffer), new Uint32Array(weights.buffer)];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `value ${i} is ${values[i]}, not ${weights[i]}`;
  return undefined;
}

function row(label: string, m: Measured): string {
  return `${label.padEnd(44)} ${m.ok ? `${m.seconds.toFixed(2).padStart(7)} s ${m.peakMiB.toFixed(0).padStart(7)} MiB` : `failed: ${m.stderr.split("\n")[0]}`}`;
}

interface Command {
  label: string;
  argv: string[];
  stdoutFile: string;
}

/** Runs the commands in turn `repeat` times (so they share the machine's noise); medians of each. */
function measureAlternating(commands: Command[], repeat: number): Measured[] {
  const runs = commands.map((): Measured[] => []);
  for (let r = 0; r < repeat; r++) commands.forEach((c, i) => runs[i]!.push(measure(c.argv, c.stdoutFile)));
  return runs.map((ms, i) => {
    const m: Measured = {
      seconds: median(ms.map((x) => x.seconds)),
      peakMiB: median(ms.map((x) => x.peakMiB)),
      ok: ms.every((x) => x.ok),
      stderr: ms.map((x) => x.stderr).join("\n"),
    };
    console.log(row(commands[i]!.label, m));
    return m;
  });
}

function ratio(a: Measured, b: Measured): string {
  return `time ${(a.seconds / b.seconds).toFixed(2)}x, memory ${(a.peakMiB / b.peakMiB).toFixed(2)}x`;
}

function main(argv: string[]): number {
  const k = argv.indexOf("--keep");
  const keep = k >= 0 ? argv[k + 1] : undefined;
  const repeat = numberArg("repeat", 3);
  const work = keep ?? fs.mkdtempSync(path.join(tmpdir(), "onnxtxt-big-"));
  fs.mkdirSync(work, { recursive: true });
  let failures = 0;
  try {
    const printFile = path.join(work, "print.onnx");
    if (!fs.existsSync(printFile)) fs.writeFileSync(printFile, encodeModel(printModel()));
    console.log(
      `print of a model with 128 MiB of float32 weights (${(fs.statSync(printFile).size / 2 ** 20).toFixed(0)} MiB file), stdout to a file; median of ${repeat}`,
    );
    const myText = path.join(work, "print.onnxtxt");
    const refText = path.join(work, "print.ref.txt");
    const printer = process.env.ONNX_PRINTER;
    const [mine, ref] = measureAlternating(
      [
        { label: "onnxtxt print", argv: [process.execPath, CLI, "print", printFile], stdoutFile: myText },
        ...(printer ? [{ label: "onnx C++ printer (bench/onnx-printer)", argv: [printer, printFile], stdoutFile: refText }] : []),
      ],
      repeat,
    );
    if (!mine!.ok) failures++;
    console.log(`  text: ${(fs.statSync(myText).size / 2 ** 20).toFixed(0)} MiB`);
    if (!ref) {
      console.log("  onnx C++ printer: skipped: set ONNX_PRINTER to a binary built by bench/onnx-printer/build.sh ONNX_SRC");
    } else if (mine!.ok && ref.ok) {
      console.log(`  ratio onnxtxt / onnx C++ printer: ${ratio(mine!, ref)}`);
      const weights = randomWeights(PRINT_WEIGHTS, PRINT_SEED);
      const wrong = [myText, refText].map((t) => checkWeights(t, weights));
      console.log(
        `  weights: ${wrong.every((w) => w === undefined) ? `both texts give the model's ${PRINT_WEIGHTS} float32 values exactly` : `onnxtxt: ${wrong[0] ?? "exact"}; onnx: ${wrong[1] ?? "exact"}`}; onnx's text ${(fs.statSync(refText).size / 2 ** 20).toFixed(0)} MiB`,
      );
      if (wrong.some((w) => w !== undefined)) failures++;
    } else failures++;

    if (!fs.existsSync(path.join(work, "run.onnx"))) writeRunModel(work);
    const x = seededUniform(NARROW, 3);
    const rawInput = path.join(work, "x.f32");
    fs.writeFileSync(rawInput, new Uint8Array(x.buffer));
    const pbInput = path.join(work, "x.pb");
    fs.writeFileSync(
      pbInput,
      encodeValue({
        kind: "tensor",
        value: create(TensorProtoSchema, { name: "x", dims: [1n, BigInt(NARROW)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(x.buffer) }),
      }),
    );
    console.log(
      `\nrun of an 8-node MatMul chain with ${(fs.statSync(path.join(work, "run.onnx.data")).size / 2 ** 30).toFixed(2)} GiB of external weights; median of ${repeat}`,
    );
    const ortOut = path.join(work, "y.ort.f32");
    const outDir = path.join(work, "out");
    const [ort, run, viaOrt] = measureAlternating(
      [
        {
          label: "onnxruntime-node (session + one run)",
          argv: [process.execPath, ORT_SCRIPT, path.join(work, "run.onnx"), "x", rawInput, `1,${NARROW}`, ortOut],
          stdoutFile: path.join(work, "ort.stdout"),
        },
        {
          label: "onnxtxt run",
          argv: [process.execPath, CLI, "run", path.join(work, "run.onnx"), "--input", `x=${pbInput}`, "--output-dir", outDir, "--quiet"],
          stdoutFile: path.join(work, "run.stdout"),
        },
        {
          label: "onnxtxt run --backend ort",
          argv: [process.execPath, CLI, "run", path.join(work, "run.onnx"), "--input", `x=${pbInput}`, "--backend", "ort", "--quiet"],
          stdoutFile: path.join(work, "run-ort.stdout"),
        },
      ],
      repeat,
    );
    if (!viaOrt!.ok) failures++;
    if (ort!.ok && run!.ok) {
      console.log(`  ratio onnxtxt run / onnxruntime-node: ${ratio(run!, ort!)}`);
      if (viaOrt!.ok) console.log(`  ratio onnxtxt run --backend ort / onnxruntime-node: ${ratio(viaOrt!, ort!)}`);
      const expected = fs.readFileSync(ortOut);
      const value = decodeValue(fs.readFileSync(path.join(outDir, "output_0.pb")), "tensor");
      if (value.kind === "tensor") {
        const t = value.value;
        const actual = new Float32Array(t.rawData.buffer.slice(t.rawData.byteOffset, t.rawData.byteOffset + t.rawData.byteLength));
        const c = compareOutputs(actual, new Float32Array(expected.buffer.slice(expected.byteOffset, expected.byteOffset + expected.byteLength)), 1e-3, 1e-5);
        console.log(`  outputs: ${c.summary}`);
        if (!c.ok) failures++;
      }
    } else failures++;
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
