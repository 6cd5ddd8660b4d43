// `check --fix` and `--unsafe-fixes`: what they change, what they report, and that the result
// checks clean and is a model onnx's own checker (Debian's python3-onnx) accepts.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { fixAll } from "../../core/src/ide/fix-all.js";
import { runCli } from "../helpers/cli.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const EXAMPLES = path.join(REPO, "examples");

// A typo in an op's case (safe), a misspelt value (unsafe: a guess), an op too new for the
// opset (unsafe: raises the opset; onnx 1.12 knows opsets up to 17), an untyped output (safe, once the rest is fixed), comments.
const BROKEN = `<ir_version: 8, opset_import: ["" : 13]>
# the model's own comment
g (float[2] x) => (y) {
  h = relu (x)   # stays too
  # and this one
  z = HardSwish (hh)
  y = Add (h, z)
}
`;

function onnxChecks(model: string): { ok: boolean; stderr: string } {
  const py = spawnSync("/usr/bin/python3", ["-c", "import sys, onnx\nonnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)", model], {
    encoding: "utf8",
  });
  return { ok: py.status === 0, stderr: py.stderr };
}

describe("check --fix", function () {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-fix-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("applies only the safe fixes, reports each, keeps comments, and the rest stays reported", () => {
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, BROKEN);
    const r = runCli(["check", "--fix", file]);
    assert.match(r.stderr, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:7: fixed unknown-op: Change 'relu' to 'Relu'$`, "m"));
    assert.doesNotMatch(r.stderr, /fixed undefined-value|fixed op-not-in-opset/);
    assert.match(r.stderr, /error: .*'hh' is not defined.*\[undefined-value\]/);
    assert.equal(r.code, 1);
    assert.equal(fs.readFileSync(file, "utf8"), BROKEN.replace("relu", "Relu"));
  });

  it("with --unsafe-fixes, fixes everything: then check finds nothing fixable, and onnx's checker accepts the model", () => {
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, BROKEN);
    const r = runCli(["check", "--fix", "--unsafe-fixes", file]);
    assert.equal(r.code, 0, r.stderr);
    for (const code of ["unknown-op", "undefined-value", "op-not-in-opset"]) assert.match(r.stderr, new RegExp(`:\\d+:\\d+: fixed ${code}: `));
    assert.match(r.stderr, /fixed: Declare the inferred type float\[2\] of output 'y'/);
    const fixed = fs.readFileSync(file, "utf8");
    for (const comment of ["# the model's own comment", "# stays too", "# and this one"]) assert.ok(fixed.includes(comment), comment);
    assert.match(fixed, /opset_import: \["" : 14\]/);
    assert.deepEqual(fixAll(fixed, { unsafe: true }).applied, [], "nothing fixable is left");
    assert.equal(runCli(["check", file]).stderr, "");
    const bin = path.join(dir, "m.onnx");
    assert.equal(runCli(["convert", file, bin]).code, 0);
    const onnx = onnxChecks(bin);
    assert.ok(onnx.ok, onnx.stderr);
  });

  it("on the examples: a clean file is left alone; a lower-cased op and a stale residual are fixed back to the original", () => {
    for (const name of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".onnxtxt"))) {
      const original = fs.readFileSync(path.join(EXAMPLES, name), "utf8");
      assert.deepEqual(fixAll(original, { unsafe: true }).applied, [], `${name} is clean`);
      // lower-case every op of the main graph: each comes back, nothing else changes
      const broken = original.replace(/^( {2}\S+(?:, \S+)* = )([A-Z][A-Za-z]+) /gm, (_, lhs: string, op: string) => `${lhs}${op.toLowerCase()} `);
      assert.notEqual(broken, original, name);
      const file = path.join(dir, name);
      fs.writeFileSync(file, broken);
      const r = runCli(["check", "--fix", file]);
      assert.equal(fs.readFileSync(file, "utf8"), original, `${name}: ${r.stderr}`);
      assert.equal(r.code, 0, r.stderr);
    }
    const stale = `<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  #@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"}}
  float[3] w = {nan, 2.0, 3.0}
> {
  y = Add (x, w)
}
`;
    const r = fixAll(stale);
    assert.deepEqual(
      r.applied.map((f) => [f.code, f.line, f.column]),
      [["residual-stale", 3, 3]],
    );
    assert.equal(r.text, stale.replace(/ {2}#@tensor.*\n/, ""));
  });

  it("`float[] x` meant as a scalar: the error says how to write one; --unsafe-fixes writes it, and onnx accepts the model", () => {
    const file = path.join(dir, "s.onnxtxt");
    fs.writeFileSync(file, `<ir_version: 8, opset_import: ["" : 13]>\ng (float[] x, float[2] b) => (float[2] y) {\n  y = Add (x, b)\n}\n`);
    assert.match(runCli(["check", file]).stderr, /s\.onnxtxt:2:4: error: .*for a scalar write `float x`.*\[missing-shape\]/);
    assert.doesNotMatch(runCli(["check", "--fix", file]).stderr, /fixed/);
    const r = runCli(["check", "--fix", "--unsafe-fixes", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /s\.onnxtxt:2:4: fixed missing-shape: Make it a scalar/);
    assert.match(fs.readFileSync(file, "utf8"), /^g \(float x, float\[2\] b\)/m);
    const bin = path.join(dir, "s.onnx");
    assert.equal(runCli(["convert", file, bin]).code, 0);
    const onnx = onnxChecks(bin);
    assert.ok(onnx.ok, onnx.stderr);
  });

  it("quotes a name the syntax cannot take bare (safe): the fixed model names the value as written, and onnx's checker accepts it", () => {
    const text = `<ir_version: 8, opset_import: ["" : 13]>\ng (float[2] x) => (float[2] y) {\n  layer-1 = Relu (x)\n  y = Abs (layer-1)\n}\n`;
    const r = fixAll(text);
    assert.deepEqual(
      r.applied.map((f) => [f.code, f.line, f.column]),
      [
        ["syntax", 3, 8],
        ["syntax", 4, 17],
      ].sort((a, b) => Number(a[1]) - Number(b[1])),
    );
    assert.equal(r.text, text.replaceAll("layer-1", '"layer-1"'));
    const file = path.join(dir, "q.onnxtxt");
    fs.writeFileSync(file, r.text);
    // (onnx 1.12's parser predates quoted names: read the converted model)
    const bin = path.join(dir, "q.onnx");
    assert.equal(runCli(["convert", file, bin]).code, 0);
    const py = spawnSync(
      "/usr/bin/python3",
      ["-c", "import sys, onnx\nm = onnx.load(sys.argv[1])\nonnx.checker.check_model(m)\nprint(m.graph.node[0].output[0])", bin],
      { encoding: "utf8" },
    );
    assert.equal(py.stdout, "layer-1\n", py.stderr);
  });

  it("--unsafe-fixes needs --fix, and --fix refuses stdin", () => {
    assert.equal(runCli(["check", "--unsafe-fixes", "x.onnxtxt"]).code, 2);
    assert.equal(runCli(["check", "--fix", "-"]).code, 2);
  });
});

// Two lower-cased ops (each a safe unknown-op fix), on lines 3 and 4.
const TWO_TYPOS = `<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  h = relu (x)
  y = abs (h)
}
`;

describe("check --fix honours the configuration and suppressions as check does", function () {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-fixcfg-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (rel: string, text: string): string => {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };

  it("a rule the onnxtxt.toml ignores (by code, by group, or turned off) is not fixed; --isolated fixes it", () => {
    for (const config of ['ignore = ["unknown-op"]\n', 'ignore = ["opsets"]\n', '[severity]\nunknown-op = "off"\n']) {
      write("onnxtxt.toml", config);
      const file = write("m.onnxtxt", TWO_TYPOS);
      const r = runCli(["check", "--fix", file]);
      assert.doesNotMatch(r.stderr, /fixed/, config);
      assert.equal(fs.readFileSync(file, "utf8"), TWO_TYPOS, config);
      // check agrees: it reports no unknown-op either
      assert.doesNotMatch(r.stderr, /unknown-op/, config);
    }
    const file = path.join(dir, "m.onnxtxt");
    const r = runCli(["check", "--fix", "--isolated", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(file, "utf8"), TWO_TYPOS.replace("relu", "Relu").replace("abs", "Abs"));
  });

  it("pyproject's [tool.onnxtxt] and --config FILE are honoured the same way", () => {
    write("pyproject.toml", '[project]\nname = "p"\n\n[tool.onnxtxt]\nignore = ["unknown-op"]\n');
    const file = write("m.onnxtxt", TWO_TYPOS);
    assert.doesNotMatch(runCli(["check", "--fix", file]).stderr, /fixed/);
    assert.equal(fs.readFileSync(file, "utf8"), TWO_TYPOS);
    // elsewhere, no config applies until --config names one
    const other = write("elsewhere/cfg.toml", 'ignore = ["unknown-op"]\n');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-fixcfg-out-"));
    try {
      const m = path.join(outside, "m.onnxtxt");
      fs.writeFileSync(m, TWO_TYPOS);
      assert.doesNotMatch(runCli(["check", "--fix", "--config", other, m]).stderr, /fixed/);
      assert.equal(fs.readFileSync(m, "utf8"), TWO_TYPOS);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("per-file-ignores: the fix is left in the files the glob matches and applied in the others", () => {
    write("onnxtxt.toml", '[per-file-ignores]\n"generated/**" = ["unknown-op"]\n');
    const generated = write("generated/deep/m.onnxtxt", TWO_TYPOS);
    const own = write("src/m.onnxtxt", TWO_TYPOS);
    const r = runCli(["check", "--fix", generated, own]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(generated, "utf8"), TWO_TYPOS);
    assert.equal(fs.readFileSync(own, "utf8"), TWO_TYPOS.replace("relu", "Relu").replace("abs", "Abs"));
    assert.deepEqual(r.stderr.match(/fixed unknown-op/g)?.length, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /generated.*fixed/);
  });

  it("a suppression on the fixable line keeps it (and stays used); the unsuppressed line is fixed", () => {
    const text = TWO_TYPOS.replace("h = relu (x)", "h = relu (x)   # onnxtxt: ignore[unknown-op]");
    const file = write("m.onnxtxt", text);
    const r = runCli(["check", "--fix", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(file, "utf8"), text.replace("abs", "Abs"));
    assert.match(r.stderr, /m\.onnxtxt:4:7: fixed unknown-op: Change 'abs' to 'Abs'/);
    assert.doesNotMatch(r.stderr, /unused-suppression/);
    // on the line before, and for the whole file
    for (const variant of [
      TWO_TYPOS.replace("  h = relu (x)", "  # onnxtxt: ignore[unknown-op]\n  h = relu (x)"),
      `# onnxtxt: file-ignore[unknown-op]\n${TWO_TYPOS}`,
    ]) {
      fs.writeFileSync(file, variant);
      const v = runCli(["check", "--fix", file]);
      assert.equal(v.code, 0, v.stderr);
      const after = fs.readFileSync(file, "utf8");
      assert.ok(after.includes("relu (x)"), after);
      assert.equal(after.includes("abs (h)"), variant.startsWith("# onnxtxt: file-ignore"), after);
      assert.doesNotMatch(v.stderr, /unused-suppression/);
    }
  });

  it("a suppression of another code does not stop the fix; --ignore and --severity on the command line do", () => {
    const text = TWO_TYPOS.replace("h = relu (x)", "h = relu (x)   # onnxtxt: ignore[unused-value]");
    const file = write("m.onnxtxt", text);
    runCli(["check", "--fix", file]);
    assert.ok(fs.readFileSync(file, "utf8").includes("h = Relu (x)"));
    fs.writeFileSync(file, TWO_TYPOS);
    assert.doesNotMatch(runCli(["check", "--fix", "--ignore", "unknown-op", file]).stderr, /fixed/);
    assert.equal(fs.readFileSync(file, "utf8"), TWO_TYPOS);
    // an error is shown at --severity error, so it is fixed; a warning's fix would not be
    assert.match(runCli(["check", "--fix", "--severity", "error", file]).stderr, /fixed unknown-op/);
  });
});
