// `onnxtxt convert --opset N`, `upgrade` and `downgrade` as a user runs them: outputs, refusals
// with positions, exit codes, nothing written on failure, in-place text keeping its comments.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeModel } from "../../core/src/io/index.js";
import { runCli } from "../helpers/cli.js";
import { LIGHT } from "../helpers/paths.js";

const TEXT = `<ir_version: 7, opset_import: ["" : 11]>
g (float[2,3] x) => (float[2,1] y, float[2,3] r) {
  # the sum over the last axis
  y = ReduceSum <axes = [1]> (x)   # keep me
  r =   Relu(x)    # odd spacing stays
}
`;

const GRID = `<ir_version: 8, opset_import: ["" : 20]>
g (float[1,1,4,4] x, float[1,2,2,2] grid) => (float[1,1,2,2] y, float[1,1,4,4] z) {
  z = Relu (x)
  y = GridSample <mode = "linear"> (x, grid)
}
`;

describe("onnxtxt convert --opset / upgrade / downgrade", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-opset-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("upgrades text in place with --write, keeping comments and the layout of unchanged statements", () => {
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, TEXT);
    const r = runCli(["upgrade", "--opset", "13", "--write", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      fs.readFileSync(file, "utf8"),
      TEXT.replace('"" : 11', '"" : 13').replace("y = ReduceSum <axes = [1]> (x)", "y_axes = Constant <value = int64[1] {1}> ()\n  y = ReduceSum (x, y_axes)"),
    );
    assert.match(r.stderr, /opset 11 -> 13: 1 nodes rewritten, 1 unchanged, 0 refused/);
  });

  it("refuses a node that cannot go down with FILE:LINE:COL and the reason, writes nothing, exit 1", () => {
    const file = path.join(dir, "g.onnxtxt");
    const out = path.join(dir, "g15.onnx");
    fs.writeFileSync(file, GRID);
    const r = runCli(["downgrade", "--opset", "15", file, out]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /g\.onnxtxt:4:3: error: GridSample first appears at opset 16; no older operator expresses it \[opset-refused\]/);
    assert.ok(!fs.existsSync(out));
    assert.deepEqual(fs.readdirSync(dir), ["g.onnxtxt"], "no temporary file is left");
  });

  it("writes a partial conversion with --allow-partial, listing what kept its old form", () => {
    const file = path.join(dir, "g.onnxtxt");
    const out = path.join(dir, "g15.onnx");
    fs.writeFileSync(file, GRID);
    const r = runCli(["convert", "--opset", "15", "--allow-partial", file, out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: GridSample first appears/);
    const m = decodeModel(fs.readFileSync(out));
    assert.equal(Number(m.opsetImport[0]!.version), 15);
    assert.deepEqual(
      m.graph!.node.map((n) => n.opType),
      ["Relu", "GridSample"],
    );
  });

  it("names the node and its place in a binary model", () => {
    const text = path.join(dir, "g.onnxtxt");
    const bin = path.join(dir, "g.onnx");
    fs.writeFileSync(text, GRID.replace("y = GridSample", "[sampler] y = GridSample"));
    assert.equal(runCli(["convert", text, bin]).code, 0);
    const r = runCli(["downgrade", "--opset", "12", bin, path.join(dir, "out.onnx")]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /g\.onnx: graph 'g' > node 'sampler' \(GridSample\): error: GridSample first appears at opset 16/);
  });

  it("upgrades a light network (binary in, text out) to the newest opset", () => {
    const out = path.join(dir, "squeezenet.onnxtxt");
    const r = runCli(["upgrade", path.join(LIGHT, "light_squeezenet.onnx"), out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(fs.readFileSync(out, "utf8"), /opset_import: \["" : 28\]/);
  });

  it("says in one line that a target does not exist or is missing, exit 2", () => {
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, TEXT);
    for (const [args, message] of [
      [["convert", "--opset", "99", file, path.join(dir, "o.onnx")], /--opset 99 does not exist: the known opsets are 1 to 28/],
      [["convert", "--opset", "0", file, path.join(dir, "o.onnx")], /--opset 0 does not exist/],
      [["convert", "--opset", "x", file, path.join(dir, "o.onnx")], /--opset must be an integer, not 'x'/],
      [["downgrade", file, path.join(dir, "o.onnx")], /downgrade needs --opset N/],
    ] as const) {
      const r = runCli(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr.split("\n")[0]!, message);
      assert.doesNotMatch(r.stderr, /at .*\.js:\d+/, "no stack trace");
    }
    assert.deepEqual(fs.readdirSync(dir), ["m.onnxtxt"]);
  });

  it("refuses custom operators of unknown domains unless --allow-partial", () => {
    const file = path.join(dir, "c.onnxtxt");
    fs.writeFileSync(file, `<ir_version: 8, opset_import: ["" : 13, "com.acme" : 1]>\ng (float[2] x) => (float[2] y) {\n  y = com.acme.Magic (x)\n}\n`);
    const r = runCli(["upgrade", file, path.join(dir, "o.onnxtxt")]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /c\.onnxtxt:3:3: error: custom operator com\.acme\.Magic/);
  });
});
