// The rules of issue #15: residual comments are rare (counts printed), stand on the line before
// a statement, never restate what the text shows (a hand edit of a visible field changes the
// binary, checked with Debian's onnx as the reader), and go stale with a positioned warning.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { clearField } from "@bufbuild/protobuf";
import { decodeModel } from "../../core/src/io/index.js";
import { OperatorSetIdProtoSchema } from "../../proto/src/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";
import { runCli } from "../helpers/cli.js";
import { CLI, LIGHT, nodeTestDirs, REPO } from "../helpers/paths.js";

function residualLines(text: string): { line: number; text: string }[] {
  return text
    .split("\n")
    .map((t, i) => ({ line: i + 1, text: t.trim() }))
    .filter((l) => l.text.startsWith("#@"));
}

function printFile(file: string): string {
  return printModel(decodeModel(fs.readFileSync(file)));
}

describe("residual comments: how many and where", function () {
  this.timeout(300_000);

  it("the 1884 node-test models print with no '#@' line but one file-level line", () => {
    const histogram = new Map<number, number>();
    const bad: string[] = [];
    for (const dir of nodeTestDirs()) {
      const lines = residualLines(printFile(path.join(dir, "model.onnx")));
      histogram.set(lines.length, (histogram.get(lines.length) ?? 0) + 1);
      if (lines.length > 1 || (lines.length === 1 && (lines[0]!.line !== 1 || !lines[0]!.text.startsWith("#@model ")))) bad.push(path.basename(dir));
    }
    console.log(
      `      node tests by number of '#@' lines: ${[...histogram]
        .sort((a, b) => a[0] - b[0])
        .map(([n, c]) => `${n}: ${c} models`)
        .join(", ")}`,
    );
    assert.deepEqual(bad, []);
    // docs/syntax.md states these counts.
    const docs = fs.readFileSync(path.join(REPO, "docs/syntax.md"), "utf8").replace(/\s+/g, " ");
    assert.ok(docs.includes(`${histogram.get(1) ?? 0} print with exactly one \`#@\` line`), "docs: models with one line");
    assert.ok(docs.includes(`and ${histogram.get(0) ?? 0} with none`), "docs: models with none");
  });

  it("ResNet-50, DenseNet-121 and Inception print with at most 5 '#@' lines each", () => {
    const counts: string[] = [];
    for (const name of ["light_resnet50", "light_densenet121", "light_inception_v1", "light_inception_v2"]) {
      const text = printFile(path.join(LIGHT, `${name}.onnx`));
      const n = residualLines(text).length;
      counts.push(`${name}: ${n} of ${text.split("\n").length} lines`);
      assert.ok(n <= 5, `${name} has ${n} '#@' lines`);
    }
    console.log(`      '#@' lines: ${counts.join("; ")}`);
  });

  it("an attribute's residuals (its tensor's NaN payload, its doc string, a subgraph's doc string) stand before the node statement", () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>
g (bool c) => (float[2] y) {
  #@node {"@attr":{"0":{"doc_string":"the constant","@tensor":{"@nan":{"1":"7fc00001"},"doc_string":"two values"}}}}
  k = Constant <value = float[2] {1.0, nan}> ()
  #@node {"@attr":{"0":{"@graph":{"doc_string":"then"}}}}
  y = If (c) <then_branch = t () => (float[2] k2) {
    k2 = Identity (k)
  }, else_branch = e () => (float[2] k3) {
    k3 = Identity (k)
  }>
}
`;
    const r = modelFromText(text);
    assert.deepEqual(r.diagnostics, []);
    const [constant, branch] = r.model!.graph!.node;
    assert.equal(constant!.attribute[0]!.docString, "the constant");
    assert.equal(constant!.attribute[0]!.t!.docString, "two values");
    assert.equal(branch!.attribute[0]!.g!.docString, "then");
    const printed = printModel(r.model!);
    // The printer puts them back the same way: before the statement, none inside '<...>'.
    for (const l of residualLines(printed)) assert.match(l.text, /^#@(model|node) /, l.text);
    const again = modelFromText(printed);
    assert.deepEqual(again.diagnostics, []);
    assert.equal(printModel(again.model!), printed);
  });
});

describe("docs/syntax.md", () => {
  it("its residual example is what the printer writes, and reads back without a warning", () => {
    const docs = fs.readFileSync(path.join(REPO, "docs/syntax.md"), "utf8");
    const example = /Example \(a node with a doc string[\s\S]*?```\n([\s\S]*?)```/.exec(docs)![1]!;
    const r = modelFromText(example);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.model!.graph!.node[0]!.docString, "the lower bound");
    assert.equal(printModel(r.model!), example);
  });
});

describe("visible text wins", function () {
  this.timeout(300_000);

  /** Reads a binary with Debian's onnx (1.12): opset versions, Conv strides, the first input's dims. */
  function readWithOnnx(file: string): { opsets: number[]; strides: number[]; dims: number[] } {
    const script = `
import json, sys, onnx
m = onnx.load(sys.argv[1])
conv = next(n for n in m.graph.node if n.op_type == "Conv")
strides = next(list(a.ints) for a in conv.attribute if a.name == "strides")
dims = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
print(json.dumps({"opsets": [o.version for o in m.opset_import], "strides": strides, "dims": dims}))
`;
    const r = spawnSync("/usr/bin/python3", ["-c", script, file], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { opsets: number[]; strides: number[]; dims: number[] };
  }

  it("editing the opset version, an attribute and a dim of printed ResNet-50 changes the binary accordingly", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-edit-"));
    try {
      const text = printFile(path.join(LIGHT, "light_resnet50.onnx"));
      const edited = text
        .replace('opset_import: ["" : 9]', 'opset_import: ["" : 11]')
        .replace(
          "[n0] r0 = Conv <pads = [3, 3, 3, 3], kernel_shape = [7, 7], strides = [2, 2]>",
          "[n0] r0 = Conv <pads = [3, 3, 3, 3], kernel_shape = [7, 7], strides = [1, 1]>",
        )
        .replace('float[1, 3, 224, 224] "gpu_0/data_0"', 'float[4, 3, 224, 224] "gpu_0/data_0"');
      assert.equal(edited.split("\n").filter((l, i) => l !== text.split("\n")[i]).length, 3, "the three edits apply");
      const before = path.join(work, "before.onnxtxt");
      const after = path.join(work, "after.onnxtxt");
      fs.writeFileSync(before, text);
      fs.writeFileSync(after, edited);
      for (const f of [before, after]) assert.equal(runCli(["convert", f, f.replace(/txt$/, "")]).code, 0);
      const a = readWithOnnx(before.replace(/txt$/, ""));
      const b = readWithOnnx(after.replace(/txt$/, ""));
      assert.deepEqual(a, { opsets: [9], strides: [2, 2], dims: [1, 3, 224, 224] });
      assert.deepEqual(b, { opsets: [11], strides: [1, 1], dims: [4, 3, 224, 224] });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("an opset entry without a domain field prints visibly and an edit of its version counts", () => {
    const dir = nodeTestDirs().find((d) => path.basename(d) === "test_abs")!;
    // An opset entry as onnx.helper.make_model writes it: no domain field.
    const m2 = decodeModel(fs.readFileSync(path.join(dir, "model.onnx")));
    m2.opsetImport.forEach((o) => clearField(o, OperatorSetIdProtoSchema.field.domain));
    const text = printModel(m2);
    assert.match(text, /opset_import: \["" : 13\]/);
    assert.match(text.split("\n")[0]!, /"@opset_unset":\{"0":\["domain"\]\}/);
    const edited = modelFromText(text.replace('["" : 13]', '["" : 14]'));
    assert.equal(edited.model!.opsetImport[0]!.version, 14n);
  });

  it("a hand edit makes a residual stale: a warning at the residual, the visible value used, additive data kept", () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  #@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"},"doc_string":"kept"}
  float[3] w = {nan, 2.0, 3.0}
> {
  y = Add (x, w)
}
`;
    const r = modelFromText(text);
    const stale = r.diagnostics.filter((d) => d.code === "residual-stale");
    assert.equal(stale.length, 1);
    assert.equal(stale[0]!.severity, "warning");
    assert.equal(text.slice(stale[0]!.span!.start, stale[0]!.span!.start + 8), "#@tensor");
    assert.match(stale[0]!.message, /@nan no longer applies; the visible text is used/);
    assert.equal(r.model!.graph!.initializer[0]!.docString, "kept");
    // The CLI says where: FILE:LINE:COL.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-stale-"));
    try {
      const f = path.join(work, "m.onnxtxt");
      fs.writeFileSync(f, text);
      const c = runCli(["check", f]);
      assert.match(c.stderr, /m\.onnxtxt:3:3: warning: .*\[residual-stale\]/);
      // convert says it too: nothing is dropped silently.
      const v = runCli(["convert", f, path.join(work, "m.onnx")]);
      assert.equal(v.code, 0);
      assert.match(v.stderr, /m\.onnxtxt:3:3: warning: .*\[residual-stale\]/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("without a digest, '@nan' and '@opset_unset' still yield to the visible text", () => {
    const text = `#@model {"@opset_unset":{"1":["domain"]}}
<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  #@tensor {"@nan":{"0":"7fc00001","1":"7fc00002"}}
  float[3] w = {nan, 2.0, 3.0}
> {
  y = Add (x, w)
}
`;
    const r = modelFromText(text);
    assert.ok(r.model);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, text.slice(d.span!.start, d.span!.start + 8)]),
      [
        ["residual-stale", "warning", "#@model "],
        ["residual-stale", "warning", "#@tensor"],
      ],
    );
    assert.match(r.diagnostics[1]!.message, /'@nan' for element 1, which the text no longer writes as nan/);
    assert.equal(r.model!.graph!.initializer[0]!.floatData[1], 2);
  });

  it("a printed residual with a digest is not stale until its element is edited", () => {
    const text = `<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  #@tensor {"@nan":{"0":"7fc00001"}}
  float[3] w = {nan, 2.0, 3.0}
> {
  y = Add (x, w)
}
`;
    const printed = printModel(modelFromText(text).model!);
    assert.match(printed, /#@tensor \{"@digest":"[0-9a-f]{8}","@nan":\{"0":"7fc00001"\}\}/);
    assert.deepEqual(modelFromText(printed).diagnostics, []);
    const edited = modelFromText(printed.replace("{nan, 2, 3}", "{nan, 2, 4}"));
    assert.ok(edited.diagnostics.some((d) => d.code === "residual-stale"));
    assert.equal(edited.model!.graph!.initializer[0]!.floatData[2], 4);
  });
});

describe("text -> text keeps comments or refuses", () => {
  const text = `<ir_version: 10, opset_import: ["" : 21]>
# the graph
g (float[2] x) => (float[2] y) {
  #@node {"doc_string":"rectifies"}
  y = Relu (x) # rectify
}
`;

  it("convert and infer from text to text refuse to drop ordinary comments, naming where they are", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-comments-"));
    try {
      const f = path.join(work, "m.onnxtxt");
      fs.writeFileSync(f, text);
      for (const args of [
        ["convert", f, path.join(work, "out.onnxtxt")],
        ["convert", "--to", "onnxtxt", "--out-dir", work, f],
        ["infer", f, f],
      ]) {
        const r = runCli(args);
        assert.equal(r.code, 2, args.join(" "));
        assert.match(r.stderr, /m\.onnxtxt: has 2 comments \(first at 2:1\) that writing text through the model would drop/);
        assert.equal(fs.readFileSync(f, "utf8"), text, "the input is untouched");
      }
      assert.ok(!fs.existsSync(path.join(work, "out.onnxtxt")));
      // Through stdin and stdout too.
      for (const args of [
        ["convert", "--to", "onnxtxt", "-", "-"],
        ["infer", "-", "-"],
      ]) {
        const r = spawnSync(process.execPath, [CLI, ...args], { input: text, encoding: "utf8" });
        assert.equal(r.status, 2, args.join(" "));
        assert.match(r.stderr, /has 2 comments \(first at 2:1\) that writing text through the model would drop/);
        assert.equal(r.stdout, "");
      }
      // Asked for: the residual survives (it comes from the model), the ordinary comments go.
      assert.equal(runCli(["convert", "--drop-comments", f, path.join(work, "out.onnxtxt")]).code, 0);
      const out = fs.readFileSync(path.join(work, "out.onnxtxt"), "utf8");
      assert.match(out, /#@node \{"doc_string":"rectifies"\}/);
      assert.ok(!out.includes("rectify\n"));
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("format keeps residual and ordinary comments, and the model they make", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-format-"));
    try {
      const f = path.join(work, "m.onnxtxt");
      fs.writeFileSync(f, text.replace("y = Relu (x)", "y   =   Relu(x)"));
      assert.equal(runCli(["format", "--write", f]).code, 0);
      const formatted = fs.readFileSync(f, "utf8");
      assert.equal(formatted, text);
      assert.equal(modelFromText(formatted).model!.graph!.node[0]!.docString, "rectifies");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe("print --plain", () => {
  it("drops every residual and says on stderr what was dropped", () => {
    const file = path.join(nodeTestDirs().find((d) => path.basename(d) === "test_abs")!, "model.onnx");
    const r = runCli(["print", "--plain", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("#@"));
    // The same text as the full print, less its residual lines.
    assert.equal(
      r.stdout,
      printFile(file)
        .split("\n")
        .filter((l) => !l.trim().startsWith("#@"))
        .join("\n"),
    );
    assert.match(r.stderr, /--plain left out what only residual comments say: model default: nodes without a domain field/);
  });
});

describe("'#@' comments that are not residuals", () => {
  const base = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) {
  LINE
  y = Relu (x)
}
`;

  it("'#@todo: ...' is an ordinary comment, without a word", () => {
    const r = modelFromText(base.replace("LINE", "#@todo: check the slope"));
    assert.deepEqual(r.diagnostics, []);
    assert.ok(r.model);
  });

  it("a misspelt kind with JSON is an ordinary comment with a warning", () => {
    const r = modelFromText(base.replace("LINE", '#@tensr {"doc_string": "x"}'));
    assert.ok(r.model);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.severity, d.code]),
      [["warning", "extension"]],
    );
    assert.match(r.diagnostics[0]!.message, /'#@tensr' is not a residual kind/);
  });
});
