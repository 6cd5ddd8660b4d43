// Issue 33, "errors that teach" and sharp edges: each hint is a fixture with the exact message a
// newcomer sees, and the sharp edges (an output over an input, a model check would reject, a
// scalar constant broken over lines) are shown on the CLI as a person would meet them.
// Oracles: onnxruntime (-1 dims read as unknown), onnx 1.12's parser (the one-line constant).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";

const HEADER = (opset: number) => `<ir_version: 8, opset_import: ["" : ${opset}]>\n`;

describe("errors that teach (#33)", () => {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-first-day-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** `check` on `text`: the stderr lines with the file name taken off. */
  function check(text: string, ...flags: string[]): { code: number; lines: string[] } {
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, text);
    const r = runCli(["check", ...flags, file]);
    return { code: r.code, lines: r.stderr.split(`${file}:`).join("").trimEnd().split("\n") };
  }

  describe("a numpy or PyTorch type name", () => {
    const cases: [string, string][] = [
      ["float32", "float"],
      ["float64", "double"],
      ["fp16", "float16"],
      ["half", "float16"],
      ["int", "int32"],
      ["long", "int64"],
      ["INT64", "int64"],
      ["bf16", "bfloat16"],
    ];
    for (const [habit, meant] of cases) {
      it(`${habit}[2, 3] x: '${habit}' is not a type; did you mean '${meant}'?`, () => {
        const r = check(`${HEADER(18)}g (${habit}[2, 3] x) => (float[2, 3] y) {\n  y = Relu (x)\n}\n`);
        assert.equal(r.code, 1);
        assert.deepEqual(r.lines, [`2:4: error: '${habit}' is not a type; did you mean '${meant}'? [syntax]`]);
      });
    }
    it("in the outputs and without a shape too", () => {
      const r = check(`${HEADER(18)}g (float[2] x) => (half y) {\n  y = Relu (x)\n}\n`);
      assert.deepEqual(r.lines, ["2:20: error: 'half' is not a type; did you mean 'float16'? [syntax]"]);
    });
    it("leaves a value that happens to be named like a type alone", () => {
      const r = check(`${HEADER(18)}g (float[2] half) => (float[2] y) {\n  y = Relu (half)\n}\n`);
      assert.deepEqual(r, { code: 0, lines: [""] });
    });
  });

  describe("-1 and None as dimensions", () => {
    const text = `${HEADER(18)}g (float[-1, 3] x, float[None, 3] z) => (float[-1, 3] y) {\n  y = Add (x, z)\n}\n`;
    it("warns with a position and says what to write", () => {
      const r = check(text);
      assert.equal(r.code, 0);
      assert.deepEqual(r.lines, [
        "2:10: warning: a dimension of -1 is not a size; write '?' or a name for a dimension that is not known [negative-dimension]",
        "2:26: warning: 'None' here is a dimension named None (as any name is), not Python's None; write '?' for a dimension that is not known [dimension-named-none]",
        "2:48: warning: a dimension of -1 is not a size; write '?' or a name for a dimension that is not known [negative-dimension]",
      ]);
    });
    it("run reads -1 as an unknown size, and agrees with onnxruntime", () => {
      const file = path.join(dir, "neg.onnxtxt");
      fs.writeFileSync(file, text);
      const r = runCli(["run", file, "--input", "x=float[2, 3] {1, 2, 3, 4, 5, 6}", "--input", "z=float[2, 3] {1, 1, 1, 1, 1, 1}", "--compare", "ort"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^y: float\[2,3\] \{2, 3, 4, 5, 6, 7\}$/m);
      assert.match(r.stdout, /all outputs agree with onnxruntime/);
      assert.match(r.stderr, /neg\.onnxtxt:2:10: warning: a dimension of -1 is not a size/);
      // defaults: the unknown size becomes 1, as a `?` does
      const d = runCli(["run", file, "--input", "z=float[1, 3] {1, 1, 1}"]);
      assert.equal(d.code, 0, d.stderr);
      assert.match(d.stdout, /^y: float\[1,3\] /m);
    });
  });

  describe("cascades: the cause first, the symptoms not at all", () => {
    it("strides = 2 (an int where ints are needed) is the only error, with the list to write", () => {
      const r = check(
        `${HEADER(17)}g (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w) => (float[1, 4, 3, 3] y, float[1, 4, 3, 3] z) {\n  y = Conv <strides = 2> (x, w)\n  z = Relu (y)\n}\n`,
      );
      assert.deepEqual(r.lines, ["3:23: error: attribute 'strides' of Conv must be ints, not int: write strides = [2] [attribute-type]"]);
    });
    for (const opset of [17, 18]) {
      it(`ReduceSum <axes = [1]> at opset ${opset}: axes is an input since 13, from the schemas`, () => {
        const r = check(`${HEADER(opset)}g (float[2, 3, 4] x) => (float[2, 1, 4] y) {\n  y = ReduceSum <axes = [1], keepdims = 1> (x)\n}\n`);
        assert.deepEqual(r.lines, [
          `3:18: error: ReduceSum at opset ${opset} takes 'axes' as its input 2 (since opset 13), not as an attribute: give it as a tensor (an initializer or a Constant) [unknown-attribute]`,
        ]);
      });
    }
    it("Unsqueeze <axes = [1]> at 13: no 'takes 2 inputs' beside it", () => {
      const r = check(`${HEADER(13)}g (float[2, 3] x) => (float[2, 1, 3] y) {\n  y = Unsqueeze <axes = [1]> (x)\n}\n`);
      assert.deepEqual(r.lines, [
        "3:18: error: Unsqueeze at opset 13 takes 'axes' as its input 2 (since opset 13), not as an attribute: give it as a tensor (an initializer or a Constant) [unknown-attribute]",
      ]);
    });
    it("ReduceSum <axes = [1]> at opset 11, where it is an attribute, is clean", () => {
      const r = check(`${HEADER(11)}g (float[2, 3, 4] x) => (float[2, 1, 4] y) {\n  y = ReduceSum <axes = [1], keepdims = 1> (x)\n}\n`);
      assert.deepEqual(r, { code: 0, lines: [""] });
    });
  });

  describe("did you mean", () => {
    it("a misspelt value name, without 'input_ids is never used' as a second report", () => {
      const r = check(`${HEADER(18)}g (float[2, 3] input_ids) => (float[2, 3] y) {\n  y = Relu (input_id)\n}\n`);
      assert.deepEqual(r.lines, [
        "3:13: error: 'input_id' is not defined: no input, initializer or earlier node output has this name; did you mean 'input_ids'? [undefined-value]",
      ]);
    });
    it("Upsample: use Resize", () => {
      const r = check(`${HEADER(13)}g (float[1, 1, 2, 2] x, float[4] s) => (float[1, 1, 4, 4] y) {\n  y = Upsample (x, s)\n}\n`);
      assert.deepEqual(r.lines, ["3:7: error: Upsample is not available at ai.onnx opset 13: it was removed in opset 10; use Resize [op-not-in-opset]"]);
    });
    it("--inptu: did you mean '--input'?", () => {
      const r = runCli(["run", "--inptu", "x=1", "m.onnxtxt"]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr.split("\n")[0], "onnxtxt run: unknown option '--inptu'; did you mean '--input'?");
      const far = runCli(["run", "--zzzzzz", "m.onnxtxt"]);
      assert.equal(far.stderr.split("\n")[0], "onnxtxt run: unknown option '--zzzzzz'");
    });
  });
});

describe("sharp edges (#33)", () => {
  let dir = "";
  const ALEXNET = path.resolve("test/data/light/light_bvlc_alexnet.onnx");
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-edges-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe("an output that is the input under another name is refused, as cp does", () => {
    const cases: [string, (m: string, out: string) => void][] = [
      ["a symbolic link", (m, out) => fs.symlinkSync(m, out)],
      ["a hard link", (m, out) => fs.linkSync(m, out)],
    ];
    for (const [what, make] of cases) {
      for (const command of ["convert", "print", "convert --out-dir"]) {
        it(`${command} onto ${what} to the input`, () => {
          const m = path.join(dir, "m.onnx");
          fs.copyFileSync(ALEXNET, m);
          const out = path.join(dir, command === "convert --out-dir" ? "sub/m.onnxtxt" : "link.onnxtxt");
          fs.mkdirSync(path.dirname(out), { recursive: true });
          make(m, out);
          const args =
            command === "convert"
              ? ["convert", m, out]
              : command === "print"
                ? ["print", m, "-o", out]
                : ["convert", "--to", "onnxtxt", "--out-dir", path.join(dir, "sub"), m];
          // the batch form: the output of m is sub/m.onnxtxt, a link to m itself
          const r = runCli(args);
          assert.equal(r.code, 2, r.stderr);
          assert.ok(r.stderr.includes(`onnxtxt: ${out}: is the same file as the input '${m}' (a link to it); not writing over it`), r.stderr);
          assert.deepEqual(fs.readFileSync(m), fs.readFileSync(ALEXNET), "the input is untouched");
        });
      }
    }
    it("a text file given as its own output is refused too; another file is written", () => {
      const m = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(m, `${HEADER(18)}g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}\n`);
      const r = runCli(["print", m, "-o", m]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /is the same file as the input '.*m\.onnxtxt'; not writing over it/);
      assert.equal(runCli(["convert", ALEXNET, path.join(dir, "a.onnxtxt")]).code, 0);
    });
  });

  describe("convert and a model check would reject", () => {
    const text = `${HEADER(17)}g (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w) => (float[1, 4, 3, 3] y) {\n  y = Conv <strides = 2> (x, w)\n}\n`;
    const first = "graph 'g' > node #0 (Conv) > attribute 'strides': attribute 'strides' of Conv must be ints, not int: write strides = [2] [attribute-type]";
    it("warns and writes it", () => {
      const m = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(m, text);
      const r = runCli(["convert", m, path.join(dir, "m.onnx")]);
      assert.equal(r.code, 0);
      assert.equal(
        r.stderr,
        `onnxtxt: ${m}: warning: 'onnxtxt check' would reject this model: 1 error (the first: ${first}); converted all the same (--check refuses instead)\n`,
      );
      assert.ok(fs.existsSync(path.join(dir, "m.onnx")));
    });
    it("--check refuses it and writes nothing; a clean model converts in silence", () => {
      const m = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(m, text);
      const r = runCli(["convert", "--check", m, path.join(dir, "m.onnx")]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `onnxtxt: ${m}: error: 'onnxtxt check' reports 1 error (the first: ${first}); nothing written (run 'onnxtxt check ${m}')\n`);
      assert.ok(!fs.existsSync(path.join(dir, "m.onnx")));
      const ok = runCli(["convert", "--check", ALEXNET, path.join(dir, "a.onnxtxt")]);
      assert.deepEqual([ok.code, ok.stderr], [0, ""]);
    });
  });

  it("a scalar constant stays on one line after a long output name, and onnx reads it", () => {
    const name = "a_very_long_output_name_for_the_constant_value_that_goes_on_and_on";
    const m = path.join(dir, "c.onnxtxt");
    fs.writeFileSync(m, `${HEADER(18)}g (float[2] x) => (float[2] y) {\n  ${name} = Constant <value = float {0}> ()\n  y = Add (x, ${name})\n}\n`);
    const bin = path.join(dir, "c.onnx");
    assert.equal(runCli(["convert", m, bin]).code, 0);
    const printed = runCli(["print", "--plain", bin]).stdout;
    assert.ok(printed.includes(`  ${name} = Constant <value = float {0}> ()\n`), printed);
    const script =
      "import sys, onnx, onnx.parser, onnx.checker\nm = onnx.parser.parse_model(open(sys.argv[1]).read())\nonnx.checker.check_model(m)\nt = m.graph.node[0].attribute[0].t\nprint(t.data_type, list(t.dims), list(t.float_data))";
    const txt = path.join(dir, "printed.onnxtxt");
    fs.writeFileSync(txt, printed);
    const py = spawnSync("/usr/bin/python3", ["-c", script, txt], { encoding: "utf8" });
    assert.equal(py.stdout, "1 [] [0.0]\n", py.stderr);
  });
});
