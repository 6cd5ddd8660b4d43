// The library's run() checks given inputs as `onnxtxt run` checks --input values: the same
// messages (but for how the value is named: "given" there, "--input" here), before anything
// runs (issue #32). Also: the fast kernels of onnxtxt/node give the reference kernels' values,
// a cancelled run stops, and progress is reported.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareValues, decodeModel, modelFromText, run, type Value } from "../../core/src/index.js";
import { run as runFast } from "../../core/src/node/index.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT } from "../helpers/paths.js";

const TEXT = `<ir_version: 10, opset_import: ["" : 21]>
g (float[1, 4] x) => (float[1, 4] y) {
  y = Relu (x)
}
`;

const tensor = (dtype: number, dims: number[], data: Float32Array | BigInt64Array): Value => ({ kind: "tensor", dtype, dims, data }) as Value;

/** Each wrong input: the library's value and the CLI's --input text of the same value. */
const WRONG: { what: string; value: Value; cli: string }[] = [
  { what: "three values for float[1,4]", value: tensor(1, [3], new Float32Array([1, 2, 3])), cli: "float[3] {1, 2, 3}" },
  { what: "an int64 tensor into a float input", value: tensor(7, [1, 4], new BigInt64Array([1n, 2n, 3n, 4n])), cli: "int64[1, 4] {1, 2, 3, 4}" },
  { what: "rank 1 where rank 2 is declared", value: tensor(1, [4], new Float32Array([1, 2, 3, 4])), cli: "float[4] {1, 2, 3, 4}" },
];

async function libraryMessage(value: Value): Promise<string> {
  try {
    await run(modelFromText(TEXT).model!, { x: value });
  } catch (e) {
    return (e as Error).message;
  }
  return "(ran)";
}

describe("run() refuses wrong inputs as `onnxtxt run` does (#32)", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-run-inputs-"));
    fs.writeFileSync(path.join(dir, "m.onnxtxt"), TEXT);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const c of WRONG) {
    it(`${c.what}: the CLI's message`, async () => {
      const cli = runCli(["run", path.join(dir, "m.onnxtxt"), "--input", `x=${c.cli}`]);
      assert.equal(cli.code, 1, cli.stderr);
      const cliMessage = cli.stderr.trim().replace(/^onnxtxt: [^:]+: /, "");
      assert.match(cliMessage, /^input 'x' is declared float\[1,4\] but the value \(--input\) is /);
      assert.equal(await libraryMessage(c.value), cliMessage.replace("(--input)", "(given)"));
    });
  }

  it("a value whose data does not fill its shape: the CLI's words for a short tensor", async () => {
    const cli = runCli(["run", path.join(dir, "m.onnxtxt"), "--input", "x=float[1, 4] {1, 2, 3}"]);
    assert.match(cli.stderr, /the shape holds 4 values but 3 are written/);
    assert.equal(await libraryMessage(tensor(1, [1, 4], new Float32Array([1, 2, 3]))), "input 'x' (given): the shape [1, 4] holds 4 values but 3 are given");
  });

  it("onnxtxt/node's run (fast kernels) gives the reference kernels' values on SqueezeNet, with progress", async () => {
    const model = decodeModel(fs.readFileSync(path.join(LIGHT, "light_squeezenet.onnx")));
    const reference = await run(model, {}, { seed: 1 });
    let last = { done: 0, total: 0 };
    const fast = await runFast(model, {}, { seed: 1, onProgress: (done, total) => (last = { done, total }) });
    assert.ok(last.done === last.total && last.total > 0, `progress ${last.done}/${last.total}`);
    for (const [name, v] of reference) assert.equal(compareValues(fast.get(name), v, { rtol: 1e-4, atol: 1e-5 }), undefined, name);
  });

  it("stops when its signal aborts", async () => {
    const model = decodeModel(fs.readFileSync(path.join(LIGHT, "light_squeezenet.onnx")));
    const controller = new AbortController();
    const running = run(model, {}, { signal: controller.signal, onProgress: (done) => done === 3 && controller.abort() });
    await assert.rejects(running, /cancel|abort/i);
  });
});
