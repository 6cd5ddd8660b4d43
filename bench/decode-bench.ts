// Decoding a binary model with a chain of nodes (bench/wide-model.ts, 1,000,000 by default):
// the wire check alone, protobuf-es's reflective fromBinary, the generated decoder, and
// decodeModel (the check, then the generated decoder). Each way runs --runs times (default 3),
// the previous result dropped and collected first; the rows show the best and every run.
// `--only NAME` runs one way, `--file F` reads the model from F instead of making it (for
// `perf stat`, a run with --runs 1 against one with --runs 0 counts what the decoding costs).
// Run: npm run build && nice node --expose-gc --max-semi-space-size=32 dist/bench/decode-bench.js [--nodes N] [--runs N] [--only NAME] [--file F]
// (32 MB: what bin/onnxtxt.js gives the commands that have no size of their own in cli/src/snapshot-request.ts).
import * as fs from "node:fs";
import { fromBinary } from "@bufbuild/protobuf";
import { decodeModelProto } from "../proto/gen/onnx_decode.js";
import { ModelProtoSchema } from "../proto/src/index.js";
import { checkWire, decodeModel, MAX_MESSAGE_DEPTH } from "../core/src/io/index.js";
import { numberArg } from "./stats.js";
import { chainModelBytes } from "./wide-model.js";

const WAYS: Record<string, (bytes: Uint8Array) => unknown> = {
  checkWire: (bytes) => checkWire(ModelProtoSchema, bytes),
  fromBinary: (bytes) => fromBinary(ModelProtoSchema, bytes, { recursionLimit: MAX_MESSAGE_DEPTH }),
  generated: (bytes) => decodeModelProto(bytes, { recursionLimit: MAX_MESSAGE_DEPTH }),
  decodeModel: (bytes) => decodeModel(bytes),
};

function main(): void {
  const nodes = numberArg("nodes", 1_000_000);
  const runs = numberArg("runs", 3);
  const option = (name: string): string | undefined => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const only = option("only");
  const file = option("file");
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) console.log("(without --expose-gc: a run may also pay for collecting the previous one)");
  const bytes = file ? new Uint8Array(fs.readFileSync(file)) : chainModelBytes(nodes);
  console.log(`${file ?? `chain of ${nodes} nodes`}: ${(bytes.length / 1e6).toFixed(1)} MB`);
  for (const [name, decode] of Object.entries(WAYS)) {
    if (only !== undefined && name !== only) continue;
    const times: number[] = [];
    let kept: unknown;
    for (let i = 0; i < runs; i++) {
      kept = undefined;
      gc?.();
      const start = performance.now();
      kept = decode(bytes);
      times.push(performance.now() - start);
    }
    if (kept === undefined && runs > 0) throw new Error(`${name} gave nothing`);
    const all = times.map((t) => t.toFixed(0)).join(" ");
    console.log(`${name.padEnd(12)} best ${runs > 0 ? Math.min(...times).toFixed(0) : "-"} ms  (${all})`);
  }
}

main();
