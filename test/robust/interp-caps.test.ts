// The interpreter's caps: outputs sized by a hostile shape, scale or trip count end in a clear
// error (a GuardError naming the limit) quickly, never in an out-of-memory crash.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeRunError, GuardError, InterpError } from "../../core/src/interp/index.js";
import { runFailure } from "./harness/run-failure.js";
import { runCli } from "../helpers/cli.js";

const H = `<ir_version: 8, opset_import: ["" : 18]>\n`;
const TERA = "1000000000000";

const HUGE_OUTPUTS: Record<string, string> = {
  "Expand to 10^12 elements": `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {1000000, 1000000}> ()\n y = Expand(x, s) }`,
  "ConstantOfShape of 10^12": `${H}g (float[1] x) => (float y) { s = Constant <value = int64[2] {1000000, 1000000}> ()\n y = ConstantOfShape(s) }`,
  "Tile by 10^12": `${H}g (float[1] x) => (float y) { s = Constant <value = int64[1] {${TERA}}> ()\n y = Tile(x, s) }`,
  "Pad by 10^12": `${H}g (float[1] x) => (float y) { p = Constant <value = int64[2] {0, ${TERA}}> ()\n y = Pad(x, p) }`,
  "OneHot of depth 10^12": `${H}g (int64[1] x) => (float y) { d = Constant <value = int64 {${TERA}}> ()\n v = Constant <value = float[2] {0, 1}> ()\n y = OneHot(x, d, v) }`,
  "Range over 10^12": `${H}g (float[1] x) => (float y) { a = Constant <value = float {0}> ()\n b = Constant <value = float {1e12}> ()\n c = Constant <value = float {1}> ()\n y = Range(a, b, c) }`,
  "Resize by 10^6 per axis": `${H}g (float[1,1,2,2] x) => (float y) { r = Constant <value = float[4] {1, 1, 1000000, 1000000}> ()\n y = Resize <mode = "linear"> (x, , r) }`,
  "ConvTranspose to 10^6 x 10^6": `${H}g (float[1,1,2,2] x, float[1,1,1,1] w) => (float y) { y = ConvTranspose <output_shape = [1000000, 1000000]> (x, w) }`,
  "DFT of length 10^12": `${H}g (float[1,4,1] x) => (float y) { n = Constant <value = int64 {${TERA}}> ()\n y = DFT(x, n) }`,
};

const LOOP = (withScan: boolean) =>
  `${H}g (float[1] x) => (float y${withScan ? ", float z" : ""}) {
  m = Constant <value = int64 {1000000000000000}> ()
  c = Constant <value = bool {1}> ()
  y${withScan ? ", z" : ""} = Loop (m, c, x) <body = b (int64 i, bool ci, float[1] v) => (bool co, float[1] vo${withScan ? ", float[1] so" : ""}) {
    co = Identity(ci)
    vo = Identity(v)${withScan ? "\n    so = Identity(v)" : ""}
  }>
}`;

describe("interpreter caps", () => {
  for (const [name, text] of Object.entries(HUGE_OUTPUTS)) {
    it(`${name}: a clear memory error`, () => {
      const { error } = runFailure(text);
      assert.ok(error instanceof GuardError, `${describeRunError(error)}`);
      assert.match(describeRunError(error), /memory/);
    });
  }

  it("a Loop with a 10^15 trip count stops at the iteration limit", () => {
    const { error } = runFailure(LOOP(false), { maxLoopIterations: 2000 });
    assert.ok(error instanceof GuardError);
    assert.match(describeRunError(error), /loop stopped after 2000 iterations \(limit 2000\)/);
  });

  it("a Loop that accumulates scan outputs hits the memory limit, counting what it holds", () => {
    const { error } = runFailure(LOOP(true), { maxLoopIterations: 1e12, maxMemoryBytes: 4 * 1024 * 1024 });
    assert.ok(error instanceof GuardError);
    assert.match(describeRunError(error), /more than 4 MiB of memory/);
  });

  it("a Loop stops at the time limit", () => {
    const { error, ms } = runFailure(LOOP(false), { maxLoopIterations: 1e12, timeoutMs: 300 });
    assert.ok(error instanceof GuardError);
    assert.match(describeRunError(error), /took longer than 300 ms/);
    assert.ok(ms < 30_000, `stopped after ${ms} ms`);
  });

  it("every failure is an InterpError with a one-line message", () => {
    for (const text of Object.values(HUGE_OUTPUTS)) {
      const { error } = runFailure(text);
      assert.ok(error instanceof InterpError);
      assert.doesNotMatch(describeRunError(error), /\n/);
    }
  });

  describe("through onnxtxt run", () => {
    let dir: string;
    before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-caps-"))));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const run = (name: string, text: string, ...flags: string[]) => {
      const file = path.join(dir, `${name}.onnxtxt`);
      fs.writeFileSync(file, text);
      return { file, r: runCli(["run", file, ...flags]) };
    };

    it("Expand to 10^12 elements: exit 1, one line naming the file and the limit", () => {
      const { file, r } = run("expand", HUGE_OUTPUTS["Expand to 10^12 elements"]!);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `onnxtxt: ${file}: a tensor of 1000000000000 float elements would exceed the memory limit\n`);
    });

    it("a Loop with --max-iterations and --max-memory: exit 1 with the limit named", () => {
      const a = run("loop", LOOP(false), "--max-iterations", "500");
      assert.equal(a.r.code, 1, a.r.stderr);
      assert.match(a.r.stderr, /loop stopped after 500 iterations/);
      const b = run("loop-scan", LOOP(true), "--max-memory", "2");
      assert.equal(b.r.code, 1, b.r.stderr);
      assert.match(b.r.stderr, /more than 2 MiB of memory/);
    });

    it("a huge declared input shape: default inputs respect the memory limit", () => {
      const { file, r } = run("big-input", `${H}g (float[1000000, 1000000] x) => (float y) { y = Relu(x) }`);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `onnxtxt: ${file}: a tensor of 1000000000000 float elements would exceed the memory limit\n`);
    });
  });
});
