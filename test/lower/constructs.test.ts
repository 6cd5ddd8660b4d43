// The constructs only the 1.23 parser reads (so the 1.12 oracle cannot check them), each with the
// result the syntax doc (docs/onnx-text-syntax.md) states for onnx 1.23.1. Deviations
// from 1.23.1, where it contradicts the ONNX spec, are marked DEVIATION.
import { strict as assert } from "node:assert";
import { isFieldSet } from "@bufbuild/protobuf";
import {
  AttributeProto_AttributeType as AT,
  AttributeProtoSchema,
  NodeProtoSchema,
  TensorProto_DataLocation,
  TensorProto_DataType as DT,
  TypeProto_TensorSchema,
  type AttributeProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
  type TypeProto,
} from "../../proto/src/index.js";
import { modelFromText } from "../../core/src/text.js";

function model(text: string): ModelProto {
  const r = modelFromText(text);
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
  );
  return r.model!;
}

function graph(signature: string, body = "", values = ""): GraphProto {
  return model(`<ir_version: 10, opset_import: ["" : 21]>\ng ${signature} ${values} {\n${body}\n}`).graph!;
}

function node(line: string): NodeProto {
  return graph("(float[N] x) => (y)", line).node[0]!;
}

function attr(text: string): AttributeProto {
  return node(`y = Op <${text}> (x)`).attribute[0]!;
}

function errors(text: string): { code: string; message: string }[] {
  return modelFromText(text)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => ({ code: d.code, message: d.message }));
}

function graphErrors(values: string, body = "y = Identity (x)"): { code: string; message: string }[] {
  return errors(`<ir_version: 10, opset_import: ["" : 21]>\ng (float[N] x) => (y) ${values} {\n${body}\n}`);
}

function init(decl: string): TensorProto {
  return graph("(float[N] x) => (y)", "y = Identity (x)", `<${decl}>`).initializer[0]!;
}

function tensorType(t: TypeProto | undefined): { elemType: number; dims?: (bigint | string | undefined)[] } {
  assert.equal(t?.value.case, "tensorType");
  const tt = t.value.value;
  return {
    elemType: tt.elemType,
    ...(isFieldSet(tt, TypeProto_TensorSchema.field.shape) && { dims: tt.shape!.dim.map((d) => d.value.value) }),
  };
}

describe("lowering: names, labels, overloads, id lists", () => {
  it("reads quoted names anywhere a name may be quoted", () => {
    const g = model(
      `<ir_version: 10, opset_import: ["" : 21]>\n"my graph" (float["M + N"] "in/0", float[2] "" ) => ("out.0") {\n  ["n/1"] "out.0" = Add ("in/0", "")\n}`,
    ).graph!;
    assert.equal(g.name, "my graph");
    assert.deepEqual(
      g.input.map((i) => i.name),
      ["in/0", ""],
    );
    assert.deepEqual(tensorType(g.input[0]!.type).dims, ["M + N"]);
    assert.equal(g.node[0]!.name, "n/1");
    assert.deepEqual(g.node[0]!.input, ["in/0", ""]);
  });

  it("unescapes strings: a backslash takes the next character", () => {
    const a = attr(String.raw`s = "a\"b\\c\n"`);
    assert.equal(new TextDecoder().decode(a.s), 'a"b\\cn');
  });

  it("sets the node name for [] and leaves it absent without a label", () => {
    assert.equal(node("[] y = Relu (x)").name, "");
    assert.ok(isFieldSet(node("[] y = Relu (x)"), NodeProtoSchema.field.name));
    assert.ok(!isFieldSet(node("y = Relu (x)"), NodeProtoSchema.field.name));
    assert.ok(isFieldSet(node("y = Relu (x)"), NodeProtoSchema.field.domain), "domain is always set");
  });

  it("reads overloads and dotted domains", () => {
    const n = node("y = com.acme.Op:v2 (x)");
    assert.deepEqual([n.domain, n.opType, n.overload], ["com.acme", "Op", "v2"]);
  });

  it("applies the empty-entry rule of id lists", () => {
    const cases: [string, string[]][] = [
      ["Op()", []],
      ["Op(x)", ["x"]],
      ["Op(x, , z)", ["x", "", "z"]],
      ["Op(, z)", ["", "z"]],
      ['Op("", z)', ["", "z"]],
      ["Op(,)", [""]],
      ["Op(x,)", ["x"]],
      ['Op(x, "")', ["x", ""]],
    ];
    for (const [text, inputs] of cases) assert.deepEqual(node(`y = ${text}`).input, inputs, text);
    assert.deepEqual(node("= Op()").output, []);
    assert.deepEqual(node("x2, = Op()").output, ["x2"]);
    assert.deepEqual(node(", = Op()").output, [""]);
  });

  it("takes attributes written after the inputs", () => {
    const n = node("y = LeakyRelu (x) <alpha = 0.5>");
    assert.equal(n.attribute[0]!.f, 0.5);
  });
});

describe("lowering: types", () => {
  it("distinguishes rank 0, unknown rank and shapes", () => {
    const g = graph("(float a, float[] b, float[N, ?, 3, -1] c) => (y)", "y = Identity (a)");
    assert.deepEqual(tensorType(g.input[0]!.type), { elemType: DT.FLOAT, dims: [] });
    assert.deepEqual(tensorType(g.input[1]!.type), { elemType: DT.FLOAT });
    assert.deepEqual(tensorType(g.input[2]!.type).dims, ["N", undefined, 3n, -1n]);
  });

  it("reads every element type name", () => {
    const names = [
      "float",
      "uint8",
      "int8",
      "uint16",
      "int16",
      "int32",
      "int64",
      "string",
      "bool",
      "float16",
      "double",
      "uint32",
      "uint64",
      "complex64",
      "complex128",
      "bfloat16",
      "float8e4m3fn",
      "float8e4m3fnuz",
      "float8e5m2",
      "float8e5m2fnuz",
      "uint4",
      "int4",
      "float4e2m1",
      "float8e8m0",
      "uint2",
      "int2",
    ];
    const g = graph(`(${names.map((n, i) => `${n}[1] v${i}`).join(", ")}) => (y)`, "y = Identity (v0)");
    assert.deepEqual(
      g.input.map((i) => tensorType(i.type).elemType),
      names.map((_, i) => i + 1),
    );
  });

  it("reads the type constructors", () => {
    const g = graph(
      "(seq(float[N]) s, map(int64, seq(string)) m, optional(float) o, sparse_tensor(float[2, 3]) sp, opaque() o0, opaque(a.b) o1, opaque(d.e, n) o2) => (y)",
      "y = Identity (s)",
    );
    const [s, m, o, sp, o0, o1, o2] = g.input.map((i) => i.type!);
    assert.equal(s!.value.case, "sequenceType");
    assert.equal(m!.value.case === "mapType" && m!.value.value.keyType, DT.INT64);
    assert.equal(m!.value.case === "mapType" && m!.value.value.valueType?.value.case, "sequenceType");
    assert.equal(o!.value.case, "optionalType");
    assert.equal(sp!.value.case === "sparseTensorType" && sp!.value.value.shape?.dim.length, 2);
    assert.deepEqual(o0!.value.case === "opaqueType" && [o0!.value.value.domain, o0!.value.value.name], ["", ""]);
    assert.deepEqual(o1!.value.case === "opaqueType" && o1!.value.value.name, "a.b");
    assert.deepEqual(o2!.value.case === "opaqueType" && [o2!.value.value.domain, o2!.value.value.name], ["d.e", "n"]);
  });
});

describe("lowering: attribute kinds (syntax doc §3)", () => {
  it("converts an integer under ': float' to FLOAT and sets only f", () => {
    const a = attr("x: float = 2");
    assert.equal(a.type, AT.FLOAT);
    assert.equal(a.f, 2);
    assert.ok(!isFieldSet(a, AttributeProtoSchema.field.i));
    assert.equal(Object.is(attr("x: float = -0").f, -0), true);
  });

  it("types lists by annotation, else by the first element", () => {
    assert.deepEqual([attr("x: floats = [1, 2]").type, attr("x: floats = [1, 2]").floats], [AT.FLOATS, [1, 2]]);
    assert.deepEqual([attr("x = [0.5, 1]").type, attr("x = [0.5, 1]").floats], [AT.FLOATS, [0.5, 1]]);
    assert.deepEqual([attr("x = [1, 2]").type, attr("x = [1, 2]").ints], [AT.INTS, [1n, 2n]]);
    assert.deepEqual(
      attr('x = ["a", "b"]').strings.map((s) => new TextDecoder().decode(s)),
      ["a", "b"],
    );
    assert.deepEqual([attr("x: ints = []").type, attr("x: ints = []").ints], [AT.INTS, []]);
    assert.equal(attr("x: int = [1, 2]").type, AT.INTS, "a singular annotation is widened, as 1.23 does");
  });

  it("reads bare types as TYPE_PROTO and typed data as TENSOR", () => {
    const tp = attr("t = float16[N]");
    assert.equal(tp.type, AT.TYPE_PROTO);
    assert.equal(tensorType(tp.tp).elemType, DT.FLOAT16);
    assert.equal(attr("t: type_proto = seq(float)").tp?.value.case, "sequenceType");
    const t = attr("v = float[2] {1, 2}");
    assert.equal(t.type, AT.TENSOR);
    assert.equal(t.t!.name, "", "the tensor name is always set");
    assert.deepEqual(t.t!.floatData, [1, 2]);
    assert.equal(attr("v = float[2] w = {1, 2}").t!.name, "w");
  });

  it("reads word-form floats", () => {
    assert.equal(attr("x = inf").f, Infinity);
    assert.equal(attr("x = -Infinity").f, -Infinity);
    assert.ok(Number.isNaN(attr("x = NaN").f));
    assert.equal(attr("x = nan").type, AT.FLOAT);
  });

  it("reads references with and without a type", () => {
    const a = attr("to: int = @dtype");
    assert.deepEqual([a.type, a.refAttrName], [AT.INT, "dtype"]);
    const b = attr('x = @"quoted name"');
    assert.equal(b.refAttrName, "quoted name");
    assert.ok(!isFieldSet(b, AttributeProtoSchema.field.type));
  });

  it("DEVIATION: keeps lists of tensors, graphs and types (1.23.1 drops the elements)", () => {
    const t = attr("ts: tensors = [float[1] {1}, int64 {2}]");
    assert.deepEqual([t.type, t.tensors.length, t.tensors[1]!.int64Data], [AT.TENSORS, 2, [2n]]);
    const g = attr("gs = [a () => (o) { o = Constant <value_int = 1> () }, b () => (o) { o = Constant <value_int = 2> () }]");
    assert.deepEqual([g.type, g.graphs.map((x) => x.name)], [AT.GRAPHS, ["a", "b"]]);
    const tps = attr("tps = [float, seq(int64)]");
    assert.deepEqual([tps.type, tps.typeProtos.length], [AT.TYPE_PROTOS, 2]);
  });

  it("reports kind mismatches and unannotated empty lists", () => {
    const e = (text: string) => errors(`<ir_version: 10>\ng (x) => (y) {\n y = Op <${text}> (x)\n}`).map((d) => d.code);
    assert.deepEqual(e("a: int = 2.5"), ["type-mismatch"]);
    assert.deepEqual(e("a = [1, 2.5]"), ["type-mismatch"]);
    assert.deepEqual(e('a = ["a", 1]'), ["type-mismatch"]);
    assert.deepEqual(e("a = []"), ["type-mismatch"]);
    assert.deepEqual(e("a: float = []"), ["type-mismatch"]);
    assert.deepEqual(e("a: ints = 5"), ["type-mismatch"]);
    assert.deepEqual(e("a = 99999999999999999999"), ["int-range"]);
    assert.deepEqual(e("a = 1e40"), ["int-range"]);
  });
});

describe("lowering: tensor data (syntax doc §4)", () => {
  it("stores 16- and 8-bit floats as their bit patterns in int32_data", () => {
    assert.deepEqual(init("float16[3] h = {15360, 49152, 14336}").int32Data, [15360, 49152, 14336]);
    assert.deepEqual(init("bfloat16[1] b = {16256}").int32Data, [16256]);
    assert.deepEqual(init("float8e4m3fn[2] f = {0, 255}").int32Data, [0, 255]);
    assert.deepEqual(init("float8e8m0[1] f = {127}").int32Data, [127]);
  });

  it("DEVIATION: packs 4-bit and 2-bit types as the ONNX spec says (1.23.1 stores one per int32)", () => {
    assert.deepEqual(init("int4[2] p = {1, -3}").int32Data, [0xd1]);
    assert.deepEqual(init("uint4[3] p = {15, 1, 7}").int32Data, [0x1f, 0x07]);
    assert.deepEqual(init("float4e2m1[2] p = {2, 9}").int32Data, [0x92]);
    assert.deepEqual(init("int2[5] p = {1, -2, 0, -1, 1}").int32Data, [0b11001001, 0b01]);
    assert.deepEqual(init("uint2[4] p = {3, 2, 1, 0}").int32Data, [0b00011011]);
  });

  it("stores complex numbers flat, uint64 with wrap-around, strings and specials", () => {
    assert.deepEqual(init("complex64[2] c = {1, 0, 0, -1}").floatData, [1, 0, 0, -1]);
    assert.deepEqual(init("complex128[1] c = {0.1, 2}").doubleData, [0.1, 2]);
    assert.deepEqual(init("uint64[2] u = {18446744073709551615, -1}").uint64Data, [18446744073709551615n, 18446744073709551615n]);
    assert.deepEqual(init("uint32[1] u = {4294967295}").uint64Data, [4294967295n]);
    assert.deepEqual(
      init('string[2] s = {"a\\"b", "é"}').stringData.map((s) => new TextDecoder().decode(s)),
      ['a"b', "é"],
    );
    const f = init("float[4] f = {inf, -inf, nan, 1.4e-45}").floatData;
    assert.deepEqual([f[0], f[1], Number.isNaN(f[2]), f[3]], [Infinity, -Infinity, true, 1.401298464324817e-45]);
    assert.deepEqual(init("int64[1] big = {-9223372036854775808}").int64Data, [-9223372036854775808n]);
  });

  it("reads external data", () => {
    const t = init('float[2] ext = ["location": "w.bin", "offset": "0", "length": "8"]');
    assert.equal(t.dataLocation, TensorProto_DataLocation.EXTERNAL);
    assert.deepEqual(
      t.externalData.map((e) => [e.key, e.value]),
      [
        ["location", "w.bin"],
        ["offset", "0"],
        ["length", "8"],
      ],
    );
    assert.equal(attr('v = float[1] w ["location": "f"]').t!.dataLocation, TensorProto_DataLocation.EXTERNAL);
  });

  it("reports bad literals, ranges and non-static shapes", () => {
    assert.deepEqual(
      graphErrors("<float16[1] h = {1.5}>").map((d) => d.code),
      ["bad-literal"],
    );
    assert.deepEqual(
      graphErrors("<int8[1] h = {2147483648}>").map((d) => d.code),
      ["int-range"],
    );
    assert.deepEqual(
      graphErrors("<int4[1] h = {8}>").map((d) => d.code),
      ["int-range"],
    );
    assert.deepEqual(
      graphErrors("<float[N] w = {1}>").map((d) => d.code),
      ["bad-tensor"],
    );
    assert.deepEqual(
      graphErrors('<int32[1] w = {"a"}>').map((d) => d.code),
      ["bad-literal"],
    );
    assert.deepEqual(
      graphErrors("<string[1] w = {1}>").map((d) => d.code),
      ["bad-literal"],
    );
  });

  it("refuses a tensor whose element count does not match the shape (onnxruntime refuses the model)", () => {
    const r = modelFromText(`<ir_version: 10>\ng () => (y) <float[2, 3] w = {1}> {\n y = Identity (w)\n}`);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.severity, d.code, d.message]),
      [["error", "element-count", "the shape holds 6 values but 1 is written"]],
    );
    assert.equal(r.model, undefined, "no model is made from it");
  });
});

describe("lowering: functions", () => {
  it("splits parameters, collects value infos in order and reads the header", () => {
    const m = model(`<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (float[N] x) => (float[N] y) {
  y = local.Shift <amount = 2.0> (x)
}
<domain: "local", opset_import: ["" : 21], doc_string: "shifts", overload: "v1">
Shift <amount: float = 1.0, mode> (float[N] x) => (y) <float[N] t> {
  a = Constant <value_float: float = @amount> ()
  t = CastLike (a, x)
  y = Add (x, t)
}`);
    const f = m.functions[0]!;
    assert.deepEqual([f.name, f.domain, f.docString, f.overload], ["Shift", "local", "shifts", "v1"]);
    assert.deepEqual(f.attribute, ["mode"]);
    assert.deepEqual(
      f.attributeProto.map((a) => [a.name, a.type, a.f]),
      [["amount", AT.FLOAT, 1]],
    );
    assert.deepEqual(
      f.valueInfo.map((v) => v.name),
      ["x", "t"],
    );
    assert.deepEqual([f.input, f.output], [["x"], ["y"]]);
  });
});
