// In-process cost of each analysis stage on the large document, as CPU time of this thread
// (less sensitive than wall time to other work on a shared machine), plus hover. The early
// diagnostics of an edit need only the parse; the full set needs every stage.
// Usage: node dist/bench/lsp-stages.js [--nodes 50000] [--repeat 5]
import { analyzeSteps } from "../core/src/ide/analyze.js";
import type { Analysis } from "../core/src/ide/analysis.js";
import { hover } from "../core/src/ide/hover.js";
import { reanalyzeSteps } from "../core/src/ide/incremental.js";
import { largeDocument } from "./lsp-document.js";
import { median, numberArg } from "./stats.js";

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const STAGES = ["parse", "lower", "infer", "check"];
const nodes = numberArg("nodes", 50000);
const repeat = numberArg("repeat", 5);
const text = largeDocument(nodes);
const costs: number[][] = STAGES.map(() => []);
const walls: number[] = [];
const hovers: number[] = [];
const symbolCosts: number[] = [];
const editCosts: number[] = [];
const cutCosts: number[] = [];
for (let r = 0; r < repeat; r++) {
  const steps = analyzeSteps(text);
  let stage = 0;
  let last = cpuMs();
  const wall = performance.now();
  let result: IteratorResult<Analysis | undefined, Analysis>;
  while (!(result = steps.next()).done) {
    const now = cpuMs();
    costs[stage++]!.push(now - last);
    last = now;
  }
  costs[stage]!.push(cpuMs() - last);
  walls.push(performance.now() - wall);
  const a = result.value;
  // The symbol index is built after the diagnostics go out (or on first use).
  const s0 = cpuMs();
  void a.symbols;
  symbolCosts.push(cpuMs() - s0);
  for (let h = 1; h <= 10; h++) {
    const offset = text.indexOf(`  v${Math.floor((h * nodes) / 11)} =`) + 3;
    const t = cpuMs();
    if (!hover(a, offset)?.markdown.includes("float[N, 16]")) throw new Error(`no typed hover at ${offset}`);
    hovers.push(cpuMs() - t);
  }
  // One-character edits analysed incrementally. Local: `Sub` -> `Sum` and back (the types stay,
  // so nothing downstream is redone). Cut: rename an input in the middle of the chain, `vN` ->
  // `wN` (an undefined name; every type downstream changes: the worst case), and restore it.
  let current = a;
  const edit = (at: number, ch: string, costs: number[]): void => {
    const change = { start: at, end: at + 1, newLength: 1 };
    const after = current.text.slice(0, at) + ch + current.text.slice(at + 1);
    const t = cpuMs();
    const steps = reanalyzeSteps(current, change, after);
    if (!steps) throw new Error(`edit at ${at} was not analysed incrementally`);
    let s = steps.next();
    while (!s.done) s = steps.next();
    costs.push(cpuMs() - t);
    current = s.value;
  };
  const op = text.indexOf("= Sub (", text.length / 3) + 4;
  edit(op, "m", editCosts);
  edit(op, "b", editCosts);
  const input = text.indexOf("(v", text.length / 2) + 1;
  edit(input, "w", cutCosts);
  if (!current.diagnostics.some((d) => d.code === "undefined-value")) throw new Error("the renamed input is not reported");
  edit(input, "v", cutCosts);
  if (current.diagnostics.length > 0) throw new Error(`restored text has diagnostics: ${current.diagnostics[0]!.message}`);
}
console.log(`analysis stages, ${nodes} nodes (${(text.length / 1e6).toFixed(1)} MB), CPU ms (median of ${repeat})`);
STAGES.forEach((s, i) => console.log(`  ${s.padEnd(8)} ${median(costs[i]!).toFixed(0).padStart(6)}`));
const total = costs.reduce((sum, c) => sum + median(c), 0);
console.log(`  ${"total".padEnd(8)} ${total.toFixed(0).padStart(6)}   (wall ${median(walls).toFixed(0)} ms)`);
console.log(`  symbols  ${median(symbolCosts).toFixed(0).padStart(6)}   (built after the diagnostics are published)`);
console.log(`  hover    ${median(hovers).toFixed(1).padStart(6)}`);
console.log(`  incremental edit, local (Sub <-> Sum)                ${median(editCosts).toFixed(0).padStart(6)}`);
console.log(`  incremental edit, cut chain (rename input, restore)  ${median(cutCosts).toFixed(0).padStart(6)}   (max ${Math.max(...cutCosts).toFixed(0)})`);
console.log(`early diagnostics of an edit need the parse: ${median(costs[0]!).toFixed(0)} ms CPU (target 500 ms with the 60 ms pause)`);
