// Protobuf text format as an input: every libonnx-testdata model, written by protobuf's own
// text_format (Debian's python3-onnx), reads back through `convert` to the model protobuf's
// reader makes of the same text; also through the ONNX text syntax. Errors have file:line:col.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { modelFromTextproto, TextprotoError } from "../../core/src/textproto/index.js";
import { runCli } from "../helpers/cli.js";
import { LIBONNX_DATA, REPO } from "../helpers/paths.js";

const PY = path.join(REPO, "test/textproto/py");

function python(script: string, args: readonly string[]): string {
  const r = spawnSync("/usr/bin/python3", [path.join(PY, script), ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `${script}: ${r.stderr}`);
  return r.stdout;
}

function filesUnder(dir: string, ext: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[]).filter((f) => f.endsWith(ext)).map((f) => path.join(dir, f));
}

describe("protobuf text format input", () => {
  let root = "";
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-textproto-"));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it("reads every libonnx-testdata model as protobuf's text_format writes it to the model protobuf reads", () => {
    const txt = path.join(root, "txt");
    const written = Number(python("write_textproto.py", [txt]).trim());
    assert.ok(written > 1000, `only ${written} models written`);
    const inputs = filesUnder(txt, ".pbtxt");
    assert.equal(inputs.length, written);
    const direct = path.join(root, "direct");
    const r = runCli(["convert", "--to", "onnx", "--out-dir", direct, ...inputs]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(python("compare_models.py", [txt, direct]), "");
    // and byte for byte the file onnx wrote in the first place
    for (const input of inputs) {
      const rel = path.relative(txt, input);
      const original = path.join(LIBONNX_DATA, path.dirname(rel), path.basename(rel, ".pbtxt"), "model.onnx");
      const ours = path.join(direct, rel.replace(/\.pbtxt$/, ".onnx"));
      assert.ok(Buffer.compare(fs.readFileSync(ours), fs.readFileSync(original)) === 0, `${rel}: not the bytes of ${original}`);
    }
  });

  it("moves them into the ONNX text syntax losslessly (pbtxt -> onnxtxt -> onnx is the same model)", () => {
    const txt = path.join(root, "txt");
    const inputs = filesUnder(txt, ".pbtxt");
    assert.ok(inputs.length > 1000);
    const text = path.join(root, "onnxtxt");
    let r = runCli(["convert", "--to", "onnxtxt", "--out-dir", text, ...inputs]);
    assert.equal(r.code, 0, r.stderr);
    const back = path.join(root, "back");
    r = runCli(["convert", "--to", "onnx", "--out-dir", back, ...filesUnder(text, ".onnxtxt")]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(python("compare_models.py", [txt, back]), "");
  });

  it("reads a .onnxtxt that is really protobuf text format, with a note, in convert, print and check; format says what it is", () => {
    const file = path.join(root, "glow.onnxtxt");
    fs.writeFileSync(
      file,
      `# a glow-style test file\nir_version: 7\nopset_import { version: 13 }\ngraph <\n  name: "g"\n  node { input: "x" output: "y" op_type: "Relu" }\n  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }\n  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } } } } }\n>\n`,
    );
    const note = `onnxtxt: ${file}: note: the name says ONNX text, but the file looks like protobuf text format;`;
    const printed = runCli(["print", file]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /g \(float\[2\] x\) => \(float\[N\] y\)/);
    assert.match(printed.stdout, /y = Relu \(x\)/);
    assert.ok(printed.stderr.includes(`${note} reading it as such`), printed.stderr);
    assert.ok(printed.stderr.includes("the comments of protobuf text format are not carried into the model"), printed.stderr);
    const checked = runCli(["check", file]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.ok(checked.stderr.includes(`${note} checking it as such`), checked.stderr);
    const formatted = runCli(["format", file]);
    assert.equal(formatted.code, 2);
    assert.equal(
      formatted.stderr,
      `onnxtxt: ${file}: this file is protobuf text format, not the ONNX text syntax; \`onnxtxt print ${file} -o NEW.onnxtxt\` writes it in the ONNX text syntax\n`,
    );
    const out = path.join(root, "glow.onnx");
    assert.equal(runCli(["convert", file, out]).code, 0);
    assert.ok(fs.statSync(out).size > 0);
  });

  it("refuses bad text format with FILE:LINE:COL and writes nothing; check reports it as a syntax error", () => {
    const file = path.join(root, "bad.pbtxt");
    fs.writeFileSync(file, `ir_version: 7\ngraph {\n  node { op_typo: "Relu" }\n}\n`);
    const out = path.join(root, "bad.onnx");
    const r = runCli(["convert", file, out]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `onnxtxt: ${file}:3:10: NodeProto has no field 'op_typo'\n`);
    assert.ok(!fs.existsSync(out));
    const checked = runCli(["check", file]);
    assert.equal(checked.code, 1);
    const lines = (checked.stdout + checked.stderr).split("\n");
    assert.ok(lines.includes(`${file}:3:10: error: NodeProto has no field 'op_typo' [syntax]`), lines.join("\n"));
  });

  it("keeps reading damaged ONNX text as ONNX text (a lost '<' before ir_version)", () => {
    const file = path.join(root, "damaged.onnxtxt");
    fs.writeFileSync(file, `ir_version: 8, opset_import: ["" : 17]>\ng (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}\n`);
    const r = runCli(["check", file]);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stderr, /protobuf text format/);
    assert.match(r.stdout + r.stderr, new RegExp(`${path.basename(file)}:1:\\d+: error: .*\\[syntax\\]`));
  });

  describe("the reader", () => {
    const fail = (text: string): string => {
      try {
        modelFromTextproto(text);
      } catch (e) {
        assert.ok(e instanceof TextprotoError, String(e));
        return e.message;
      }
      return assert.fail("no error");
    };

    it("reads C escapes (octal, hex, simple) into raw_data bytes and strings as UTF-8", () => {
      const m = modelFromTextproto(`graph { initializer { name: "caf\\303\\251" data_type: 1 raw_data: "\\000\\x01\\n\\"" 'ab' } }`);
      assert.equal(m.graph?.initializer[0]?.name, "café");
      assert.deepEqual([...(m.graph?.initializer[0]?.rawData ?? [])], [0, 1, 10, 34, 97, 98]);
    });

    it("reads enums by name or number, lists in [], <> messages, nan/inf and 64-bit integers", () => {
      const m = modelFromTextproto(
        `model_version: -9223372036854775808; graph < node { attribute { name: "a" type: FLOATS floats: [1.5, -inf, nan] ints: [0x10, 7] } } >`,
      );
      const a = m.graph?.node[0]?.attribute[0];
      assert.equal(m.modelVersion, -(2n ** 63n));
      assert.equal(a?.type, 6);
      assert.deepEqual(a?.floats.slice(0, 2), [1.5, Number.NEGATIVE_INFINITY]);
      assert.ok(Number.isNaN(a?.floats[2]));
      assert.deepEqual(a?.ints, [16n, 7n]);
    });

    it("says where and what is wrong", () => {
      assert.equal(fail(`ir_version 7`), "1:12: expected ':' after 'ir_version'");
      assert.equal(fail(`ir_version: 7\nir_version: 8`), "2:1: 'ir_version' is given twice, but ModelProto has one");
      assert.equal(fail(`graph {\n  name: "g"`), "2:12: expected '}' to close GraphProto");
      assert.equal(
        fail(`graph { node { attribute { type: FLOATY } } }`),
        `1:34: 'FLOATY' is not one of ${"UNDEFINED, FLOAT, INT, STRING, TENSOR, GRAPH, FLOATS, INTS, STRINGS, TENSORS, GRAPHS, SPARSE_TENSOR, SPARSE_TENSORS, TYPE_PROTO, TYPE_PROTOS"}`,
      );
      assert.equal(fail(`doc_string: "abc`), "1:13: a string that is not closed on its line");
      assert.equal(fail(`ir_version: 99999999999999999999`), "1:13: 99999999999999999999 is out of range (-9223372036854775808 to 9223372036854775807)");
    });
  });
});
