// `onnxtxt diff` as a whole process (start-up, reading both models, matching, the report),
// measured by /usr/bin/time -v: two ResNet-50s with one attribute changed (aim <= 0.5 s), and
// two chains of 1,000,000 nodes with one alpha changed in the middle (aim <= 10 s and 1.5 GB).
// Each run also checks the diff found exactly the one change.
// Run: npm run build && nice node dist/bench/diff-bench.js [--nodes N] [--repeat N]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeModel, encodeModel } from "../core/src/io/index.js";
import { median } from "./stats.js";
import { requireTime, timedCli } from "./timed-cli.js";
import { chainModelBytes } from "./wide-model.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

interface Measure {
  seconds: number;
  peakMb: number;
  code: number;
  changes: number;
}

function measure(args: readonly string[]): Measure {
  const r = timedCli(args);
  let changes = -1;
  try {
    changes = (JSON.parse(r.stdout) as { changes: unknown[] }).changes.length;
  } catch {
    process.stdout.write(r.stderr.slice(0, 2000));
  }
  return { seconds: r.seconds, peakMb: r.peakMb, code: r.code, changes };
}

function row(label: string, runs: Measure[], aimS: number, aimMb: number): void {
  const seconds = median(runs.map((m) => m.seconds));
  const peak = Math.max(...runs.map((m) => m.peakMb));
  const right = runs.every((m) => m.code === 1 && m.changes === 1);
  const within = seconds <= aimS && peak <= aimMb;
  const aim = `${within ? "ok" : "OVER"} (<= ${aimS} s, <= ${aimMb} MB)`;
  console.log(`${label.padEnd(44)} ${seconds.toFixed(2).padStart(8)} ${peak.toFixed(0).padStart(8)}  ${right ? "1 change" : "WRONG"}  ${aim}`);
}

function main(): void {
  requireTime();
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const nodes = arg("--nodes", 1_000_000);
  const repeat = arg("--repeat", 5);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-diff-bench-"));
  try {
    console.log(`${"onnxtxt diff --format json A B".padEnd(44)} ${"seconds".padStart(8)} ${"peak MB".padStart(8)}`);
    const resnet = decodeModel(fs.readFileSync(path.join(REPO, "test/data/light/light_resnet50.onnx")));
    const a = path.join(dir, "resnet_a.onnx");
    fs.writeFileSync(a, encodeModel(resnet));
    const conv = resnet.graph!.node.find((n) => n.opType === "Conv" && n.attribute.some((x) => x.name === "strides"))!;
    const strides = conv.attribute.find((x) => x.name === "strides")!;
    strides.ints = strides.ints.map((v) => v + 1n);
    const b = path.join(dir, "resnet_b.onnx");
    fs.writeFileSync(b, encodeModel(resnet));
    const runs: Measure[] = [];
    for (let i = 0; i < repeat; i++) runs.push(measure(["diff", "--format", "json", a, b]));
    row("ResNet-50 vs ResNet-50 (one attribute)", runs, 0.5, 1536);

    const middle = Math.floor(nodes / 3 / 2) * 3 + 2; // a LeakyRelu
    const ca = path.join(dir, "chain_a.onnx");
    const cb = path.join(dir, "chain_b.onnx");
    fs.writeFileSync(ca, chainModelBytes(nodes));
    fs.writeFileSync(
      cb,
      chainModelBytes(nodes, (i) => (i === middle ? 0.25 : 0.5)),
    );
    row(`chain of ${nodes} nodes vs the same (one alpha)`, [measure(["diff", "--format", "json", ca, cb])], 10, 1536);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
