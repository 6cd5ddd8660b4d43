// The command line as an ONNX user expects it (issue 18): quiet pipes, the README's commands as
// written, runs that check their inputs and expected outputs, one input resolver with the
// editor, stdin/stdout, file types from content, machine-readable diagnostics; and the README's quick
// start run line by line in a fresh checkout (issue 33).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { decodeModel, decodeValue, encodeModel, encodeValue } from "../../core/src/io/index.js";
import { TensorProtoSchema, TensorProto_DataType, type ModelProto } from "../../proto/src/index.js";
import { tensorFromProto, valueFromProto, valueToProto, type Tensor } from "../../core/src/interp/index.js";
import { analyze } from "../../core/src/ide/analyze.js";
import { runCell } from "../../core/src/ide/run-cell.js";
import { runCli } from "../helpers/cli.js";
import { CLI, LIBONNX_DATA, LIGHT, REPO } from "../helpers/paths.js";

const CONV = path.join(LIBONNX_DATA, "pytorch-converted/test_Conv2d");
const MLP = path.join(REPO, "examples/mlp.onnxtxt");

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-user-"));
}

/**
 * The light network with its weights back: each ConstantOfShape of rank 2 or more (the
 * convolution and dense weights) becomes an initializer of seeded values scaled by their fan-in
 * (all but the largest dim), so activations keep their size through the layers.
 */
function withRandomWeights(model: ModelProto): ModelProto {
  const g = model.graph!;
  const shapes = new Map(g.initializer.map((t) => [t.name, t]));
  let seed = 12345;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  g.node = g.node.filter((n) => {
    const shape = n.opType === "ConstantOfShape" ? shapes.get(n.input[0]!) : undefined;
    const dims = shape ? Array.from(tensorFromProto(shape).data as BigInt64Array, Number) : [];
    if (dims.length < 2) return true;
    const count = dims.reduce((a, b) => a * b, 1);
    const scale = Math.sqrt(3 / (count / Math.max(...dims)));
    const w = Float32Array.from({ length: count }, () => next() * scale);
    g.initializer.push(
      create(TensorProtoSchema, { name: n.output[0]!, dims: dims.map(BigInt), dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(w.buffer) }),
    );
    return false;
  });
  model.irVersion = 4n;
  return model;
}

function noStackTrace(text: string): void {
  assert.doesNotMatch(text, /\n\s+at |internal error/, text);
}

describe("onnxtxt as a user expects it", function () {
  let dir = "";
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("print into a pipe closed early (| head) ends quietly, exit 0", () => {
    const model = path.join(LIGHT, "light_densenet121.onnx");
    const r = spawnSync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${CLI}" print "${model}" | head -c 200 >/dev/null`], { encoding: "utf8" });
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
  });

  it("runs every command of the README's command block as written", () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
    const block = /```sh\n((?:npx onnxtxt .*\n)+)```/.exec(readme);
    assert.ok(block, "the README has a block of npx onnxtxt commands");
    // the files the commands name: a model with its test data set, texts, the examples
    fs.copyFileSync(path.join(CONV, "model.onnx"), path.join(dir, "model.onnx"));
    fs.cpSync(path.join(CONV, "test_data_set_0"), path.join(dir, "test_data_set_0"), { recursive: true });
    fs.copyFileSync(path.join(CONV, "model.onnx"), path.join(dir, "m.onnx"));
    assert.equal(runCli(["convert", path.join(dir, "model.onnx"), path.join(dir, "model.onnxtxt")]).code, 0);
    for (const name of ["a", "b"]) fs.copyFileSync(MLP, path.join(dir, `${name}.onnxtxt`));
    fs.cpSync(path.join(REPO, "examples"), path.join(dir, "examples"), { recursive: true });
    for (const line of block[1]!.trimEnd().split("\n")) {
      const command = line.replace(/\s+#\s.*$/, "");
      const r = spawnSync("bash", ["-c", `npx() { shift; "${process.execPath}" "${CLI}" "$@"; }; ${command}`], { cwd: dir, encoding: "utf8" });
      assert.equal(r.status, 0, `${command}\n${r.stderr}`);
      noStackTrace(r.stderr);
      if (command.includes("--compare ort")) {
        assert.ok(fs.existsSync(path.join(dir, "out/output_0.pb")), "--output-dir writes with --compare");
        assert.match(r.stdout, /^3: float\[2,4,5,4\] \{/m, "prints the outputs");
        assert.match(r.stdout, /compare ort: 3 agrees within rtol 0\.001, atol 1e-5 \(max abs error \S+, max rel error \S+\)/);
        assert.match(r.stdout, /expect: 3 matches output_0\.pb within rtol 0\.001, atol 1e-7/);
      }
    }
  });

  it("--input-dir compares with output_N.pb and exits 1 on a mismatch", () => {
    fs.cpSync(path.join(CONV, "test_data_set_0"), path.join(dir, "set"), { recursive: true });
    const expected = valueFromProto(decodeValue(fs.readFileSync(path.join(dir, "set/output_0.pb")), "tensor")) as Tensor;
    const wrong = { ...expected, data: (expected.data as Float32Array).map((x, i) => (i === 7 ? x + 0.01 : x)) };
    fs.writeFileSync(path.join(dir, "set/output_0.pb"), encodeValue(valueToProto(wrong, "3")));
    const r = runCli(["run", path.join(CONV, "model.onnx"), "--input-dir", path.join(dir, "set")]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /expect: 3 differs from .*output_0\.pb: element 7: .*max abs error 0\.01/);
    const off = runCli(["run", path.join(CONV, "model.onnx"), "--input-dir", path.join(dir, "set"), "--no-expect"]);
    assert.equal(off.code, 0, off.stderr);
    assert.doesNotMatch(off.stdout, /expect:/);
  });

  it("--compare ort agrees on a real network with per-type tolerances and --output-dir writes in every mode", () => {
    const model = path.join(dir, "inception_v1.onnx");
    fs.writeFileSync(model, encodeModel(withRandomWeights(decodeModel(fs.readFileSync(path.join(LIGHT, "light_inception_v1.onnx"))))));
    const r = runCli(["run", model, "--compare", "ort", "--output-dir", path.join(dir, "o1")]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /agrees within rtol 0\.001, atol 1e-5 \(max abs error/);
    assert.ok(fs.existsSync(path.join(dir, "o1/output_0.pb")));
    const ort = runCli(["run", MLP, "--backend", "ort", "--output-dir", path.join(dir, "o2"), "--quiet"]);
    assert.equal(ort.code, 0, ort.stderr);
    assert.ok(fs.existsSync(path.join(dir, "o2/output_0.pb")));
  });

  it("checks inputs against the declared types and shapes before the run", () => {
    const int = runCli(["run", MLP, "--input", "x=int64[1,4] {1,2,3,4}"]);
    assert.equal(int.code, 1);
    assert.equal(int.stderr, `onnxtxt: ${MLP}: input 'x' is declared float[N,4] but the value (--input) is int64[1,4]\n`);
    const dbl = runCli(["run", MLP, "--input", "x=double[1,4] {1,2,3,4}"]);
    assert.equal(dbl.code, 1);
    assert.match(dbl.stderr, /is declared float\[N,4\] but the value \(--input\) is double\[1,4\]/);
    const size = runCli(["run", path.join(LIGHT, "light_inception_v1.onnx"), "--input", "data_0=float[1,3,200,224] {}", "--print-inputs"]);
    assert.notEqual(size.code, 0);
    noStackTrace(size.stderr);
  });

  it("the CLI and the editor feed the same inputs: directives, test_data_set_0, seeded defaults", async () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 2] a, float[N, 2] b, float[N, 2] c) => (float[N, 2] s) {
  ab = Add (a, b)
  s = Add (ab, c)
}
# @input b = float[3, 2] {1, 2, 3, 4, 5, 6}
# @dim N = 3
`;
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, text);
    const shown = runCli(["run", file, "--print-inputs"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /^a: float\[3,2\] \{.*\}  \(seed 0\)\nb: float\[3,2\] \{1, 2, 3, 4, 5, 6\}  \(# @input\)\nc: float\[3,2\] \{.*\}  \(seed 0\)\n$/,
    );
    const cli = runCli(["run", file, "--show", "all"]);
    const editor = await runCell(analyze(text), {});
    assert.deepEqual(editor.inputSources, { a: "default", b: "directive", c: "default" });
    const cliValues = /\{(.*)\}/.exec(cli.stdout)![1]!.split(", ").map(Number);
    const editorValues = /\{(.*)\}/.exec(editor.outputs[0]!.text)![1]!.split(/,\s*/).map(Number);
    assert.deepEqual(cliValues, editorValues);
    // test_data_set_0 beside the file, as the editor reads it
    fs.mkdirSync(path.join(dir, "test_data_set_0"));
    const a = valueToProto({ kind: "tensor", dtype: 1, dims: [3, 2], data: new Float32Array([10, 20, 30, 40, 50, 60]) }, "a");
    fs.writeFileSync(path.join(dir, "test_data_set_0/input_0.pb"), encodeValue(a));
    const fromSet = runCli(["run", file, "--print-inputs"]);
    assert.match(fromSet.stdout, /^a: float\[3,2\] \{10, 20, 30, 40, 50, 60\}  \(.*test_data_set_0\/input_0\.pb\)$/m);
    const dataSet = [new Uint8Array(fs.readFileSync(path.join(dir, "test_data_set_0/input_0.pb")))];
    const editor2 = await runCell(analyze(text), { dataSet });
    assert.equal(editor2.inputSources.a, "test_data_set_0");
    const cli2 = runCli(["run", file, "--show", "all"]);
    assert.deepEqual(/\{(.*)\}/.exec(cli2.stdout)![1]!.split(", ").map(Number), /\{(.*)\}/.exec(editor2.outputs[0]!.text)![1]!.split(/,\s*/).map(Number));
    // --dim wins over # @dim; a name that is no dim is an error
    assert.match(runCli(["run", file, "--dim", "N=3", "--print-inputs"]).stdout, /^c: float\[3,2\]/m);
    const unknown = runCli(["run", file, "--dim", "M=3"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--dim M: the model's inputs have no dimension named 'M' \(symbolic dims: N\)/);
  });

  it("prints floats in the shortest round-trip form, all values with --show all, and intermediates on request", () => {
    const file = path.join(dir, "big.onnxtxt");
    fs.writeFileSync(
      file,
      `<ir_version: 10, opset_import: ["" : 21]>
g (float[10] x) => (float[10] y) {
  t = Mul (x, x)
  y = Identity (t)
}
`,
    );
    const input = "x=float[10] {536870912, 1, 2, 3, 4, 5, 6, 7, 8, 0.1}";
    const r = runCli(["run", file, "--input", input]);
    assert.equal(r.code, 0, r.stderr);
    const m = /^y: float\[10\] \{(\S+), 1, 4, 9, 16, 25, 36, 49, … \(10 values\)\}\n$/.exec(r.stdout);
    assert.ok(m, r.stdout);
    // 2^29 squared is 2^58 in float32: the text reads back to it, and one digit fewer does not
    const big = m[1]!;
    assert.match(big, /^\d\.\d+e\+17$/);
    assert.equal(Math.fround(Number(big)), 2 ** 58);
    const digits = big.replace(/e.*$/, "").replace(".", "").length;
    assert.notEqual(Math.fround(Number(Number(big).toPrecision(digits - 1))), 2 ** 58);
    const all = runCli(["run", file, "--input", input, "--show", "all", "--save-intermediate", "t", "--output-dir", path.join(dir, "o")]);
    assert.equal(all.code, 0, all.stderr);
    const small = Math.fround(Math.fround(0.1) * Math.fround(0.1));
    assert.equal(Math.fround(0.010000001), small);
    const values = `{${big}, 1, 4, 9, 16, 25, 36, 49, 64, 0.010000001}`;
    assert.equal(all.stdout, `y: float[10] ${values}\nt: float[10] ${values}\n`);
    assert.ok(fs.existsSync(path.join(dir, "o/intermediate_t.pb")));
    const none = runCli(["run", file, "--save-intermediate", "nope"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /the main graph has no value named 'nope'/);
  });

  it("check --format json|sarif on stdout with a summary on stderr, --severity and --ignore", () => {
    const file = path.join(dir, "w.onnxtxt");
    fs.writeFileSync(
      file,
      `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x, float[2] unused) => (float[2] y) {
  y = Relu (x)
}
`,
    );
    const text = runCli(["check", file]);
    assert.match(text.stderr, /unused-input/);
    const json = runCli(["check", "--format", "json", file]);
    assert.equal(json.code, 0);
    const list = JSON.parse(json.stdout) as { file: string; code: string; severity: string; line: number; column: number }[];
    assert.ok(
      list.some((d) => d.code === "unused-input" && d.file === file && d.line === 2 && d.column > 1),
      json.stdout,
    );
    assert.match(json.stderr, /^0 errors, \d+ warnings?, \d+ notes? in 1 file\n$/);
    const sarif = JSON.parse(runCli(["check", "--format", "sarif", file]).stdout) as {
      version: string;
      runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    assert.equal(sarif.version, "2.1.0");
    const hit = sarif.runs[0]!.results.find((x) => x.ruleId === "unused-input");
    assert.ok(hit, "an unused-input result");
    assert.equal(hit.locations[0]!.physicalLocation.region.startLine, 2);
    assert.deepEqual(
      JSON.parse(runCli(["check", "--format", "json", "--ignore", "unused-input", file]).stdout).filter((d: { code: string }) => d.code === "unused-input"),
      [],
    );
    assert.equal(runCli(["check", "--severity", "error", file]).stderr, "");
    const missing = runCli(["check", "--format", "json", path.join(dir, "nope.onnxtxt")]);
    assert.equal(missing.code, 2);
    assert.deepEqual(JSON.parse(missing.stdout), [
      { file: path.join(dir, "nope.onnxtxt"), severity: "error", code: "file", message: "no such file or directory" },
    ]);
  });

  it("- is stdin or stdout: print -o -, convert - -, infer to stdout, check -", () => {
    const text = fs.readFileSync(MLP);
    const printed = runCli(["print", "-o", "-", MLP], dir);
    assert.equal(printed.code, 0, printed.stderr);
    assert.ok(!fs.existsSync(path.join(dir, "-")), "no file named -");
    assert.equal(printed.stdout, runCli(["print", MLP]).stdout);
    const bin = spawnSync(process.execPath, [CLI, "convert", "-", "-"], { input: text });
    assert.equal(bin.status, 0, String(bin.stderr));
    const back = spawnSync(process.execPath, [CLI, "print", "-"], { input: bin.stdout, encoding: "utf8" });
    assert.equal(back.stdout, printed.stdout);
    const inferred = runCli(["infer", "--drop-comments", MLP, "-"]);
    assert.equal(inferred.code, 0, inferred.stderr);
    assert.match(inferred.stdout, /^mlp \(/m);
    const checked = spawnSync(process.execPath, [CLI, "check", "-"], { input: "g (float x) => (y) {\n  y = Rleu (x)\n}\n", encoding: "utf8" });
    assert.equal(checked.status, 1);
    assert.match(checked.stderr, /^-:2:7: error: .*Rleu/m);
  });

  it("reads a file whose extension lies and names what a non-model looks like", () => {
    const textAsOnnx = path.join(dir, "text.onnx");
    fs.copyFileSync(MLP, textAsOnnx);
    const r = runCli(["run", textAsOnnx, "--quiet"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /text\.onnx: note: the name says binary ONNX \(protobuf\), but the file looks like ONNX text/);
    const binAsText = path.join(dir, "bin.onnxtxt");
    fs.copyFileSync(path.join(CONV, "model.onnx"), binAsText);
    const p = runCli(["print", binAsText]);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stderr, /the name says ONNX text, but the file looks like binary ONNX/);
    const pbtxt = path.join(dir, "model.onnx");
    fs.writeFileSync(pbtxt, 'ir_version: 7\nproducer_name: "pytorch"\ngraph {\n  node {\n    op_type: "Relu"\n  }\n}\n');
    const t = runCli(["check", pbtxt]);
    // protobuf text format is read whatever the name says (#33): the checker then sees the model
    assert.equal(t.code, 1);
    assert.match(t.stderr, /the name says binary ONNX \(protobuf\), but the file looks like protobuf text format; checking it as such/);
    assert.match(t.stdout + t.stderr, /node #0 \(Relu\): domain 'ai.onnx' of Relu is not in opset_import/);
    const zip = path.join(dir, "weights.onnx");
    fs.writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    assert.match(runCli(["print", zip]).stderr, /looks like a zip archive/);
  });

  it("--out-dir naming a file is a clear error; help run shows run's help; the examples are formatted", () => {
    const file = path.join(dir, "taken");
    fs.writeFileSync(file, "");
    for (const argv of [
      ["convert", "--to", "onnx", "--out-dir", file, MLP],
      ["infer", "--out-dir", file, MLP],
      ["run", MLP, "--output-dir", file],
    ]) {
      const r = runCli(argv);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `onnxtxt: ${file}: exists and is not a directory; give a folder to write into\n`);
    }
    const help = runCli(["help", "run"]);
    assert.equal(help.code, 0);
    assert.equal(help.stdout, runCli(["run", "--help"]).stdout);
    assert.match(help.stdout, /^usage: onnxtxt run MODEL/);
    const examples = fs
      .readdirSync(path.join(REPO, "examples"))
      .filter((f) => f.endsWith(".onnxtxt"))
      .map((f) => path.join(REPO, "examples", f));
    assert.equal(examples.length, 4);
    const fmt = runCli(["format", "--check", ...examples]);
    assert.equal(fmt.code, 0, fmt.stderr);
  });

  it("escapes control characters of names in messages and run summaries", () => {
    const file = path.join(dir, "esc.onnxtxt");
    fs.writeFileSync(
      file,
      `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] "x\x1b]0;pwned\x07") => (float[2] "y\x1b[2J") {
  "y\x1b[2J" = Relu ("x\x1b]0;pwned\x07")
}
`,
    );
    const r = runCli(["run", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("\x1b"), JSON.stringify(r.stdout));
    assert.match(r.stdout, /^y\\x1b\[2J: float\[2\]/);
    const bad = runCli(["run", file, "--input", "nope=float[2] {1, 2}"]);
    assert.ok(!bad.stderr.includes("\x1b") && !bad.stderr.includes("\x07"), JSON.stringify(bad.stderr));
    assert.match(bad.stderr, /x\\x1b\]0;pwned\\x07/);
    // print on a terminal (a pseudo-terminal from util-linux's script): escaped there too
    const tty = spawnSync("script", ["-qec", `"${process.execPath}" "${CLI}" print "${file}"`, "/dev/null"], { encoding: "utf8" });
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stdout, /g \(float\[2\] "x\\x1b\]0;pwned\\x07"\)/);
    assert.ok(!tty.stdout.includes("\x1b") && !tty.stdout.includes("\x07"), JSON.stringify(tty.stdout));
  });

  it("shows no progress line on a terminal for work under a second", () => {
    const inputs = ["a", "b", "c"].map((n) => path.join(dir, `${n}.onnxtxt`));
    for (const f of inputs) fs.copyFileSync(MLP, f);
    const command = `"${process.execPath}" "${CLI}" convert --to onnx --out-dir "${path.join(dir, "out")}" ${inputs.map((f) => `"${f}"`).join(" ")}`;
    const tty = spawnSync("script", ["-qec", command, "/dev/null"], { encoding: "utf8" });
    assert.equal(tty.status, 0, tty.stdout);
    assert.equal(fs.readdirSync(path.join(dir, "out")).length, 3);
    assert.doesNotMatch(tty.stdout, /converting/);
  });

  it("--backend ort reads a binary model's external data itself and agrees with the interpreter", () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2, 3] x) => (float[2, 4] y) <float[3, 4] w = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}> {
  y = MatMul (x, w)
}
`;
    fs.writeFileSync(path.join(dir, "m.onnxtxt"), text);
    const bin = path.join(dir, "sub", "m.onnx");
    fs.mkdirSync(path.dirname(bin));
    // binary with external data: onnx's own helper writes the sidecar
    const py = spawnSync(
      "/usr/bin/python3",
      [
        "-c",
        `import onnx, onnx.parser
from onnx import numpy_helper
m = onnx.parser.parse_model(open(${JSON.stringify(path.join(dir, "m.onnxtxt"))}).read())
for t in m.graph.initializer: t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t), t.name))
onnx.save_model(m, ${JSON.stringify(bin)}, save_as_external_data=True, all_tensors_to_one_file=True, location="m.data", size_threshold=0)`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(py.status, 0, py.stderr);
    assert.ok(fs.existsSync(path.join(dir, "sub", "m.data")));
    const input = "x=float[2,3] {1, 0, -1, 2, 0.5, 0}";
    const ort = runCli(["run", bin, "--backend", "ort", "--input", input]);
    const interp = runCli(["run", bin, "--input", input]);
    assert.equal(ort.code, 0, ort.stderr);
    assert.equal(ort.stdout, "y: float[2,4] {-8, -8, -8, -8, 4.5, 7, 9.5, 12}\n");
    assert.equal(interp.stdout, ort.stdout);
  });

  it("onnxruntime's log lines reach a pipe without colour escapes", () => {
    // an opset-6 model: onnxruntime warns that it supports opset 7 and above
    const r = runCli(["run", path.join(CONV, "model.onnx"), "--backend", "ort"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!(r.stdout + r.stderr).includes("\x1b"), JSON.stringify(r.stderr));
  });

  it("refuses an empty stdin and binary output to a terminal clearly", () => {
    const r = spawnSync(process.execPath, [CLI, "print", "-"], { input: "", encoding: "utf8" });
    assert.equal(r.status, 2);
    assert.equal(r.stderr, "onnxtxt: -: the file is empty\n");
    const tty = spawnSync("script", ["-qec", `"${process.execPath}" "${CLI}" convert "${MLP}" -`, "/dev/null"], { encoding: "utf8" });
    assert.equal(tty.status, 2);
    assert.match(tty.stdout, /binary ONNX is not written to a terminal; redirect stdout/);
  });
});

// The README's quick start as a newcomer runs it: every line of its block, one by one, in a fresh
// checkout (the repository's tracked files only, as `git clone` gives them). `npm ci` is stood in
// for by the repository's node_modules and build: the install itself is what `.ci/run` does.
/** The block after the `<!-- quick-start` marker. */
function quickStart(readme: string): string[] {
  const m = /<!-- quick-start[^\n]*-->\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "the README has a quick-start block");
  return m[1]!.trimEnd().split("\n");
}

function checkout(to: string): void {
  const r = spawnSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  for (const file of r.stdout.split("\0").filter((f) => f !== "")) {
    const from = path.join(REPO, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(to, "node_modules"));
  fs.symlinkSync(path.join(REPO, "dist"), path.join(to, "dist"));
}

describe("the README's quick start", function () {
  this.timeout(300_000);
  let clone = "";
  before(() => {
    clone = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-readme-"));
    checkout(clone);
  });
  after(() => fs.rmSync(clone, { recursive: true, force: true }));

  it("runs line by line in a fresh checkout and says what the README says", () => {
    const readme = fs.readFileSync(path.join(clone, "README.md"), "utf8");
    const lines = quickStart(readme);
    assert.ok(lines.length >= 6, "a quick start of several steps");
    const outputs: string[] = [];
    for (const line of lines) {
      const r = spawnSync("bash", ["-c", line], { cwd: clone, encoding: "utf8" });
      // diff exits 1 when the models differ, as diff(1) does: that is what this line shows
      const expected = /^npx onnxtxt diff /.test(line) ? 1 : 0;
      assert.equal(r.status, expected, `${line}\n${r.stdout}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${line}: a stack trace`);
      outputs.push(r.stdout);
    }
    const all = outputs.join("");
    // what the prose after the block promises
    assert.match(all, /^y: float\[2,2\] \{/m);
    assert.match(all, /compare ort: y agrees within rtol 0\.001, atol 1e-5/);
    assert.match(all, /op Relu -> LeakyRelu/);
    assert.match(all, /attribute alpha added: 0\.1/);
    assert.ok(fs.statSync(path.join(clone, "mlp.svg")).size > 0);
    assert.match(fs.readFileSync(path.join(clone, "mlp.onnxtxt"), "utf8"), /LeakyRelu <alpha = 0\.1>/);
    // the typo message the README quotes, exactly
    const quoted = /A typo gets a line such as\n`([^`]+)`/.exec(readme);
    assert.ok(quoted, "the README quotes a typo's message");
    const text = path.join(clone, "mlp.onnxtxt");
    fs.writeFileSync(text, fs.readFileSync(text, "utf8").replace("LeakyRelu <", "LeakyRelux <"));
    const typo = spawnSync("npx", ["onnxtxt", "check", "mlp.onnxtxt"], { cwd: clone, encoding: "utf8" });
    assert.equal(typo.status, 1);
    assert.ok((typo.stdout + typo.stderr).includes(quoted[1]!), typo.stdout + typo.stderr);
  });

  it("keeps the two set-up commands and promises no registry install", () => {
    const readme = fs.readFileSync(path.join(clone, "README.md"), "utf8");
    assert.match(readme, /```sh\nnpm ci {6}#[^\n]*\nnpm test {4}#/);
    assert.doesNotMatch(readme, /npm install (-g )?onnxtxt\b/);
    for (const link of readme.matchAll(/\]\(((?:docs|CONTRIBUTING)[^)#]*)\)/g)) {
      if (link[1] === "docs/javascript.md") continue; // written by the library-guide work (#32)
      assert.ok(fs.existsSync(path.join(clone, link[1]!)), `README links to a missing ${link[1]}`);
    }
  });
});
