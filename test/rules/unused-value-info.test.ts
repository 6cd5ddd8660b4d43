// `unused-value-info` and its safe fix, against onnx's own parser and checker (Debian's
// python3-onnx): on a real network whose value_info onnx's shape inference wrote, with one stray
// entry added, and on the shapes a `<...>` list takes in hand-written text.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fixAll } from "../../core/src/ide/fix-all.js";
import { modelFromText } from "../../core/src/text.js";
import { checkModel } from "../../core/src/check/index.js";
import { runCli } from "../helpers/cli.js";
import { printedAlexNet, python } from "./alexnet-oracle.js";

/** onnx's parser on a text: the value_info names in order, and whether its checker accepts the model. */
function onnxReads(file: string): { valueInfo: string[]; checks: boolean } {
  const r = python(
    `import sys, json, onnx, onnx.parser
m = onnx.parser.parse_model(open(sys.argv[1]).read())
try:
    onnx.checker.check_model(m, full_check=True)
    ok = True
except Exception:
    ok = False
print(json.dumps({"valueInfo": [v.name for v in m.graph.value_info], "checks": ok}))`,
    file,
  );
  assert.ok(r.ok, r.stderr);
  return JSON.parse(r.stdout) as { valueInfo: string[]; checks: boolean };
}

const codesOf = (text: string): string[] => {
  const r = modelFromText(text);
  assert.ok(r.model, JSON.stringify(r.diagnostics));
  return checkModel(r.model, { sourceMap: r.sourceMap }).map((d) => d.code);
};

const H = '<ir_version: 8, opset_import: ["" : 13]>\n';

describe("unused-value-info", function () {
  let dir = "";
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-uvi-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("on AlexNet with onnx's inferred value_info and one stray entry: only the stray is reported; --fix removes that line alone, and onnx reads and accepts the result", () => {
    const file = printedAlexNet(dir, 'm.graph.value_info.insert(3, h.make_tensor_value_info("stray", onnx.TensorProto.FLOAT, [7]))');
    const original = fs.readFileSync(file, "utf8");
    const before = onnxReads(file);
    assert.ok(before.checks && before.valueInfo.includes("stray") && before.valueInfo.length > 30, JSON.stringify(before));

    const checked = runCli(["check", file]);
    const reported = checked.stderr.split("\n").filter((l) => l.includes("[unused-value-info]"));
    assert.equal(reported.length, 1, checked.stderr);
    const strayLine = original.split("\n").findIndex((l) => /^\s*float\[7\] stray,$/.test(l)) + 1;
    assert.match(reported[0]!, new RegExp(`:${strayLine}:\\d+: warning: value_info 'stray' `));

    const fixed = runCli(["check", "--fix", file]);
    assert.match(fixed.stderr, new RegExp(`:${strayLine}:\\d+: fixed unused-value-info: Remove the unused value_info 'stray'`));
    assert.doesNotMatch(fixed.stderr, /unused-value-info\]/);
    const lines = original.split("\n");
    lines.splice(strayLine - 1, 1);
    assert.equal(fs.readFileSync(file, "utf8"), lines.join("\n"));
    const after = onnxReads(file);
    assert.deepEqual(
      after.valueInfo,
      before.valueInfo.filter((n) => n !== "stray"),
    );
    assert.ok(after.checks);
  });

  it("removes an entry in each place of a `<...>` list with its comma and #@value residual, keeps other comments, and onnx reads the rest", () => {
    const body = "> {\n  h = Relu (x)\n  u = Abs (h)\n  y = Add (h, u)\n}\n";
    const cases: { list: string; kept: string[] }[] = [
      { list: "<float[2] t", kept: [] },
      { list: "<float[2] t, float[2] h", kept: ["h"] },
      { list: "<float[2] h, float[2] t", kept: ["h"] },
      { list: "<float[2] h, float[2] t, float[2] u", kept: ["h", "u"] },
      { list: '<\n  float[2] h,\n  #@value {"doc_string": "stray"}\n  # why t is here\n  float[2] t,   # the stray one\n  float[2] u\n', kept: ["h", "u"] },
      { list: "<\n  float[2] h,\n  float[2] t\n", kept: ["h"] },
      { list: '<\n  #@value {"doc_string": "stray"}\n  float[2] t\n', kept: [] },
      { list: "<\n  # a comment of the list\n  float[2] t\n", kept: [] },
      { list: "<float[2] w = {1, 2}, float[2] t, float[2] s", kept: [] },
    ];
    for (const { list, kept } of cases) {
      const text = `${H}g (float[2] x) => (float[2] y) ${list}${body}`;
      assert.ok(codesOf(text).includes("unused-value-info"), list);
      const r = fixAll(text);
      assert.ok(
        r.applied.every((f) => f.code === "unused-value-info"),
        JSON.stringify(r.applied),
      );
      // (the initializer `w` of the last case is unused too: not this rule's business)
      assert.deepEqual(
        codesOf(r.text).filter((c) => c !== "unused-initializer"),
        [],
        `${list}\n=>\n${r.text}`,
      );
      for (const comment of text.match(/# [^\n]*/g) ?? []) assert.ok(r.text.includes(comment), `${comment} kept in\n${r.text}`);
      assert.ok(!r.text.includes("#@value"), r.text);
      const file = path.join(dir, "m.onnxtxt");
      fs.writeFileSync(file, r.text);
      const onnx = onnxReads(file);
      assert.deepEqual(onnx.valueInfo, kept, `${list}\n=>\n${r.text}`);
      assert.ok(onnx.checks, r.text);
    }
  });

  it("names used only inside a subgraph count; a subgraph's own stray entry is reported and removed", () => {
    const text = `${H}g (bool c, float[2] x) => (float[2] y) <float[2] inner> {
  y = If (c) <
    then_branch = t () => (float[2] a) <float[2] stray> {
      inner = Relu (x)
      a = Abs (inner)
    },
    else_branch = e () => (float[2] b) {
      b = Neg (x)
    }
  >
}
`;
    assert.deepEqual(codesOf(text), ["unused-value-info"]);
    const r = fixAll(text);
    assert.equal(r.text, text.replace(" <float[2] stray>", ""));
    const file = path.join(dir, "if.onnxtxt");
    fs.writeFileSync(file, r.text);
    assert.ok(onnxReads(file).checks);
  });

  it("is a warning in the warnings group: a configuration can turn it off, and then --fix leaves the entry", () => {
    const text = `${H}g (float[2] x) => (float[2] y) <float[2] t> {\n  y = Relu (x)\n}\n`;
    const file = path.join(dir, "m.onnxtxt");
    fs.writeFileSync(file, text);
    fs.writeFileSync(path.join(dir, "onnxtxt.toml"), 'ignore = ["warnings"]\n');
    const r = runCli(["check", "--fix", file]);
    assert.equal(r.stderr, "");
    assert.equal(fs.readFileSync(file, "utf8"), text);
  });
});
