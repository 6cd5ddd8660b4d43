// Benchmark: `checkModel` + `inferModel` against onnx's C++ checker + shape inference (Debian's
// python3-onnx) on the light networks, both in-process, after loading: median of N runs each.
// Usage: node dist/bench/semantics-bench.js [--repeat N]
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { checkModel } from "../core/src/check/index.js";
import { inferModel } from "../core/src/infer/index.js";
import { decodeModel } from "../core/src/io/index.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LIGHT = path.join(REPO, "test/data/light");

const REFERENCE = `
import json, sys, time, statistics
import onnx, onnx.checker, onnx.shape_inference
out = {}
repeat = int(sys.argv[1])
for path in sys.argv[2:]:
    m = onnx.load(path)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        onnx.checker.check_model(m)
        onnx.shape_inference.infer_shapes(m)
        times.append(time.perf_counter() - t)
    out[path] = statistics.median(times)
print(json.dumps(out))
`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

function main(): void {
  const repeatAt = process.argv.indexOf("--repeat");
  const repeat = repeatAt > 0 ? Number(process.argv[repeatAt + 1]) : 5;
  const files = readdirSync(LIGHT)
    .filter((f) => f.endsWith(".onnx"))
    .map((f) => path.join(LIGHT, f))
    .sort();
  const ref = spawnSync("/usr/bin/python3", ["-c", REFERENCE, String(repeat), ...files], { encoding: "utf8" });
  const refTimes = ref.status === 0 ? (JSON.parse(ref.stdout) as Record<string, number>) : {};
  console.log("model                 nodes   onnxtxt ms   onnx 1.12 ms   ratio");
  for (const file of files) {
    const model = decodeModel(readFileSync(file));
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t = process.hrtime.bigint();
      checkModel(model);
      inferModel(model);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const ours = median(times);
    const theirs = refTimes[file] === undefined ? NaN : refTimes[file]! * 1000;
    const name = path.basename(file, ".onnx").replace(/^light_/, "");
    console.log(
      `${name.padEnd(20)} ${String(model.graph!.node.length).padStart(6)} ${ours.toFixed(1).padStart(12)} ${theirs.toFixed(1).padStart(14)} ${(ours / theirs).toFixed(2).padStart(7)}`,
    );
  }
}

main();
