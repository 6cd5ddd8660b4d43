// Bounded runs (issue 22, item 8): every op claims its memory before allocating it, so a run
// under --max-memory never grows past the cap (measured as the child process's peak RSS),
// and long kernels poll the deadline inside, not only between nodes.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describeRunError, GuardError } from "../../core/src/interp/index.js";
import { fastRegistry } from "../../core/src/interp/fast/index.js";
import { runFailure } from "./harness/run-failure.js";
import { CLI } from "../helpers/paths.js";

const H = `<ir_version: 8, opset_import: ["" : 18]>\n`;

/** The CLI as a child process, with its peak resident memory in MB. */
function measuredCli(args: readonly string[]): { code: number; stderr: string; peakMb: number } {
  const script = `process.on("exit", () => process.stderr.write("\\npeak-rss-kb=" + process.resourceUsage().maxRSS + "\\n"));
process.argv.splice(1, 0, ${JSON.stringify(CLI)});
await import(${JSON.stringify(pathToFileURL(CLI).href)});`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, ...args], { encoding: "utf8" });
  const m = /\npeak-rss-kb=(\d+)\n$/.exec(r.stderr);
  assert.ok(m, r.stderr);
  return { code: r.status ?? -1, stderr: r.stderr.slice(0, m.index), peakMb: Number(m[1]) / 1024 };
}

const OVER_THE_CAP: Record<string, string> = {
  // 22000 x 22000 float is 1.9 GB: the fast ConstantOfShape allocated it before the cap looked
  "ConstantOfShape 22000 x 22000 (fast kernel)": `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {22000, 22000}> ()\n y = ConstantOfShape <value = float[1] {1}> (s) }`,
  // delta 2e-9: 5e8 elements, first made as 4 GB of doubles
  "Range with a tiny delta": `${H}g (float[1] x) => (float y) { a = Constant <value = float {0}> ()\n b = Constant <value = float {1}> ()\n c = Constant <value = float {2e-9}> ()\n y = Range(a, b, c) }`,
  // the outer product of two 20000-vectors: 3.2 GB of doubles before the output
  "Einsum i,j->ij of two 20000-vectors": `${H}g (float[20000] a, float[20000] b) => (float y) { y = Einsum <equation = "i,j->ij"> (a, b) }`,
  "MatMul to 20000 x 20000 (fast kernel)": `${H}g (float[20000, 1] a, float[1, 20000] b) => (float y) { y = MatMul(a, b) }`,
};

describe("bounded runs: memory claimed before allocation, deadlines inside kernels", function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-bounded-"))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [name, text] of Object.entries(OVER_THE_CAP)) {
    it(`${name}: refused under --max-memory 256 without growing past it`, () => {
      const file = path.join(dir, `${name.replace(/\W+/g, "-")}.onnxtxt`);
      fs.writeFileSync(file, text);
      const r = measuredCli(["run", "--max-memory", "256", file]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /would exceed the memory limit\n$/);
      assert.ok(r.peakMb < 256 + 200, `peak RSS ${r.peakMb.toFixed(0)} MB`);
    });
  }

  it("a 4000 x 4000 MatMul on the fast kernels stops at a 300 ms deadline, inside the kernel", () => {
    const text = `${H}g (float[4000, 4000] a, float[4000, 4000] b) => (float y) { y = MatMul(a, b) }`;
    const { error, ms } = runFailure(text, { registry: fastRegistry(), timeoutMs: 300 });
    assert.ok(error instanceof GuardError, describeRunError(error));
    assert.match(describeRunError(error), /took longer than 300 ms/);
    assert.ok(ms < 5000, `stopped after ${ms} ms`);
  });

  it("reference MatMul and Conv kernels stop at the deadline too", () => {
    const matmul = `${H}g (float[1500, 1500] a, float[1500, 1500] b) => (float y) { y = MatMul(a, b) }`;
    const conv = `${H}g (float[1, 64, 128, 128] x, float[64, 64, 5, 5] w) => (float y) { y = Conv(x, w) }`;
    for (const text of [matmul, conv]) {
      const { error, ms } = runFailure(text, { timeoutMs: 100 });
      assert.match(describeRunError(error), /took longer than 100 ms/);
      assert.ok(ms < 3000, `stopped after ${ms} ms`);
    }
  });

  it("the memory check counts what is live: a second large value does not fit beside the first", () => {
    // each tensor alone is 40 MB, under the 64 MiB cap; together they are not
    const text = `${H}g (float[1] x) => (float y, float z) { s = Constant <value = int64[1] {10000000}> ()\n y = ConstantOfShape <value = float[1] {1}> (s)\n t = Constant <value = int64[1] {10000001}> ()\n z = ConstantOfShape <value = float[1] {2}> (t) }`;
    const { error } = runFailure(text, { maxMemoryBytes: 64 * 1024 * 1024, registry: fastRegistry() });
    assert.ok(error instanceof GuardError);
    assert.equal(describeRunError(error), "a tensor of 10000001 float elements would exceed the memory limit");
  });

  it("onnxtxt run states its default time cap", () => {
    const r = spawnSync(process.execPath, [CLI, "run", "--help"], { encoding: "utf8" });
    assert.match(r.stdout + r.stderr, /--timeout MS .*default 600000/);
  });
});
