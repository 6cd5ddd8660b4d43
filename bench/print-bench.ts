// Printer speed: printing (binary -> text) against parsing the printed text (text -> binary),
// on the parser bench's generated models plus a tensor of random float32 weights (which need
// eight or nine digits, where the parser bench's six-decimal values need seven).
//  - in process: printModel(model) against modelFromText(its text), best of N each. The
//    target is printing no slower than parsing; the printed text must read back to the model.
//    Also printModel streamed to a sink (as the CLI prints), which must give as many bytes.
//  - whole process (information, not judged): `onnxtxt print X.onnx -o X.onnxtxt` against
//    `onnxtxt convert X.onnxtxt X.onnx`, run alternately, medians; this adds Node start-up,
//    file IO, decoding and encoding to both sides.
// Run: npx tsc -p . && node dist/bench/print-bench.js [--runs N] [--no-process]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { encodeModel } from "../core/src/io/index.js";
import { printModel } from "../core/src/print-model.js";
import { modelFromText } from "../core/src/text.js";
import {
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProtoSchema,
  TensorProto_DataType,
  ValueInfoProtoSchema,
  type ModelProto,
} from "../proto/src/index.js";
import { bigGraphText, bigTensorText } from "./parse-bench.js";
import { median } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "bin/onnxtxt.js");

function bestMs(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

function parse(text: string): ModelProto {
  const r = modelFromText(text);
  if (!r.model) throw new Error(`the bench text does not parse: ${r.diagnostics[0]?.message}`);
  return r.model;
}

/** `count` random float32 weights (every bit pattern of a uniform draw) as one initializer. */
function randomWeightsModel(count: number): ModelProto {
  let seed = 20261122;
  const floats = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    floats[i] = (seed / 2 ** 32 - 0.5) * 0.2;
  }
  const info = (name: string) => create(ValueInfoProtoSchema, { name });
  return create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
    graph: create(GraphProtoSchema, {
      name: "weights",
      initializer: [create(TensorProtoSchema, { name: "w", dims: [BigInt(count)], dataType: TensorProto_DataType.FLOAT, floatData: Array.from(floats) })],
      node: [create(NodeProtoSchema, { opType: "Identity", input: ["w"], output: ["y"] })],
      output: [info("y")],
    }),
  });
}

function timeCli(args: readonly string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`onnxtxt ${args.join(" ")} failed: ${r.stderr}`);
  return ms;
}

/** Whole processes, alternating print and convert so both see the same machine noise. */
function wholeProcess(model: ModelProto, runs: number, dir: string): [number, number] {
  const onnx = path.join(dir, "in.onnx");
  const text = path.join(dir, "out.onnxtxt");
  const back = path.join(dir, "back.onnx");
  fs.writeFileSync(onnx, encodeModel(model));
  timeCli(["print", onnx, "-o", text]); // warm the file cache
  const tPrint: number[] = [];
  const tParse: number[] = [];
  for (let i = 0; i < runs; i++) {
    tPrint.push(timeCli(["print", onnx, "-o", text]));
    tParse.push(timeCli(["convert", text, back]));
  }
  return [median(tPrint), median(tParse)];
}

function main(): void {
  const runsFlag = process.argv.indexOf("--runs");
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 3;
  const withProcess = !process.argv.includes("--no-process");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-print-bench-"));
  let allOk = true;
  try {
    const inputs: [string, () => ModelProto][] = [
      ["2M-element float tensor", () => parse(bigTensorText(2_000_000))],
      ["2M random float32", () => randomWeightsModel(2_000_000)],
      ["50k-node graph", () => parse(bigGraphText(50_000))],
    ];
    console.log(
      `print bench: in process best of ${runs}` + (withProcess ? `; whole process (onnxtxt print vs onnxtxt convert) median of ${runs}, alternating` : ""),
    );
    for (const [name, build] of inputs) {
      const model = build();
      const printed = printModel(model);
      const tParse = bestMs(runs, () => parse(printed));
      const tPrint = bestMs(runs, () => printModel(model));
      // as the CLI prints: streamed in chunks, the text never whole
      let streamedBytes = 0;
      const tStream = bestMs(runs, () => {
        streamedBytes = 0;
        printModel(model, { write: (b) => void (streamedBytes += b.length) });
      });
      const same = Buffer.from(encodeModel(parse(printed))).equals(Buffer.from(encodeModel(model)));
      const ok = tPrint <= tParse && same && streamedBytes === Buffer.byteLength(printed);
      allOk &&= ok;
      let line =
        `${name.padEnd(24)} ${(printed.length / 1e6).toFixed(1).padStart(5)} MB   print ${tPrint.toFixed(0).padStart(5)} ms (streamed ${tStream.toFixed(0)} ms)   parse ${tParse.toFixed(0).padStart(5)} ms   ratio ${(tPrint / tParse).toFixed(2)}   ` +
        `round trip: ${same ? "same" : "DIFFERENT"}   ${ok ? "ok" : "SLOWER OR DIFFERENT"}`;
      if (withProcess) {
        const [pPrint, pParse] = wholeProcess(model, runs, dir);
        line += `   | process: print ${pPrint.toFixed(0)} ms, convert ${pParse.toFixed(0)} ms, ratio ${(pPrint / pParse).toFixed(2)}`;
      }
      console.log(line);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = allOk ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
