// Graph view speed, against the bounds of the graph-view issue:
//  - ResNet-50 (light structure, printed as text): analysis -> display graph -> ELK layout, as
//    the editor's view does on open and after an edit (goal: view within 1 s of the command,
//    updated within 300 ms of an edit; the view waits 150 ms after typing pauses before it
//    asks, on top of this row, and skips the layout when boxes and wires are unchanged);
//  - `onnxtxt graph` of the 50k-node chain as a whole process (goal: within 10 s).
// Layout here runs the same ELK in-process; in the editor it runs in a Web Worker.
// Run: npx tsc -p . && node dist/bench/graph-bench.js [--runs N]
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as elkModule from "elkjs/lib/elk.bundled.js";
import { toElk, type LayoutEngine } from "../core/src/graph/index.js";
import { analyze } from "../core/src/ide/analyze.js";
import { graphView } from "../core/src/graph/view-data.js";
import { decodeModel } from "../core/src/io/index.js";
import { printModel } from "../core/src/print-model.js";
import { bigGraphText } from "./parse-bench.js";
import { median, numberArg } from "./stats.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "bin/onnxtxt.js");
const RESNET = path.join(REPO, "test/data/light/light_resnet50.onnx");
const Elk = (elkModule as unknown as { default: new () => LayoutEngine }).default;

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await fn();
  return [r, performance.now() - t0];
}

function row(what: string, ms: number, goal: number): void {
  process.stdout.write(`${what.padEnd(52)} ${ms.toFixed(0).padStart(7)} ms   goal <= ${goal} ms  ${ms <= goal ? "met" : "NOT met"}\n`);
}

async function main(): Promise<void> {
  const runs = numberArg("runs", 5);
  const text = printModel(decodeModel(fs.readFileSync(RESNET)));
  const engine = new Elk();
  const analysisMs: number[] = [],
    viewMs: number[] = [],
    layoutMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [analysis, a] = await timed(() => analyze(text));
    const [data, v] = await timed(() => graphView(analysis)!);
    const [, l] = await timed(() => engine.layout(toElk(data.graph, new Set())));
    analysisMs.push(a);
    viewMs.push(v);
    layoutMs.push(l);
  }
  const a = median(analysisMs),
    v = median(viewMs),
    l = median(layoutMs);
  process.stdout.write(`ResNet-50: analysis ${a.toFixed(0)} ms, display graph ${v.toFixed(0)} ms, ELK layout ${l.toFixed(0)} ms (medians of ${runs})\n`);
  row("ResNet-50 view: display graph + layout", v + l, 1000);
  row("ResNet-50 edit: analysis + display graph + layout", a + v + l, 300);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "graph-bench-"));
  try {
    const chain = path.join(dir, "chain.onnxtxt");
    fs.writeFileSync(chain, bigGraphText(50_000));
    const [r, ms] = await timed(() => spawnSync(process.execPath, [CLI, "graph", chain, "-o", path.join(dir, "chain.svg")], { encoding: "utf8" }));
    if (r.status !== 0) throw new Error(`onnxtxt graph failed: ${r.stderr}`);
    row("onnxtxt graph, 50k-node chain (whole process)", ms, 10_000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
