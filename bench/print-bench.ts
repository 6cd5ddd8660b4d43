// Printer speed: printing the 2M-element float model (binary -> text) against parsing its text
// (text -> binary), in process, on the same generated model as the parser bench. The target
// is printing no slower than parsing. Also checks that the printed text reads back to the same
// model. Run: npx tsc -p . && node dist/bench/print-bench.js [--runs N]
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { encodeModel } from "../core/src/io/index.js";
import { printModel } from "../core/src/print/print-model.js";
import { modelFromText } from "../core/src/text.js";
import type { ModelProto } from "../proto/src/index.js";
import { bigGraphText, bigTensorText } from "./parse-bench.js";

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

function main(): void {
  const runsFlag = process.argv.indexOf("--runs");
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 3;
  let allOk = true;
  for (const [name, source] of [
    ["2M-element float tensor", bigTensorText(2_000_000)],
    ["50k-node graph", bigGraphText(50_000)],
  ] as const) {
    const model = parse(source);
    const printed = printModel(model);
    const tParse = bestMs(runs, () => parse(printed));
    const tPrint = bestMs(runs, () => printModel(model));
    const same = Buffer.from(encodeModel(parse(printed))).equals(Buffer.from(encodeModel(model)));
    const ok = tPrint <= tParse && same;
    allOk &&= ok;
    console.log(
      `${name.padEnd(24)} print ${tPrint.toFixed(0).padStart(6)} ms   parse ${tParse.toFixed(0).padStart(6)} ms   ratio ${(tPrint / tParse).toFixed(2)}   ` +
        `round trip: ${same ? "same" : "DIFFERENT"}   ${ok ? "ok" : "SLOWER OR DIFFERENT"}`,
    );
  }
  process.exitCode = allOk ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
