// Bugs the fuzzer found in other stages, each pinned by the smallest input that showed it.
import { strict as assert } from "node:assert";
import { checkModel } from "../../core/src/check/index.js";
import { diagnosticLines } from "../../core/src/diagnostic-lines.js";
import { formatText } from "../../core/src/print/format.js";
import { findRegions, formatEmbedded } from "../../core/src/embedded/index.js";
import { modelFromText } from "../../core/src/text.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { BINARY_TARGETS } from "./harness/targets.js";

const HEADER = `<ir_version: 8, opset_import: ["" : 18]>\n`;

describe("fuzz regressions", () => {
  it("formatting an embedded text whose ONNX string holds a carriage return is idempotent", () => {
    for (const [host, language] of [
      ['const m = onnx`\n<ir_version: 8, opset_import: ["\r\r\n" : 18]>\r\ntagged (float[N] x) => (float[N] y) {\r\n    y = Relu(x)\r\n}\n`;\n', "javascript"],
      ['```onnx\n<ir_version: 8, opset_import: ["# c \r\n" : 18]>\nfenced (float[N] x) => (float[N] y) {\n    y = Relu(x)\n}\n```\n', "markdown"],
    ] as const) {
      const once = formatEmbedded(host, language);
      assert.equal(once.changed, 1, language);
      assert.equal(formatEmbedded(once.text, language).text, once.text, language);
    }
  });

  it("a C++ string left open by a backslash at the end of the file is skipped inside the file", () => {
    const host =
      'void f(FunctionProto& p) {\n  FunctionBuilder builder(p);\n  builder.Add("Zero = Constant <value = float {0.0}> ()")\n      .Add("Tabbed = Mul (X,\\';
    const { skipped } = findRegions(host, "cpp");
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0]!.reason, "the string is not terminated");
    assert.equal(skipped[0]!.span.end, host.length);
  });

  it("duplicate-opset-import on text carries a location (lowering source-maps opset entries)", () => {
    const text = `<ir_version: 8, opset_import: ["" : 18, "" : 18]>\nmain (float x) => (float y) { y = Relu(x) }\n`;
    const r = modelFromText(text);
    const dup = checkModel(r.model!, { sourceMap: r.sourceMap }).find((d) => d.code === "duplicate-opset-import");
    assert.ok(dup?.span, "no span");
    assert.equal(text.slice(dup.span.start, dup.span.end), `"" : 18`);
  });

  it("a syntax error quoting a string with a line break stays on one line", () => {
    const text = `${HEADER}main (float x) => (float y) {\n  y = Relu(x "a\nb")\n}\n`;
    const r = modelFromText(text);
    const messages = r.diagnostics.map((d) => d.message);
    assert.ok(
      messages.some((m) => m.includes(String.raw`"a\nb"`)),
      messages.join(" | "),
    );
    for (const m of messages) assert.doesNotMatch(m, /\n/);
  });

  it("CLI diagnostic lines escape line breaks in any message", () => {
    const out = diagnosticLines("f.onnxtxt", "ab\ncd", [{ severity: "error", code: "x", message: "one\ntwo\r\nthree", span: { start: 3, end: 4 } }]);
    assert.equal(out, String.raw`f.onnxtxt:2:1: error: one\ntwo\nthree [x]` + "\n");
  });

  it("format keeps a quoted function attribute name quoted", () => {
    const text = `${HEADER}main (float x) => (float y) { y = local.F (x) }\n\n<domain: "local", opset_import: ["" : 18]>\nF <"quoted param": ints = [1, 2]> (x) => (y) { y = Identity (x) }\n`;
    const f = formatText(text);
    assert.ok(f.ok);
    assert.match(f.text, /"quoted param": ints = \[1, 2\]/);
    const again = modelFromText(f.text);
    assert.ok(again.model, again.diagnostics.map((d) => d.message).join("; "));
    assert.deepEqual(encodeModel(again.model), encodeModel(modelFromText(text).model!));
  });

  it("checker and inference messages quoting a name with a line break stay on one line", () => {
    const text = `${HEADER}main (float x) => (float y) {\n  y = Relu("a\nb")\n}\n`;
    const r = modelFromText(text);
    const diagnostics = checkModel(r.model!, { sourceMap: r.sourceMap });
    const undefinedName = diagnostics.find((d) => d.code === "undefined-value");
    assert.ok(undefinedName, diagnostics.map((d) => d.message).join(" | "));
    assert.match(undefinedName.message, /'a\\nb' is not defined/);
    for (const d of diagnostics) assert.doesNotMatch(d.message, /\n/);
  });

  it("the print round-trip check compares NaN payloads as read from the wire (a signalling NaN attribute)", () => {
    const text = `${HEADER}main (float x) => (float y) { y = LeakyRelu <alpha = nan> (x) }\n`;
    const bytes = encodeModel(modelFromText(text).model!);
    // alpha's four bytes: the default NaN, replaced by a negative signalling NaN with a payload.
    const at = Buffer.from(bytes).indexOf(Buffer.from([0x00, 0x00, 0xc0, 0x7f]));
    assert.ok(at > 0);
    bytes.set([0x33, 0x33, 0xb3, 0xff], at);
    assert.equal(new DataView(encodeModel(decodeModel(bytes)).buffer).getUint32(at, true), 0xffb33333, "encodeModel keeps the bits");
    for (const target of BINARY_TARGETS) assert.deepEqual(target.run(bytes), [], target.name);
  });

  it("a binary tensor with fewer values than its dims prints as it is, and reading the text back refuses it as check does", () => {
    const text = `${HEADER}main (float x) => (float y) <int64[1] k = {7}> { y = Identity (x) }\n`;
    const model = modelFromText(text).model!;
    model.graph!.initializer[0]!.dims = [3n]; // one value for three places: only a binary can say this
    const bytes = encodeModel(model);
    const printed = printModel(decodeModel(bytes));
    assert.match(printed, /int64\[3\] k = \{7\}/);
    const back = modelFromText(printed);
    const refused = back.diagnostics.filter((d) => d.severity === "error");
    assert.deepEqual(
      refused.map((d) => [d.code, printed.slice(d.span!.start, d.span!.end)]),
      [["element-count", "{7}"]],
    );
    assert.ok(checkModel(decodeModel(bytes)).some((d) => d.code === "element-count" && d.severity === "error"));
    for (const target of BINARY_TARGETS) assert.deepEqual(target.run(bytes), [], target.name);
  });

  it("a tensor attribute written without values is refused where it is written, as the same tensor with `{}` is (seed 12)", () => {
    const body = (literal: string) =>
      `<ir_version: 9, opset_import: ["ai.onnx.ml" : 4]>\nm (string[5] X) => (int16[5] Y) {\n  Y = ai.onnx.ml.LabelEncoder <default_tensor: tensor = ${literal}, keys_strings = ["a"], values_tensor = int16[1] v {0}> (X)\n}\n`;
    for (const literal of ["int16[1] def", "int16[1] def {}"]) {
      const text = body(literal);
      const r = modelFromText(text);
      const errors = r.diagnostics.filter((d) => d.severity === "error");
      assert.equal(r.model, undefined, literal);
      assert.deepEqual(
        errors.map((d) => [d.code, d.span && text.slice(d.span.start, d.span.end).startsWith("int16[1] def")]),
        [["element-count", literal === "int16[1] def"]],
        literal,
      );
    }
    // A tensor with no elements needs none written.
    assert.ok(modelFromText(body("int16[0] def")).model);
  });

  it("a binary attribute tensor of an unknown data type reads back from its print, and check refuses it where it is written (seed 13)", () => {
    const text = `<ir_version: 9, opset_import: ["ai.onnx.ml" : 4]>\nm (string[5] X) => (int16[5] Y) {\n  Y = ai.onnx.ml.LabelEncoder <default_tensor: tensor = int16[1] def {0}, keys_strings = ["a"], values_tensor = int16[1] v {0}> (X)\n}\n`;
    const model = modelFromText(text).model!;
    const def = model.graph!.node[0]!.attribute[0]!.t!;
    def.dataType = 127; // no element type has this id: the text can only carry it in the residual
    def.dims = [3n];
    def.int32Data = [0, 0, 0];
    const bytes = encodeModel(model);
    const printed = printModel(decodeModel(bytes));
    assert.match(printed, /uint8\[3\] def \{\}/);
    const back = modelFromText(printed);
    assert.ok(back.model, back.diagnostics.map((d) => d.message).join("; "));
    assert.deepEqual(encodeModel(back.model), bytes);
    const refused = checkModel(back.model, { sourceMap: back.sourceMap }).filter((d) => d.severity === "error");
    assert.deepEqual(
      refused.map((d) => [d.code, printed.slice(d.span!.start, d.span!.end).startsWith("default_tensor")]),
      [["tensor-data-type", true]],
    );
    // Without the residual, the visible `{}` is refused as before.
    const visibleOnly = printed.replace(/^\s*#@node .*\n/m, "");
    assert.deepEqual(
      modelFromText(visibleOnly)
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => d.code),
      ["element-count"],
    );
    for (const target of BINARY_TARGETS) assert.deepEqual(target.run(bytes), [], target.name);
  });
});
