// Scale: a binary model with a chain of 1,000,000 nodes through check, convert, print, infer
// and run, each as a whole `onnxtxt` process measured by /usr/bin/time -v (wall time and
// peak resident memory), then the text it converts to back through check and convert.
// The aim (issue 22): check/convert/print under 10 s and 1.5 GB each.
// Run: npm run build && nice node dist/bench/scale-bench.js [--nodes N]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { requireTime, timedCli } from "./timed-cli.js";
import { chainModelBytes } from "./wide-model.js";

const LIMIT_S = 10;
const LIMIT_MB = 1536;

interface Measure {
  seconds: number;
  peakMb: number;
  code: number;
  tail: string;
}

/** One CLI process under /usr/bin/time -v. */
function measure(args: readonly string[]): Measure {
  const r = timedCli(args);
  return { seconds: r.seconds, peakMb: r.peakMb, code: r.code, tail: r.stderr.trim().split("\n").slice(-1)[0] ?? "" };
}

function main(): void {
  requireTime();
  const at = process.argv.indexOf("--nodes");
  const nodes = at > 0 ? Number(process.argv[at + 1]) : 1_000_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-scale-"));
  try {
    const model = path.join(dir, "chain.onnx");
    fs.writeFileSync(model, chainModelBytes(nodes));
    const text = path.join(dir, "chain.onnxtxt");
    const steps: [string, string[], boolean][] = [
      ["check chain.onnx", ["check", model], true],
      ["convert chain.onnx chain.onnxtxt", ["convert", model, text], true],
      ["print -o printed.onnxtxt chain.onnx", ["print", "-o", path.join(dir, "printed.onnxtxt"), model], true],
      ["infer chain.onnx typed.onnx", ["infer", model, path.join(dir, "typed.onnx")], false],
      ["run chain.onnx", ["run", "--quiet", "--input", "x=float[1] {-3}", model], false],
      ["check chain.onnxtxt", ["check", text], false],
      ["convert chain.onnxtxt back.onnx", ["convert", text, path.join(dir, "back.onnx")], false],
    ];
    console.log(`chain of ${nodes} nodes: ${(fs.statSync(model).size / 1e6).toFixed(1)} MB binary`);
    console.log(`${"command".padEnd(40)} ${"exit".padStart(4)} ${"seconds".padStart(8)} ${"peak MB".padStart(8)}  aim`);
    for (const [label, args, aimed] of steps) {
      const m = measure(args);
      const within = m.seconds < LIMIT_S && m.peakMb < LIMIT_MB;
      const aim = aimed ? (within ? `ok (< ${LIMIT_S} s, < ${LIMIT_MB} MB)` : `OVER (${LIMIT_S} s, ${LIMIT_MB} MB)`) : "";
      console.log(`${label.padEnd(40)} ${String(m.code).padStart(4)} ${m.seconds.toFixed(1).padStart(8)} ${m.peakMb.toFixed(0).padStart(8)}  ${aim}`);
      if (m.code !== 0 && !(label.startsWith("check") && m.code === 1)) console.log(`  ${m.tail}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
