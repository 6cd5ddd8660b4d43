// The direct model encoder (core/src/io/model-writer.ts) writes exactly the bytes of
// protobuf-es's toBinary: over every test-data model, the official printer's texts lowered
// by our parser, and hand-made messages that reach its corner cases.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  TensorProtoSchema,
  TensorShapeProto_DimensionSchema,
  TypeProtoSchema,
  ValueInfoProtoSchema,
  type ModelProto,
  type TypeProto,
} from "../../proto/src/index.js";
import { decodeModel } from "../../core/src/io/index.js";
import { encodeModelDirect, NeedsGenericEncoder } from "../../core/src/io/model-writer.js";
import { modelFromText } from "../../core/src/text.js";
import { LIGHT, PRINTED, libonnxModelDirs, nodeTestDirs, requireDir } from "../helpers/paths.js";

function assertSame(model: ModelProto, what: string): void {
  const direct = Buffer.from(encodeModelDirect(model));
  const generic = Buffer.from(toBinary(ModelProtoSchema, model));
  assert.ok(direct.equals(generic), `${what}: direct encoding differs from toBinary (${direct.length} vs ${generic.length} bytes)`);
}

function assertSameForFiles(files: readonly string[]): void {
  assert.ok(files.length > 0);
  for (const f of files) assertSame(decodeModel(fs.readFileSync(f)), f);
}

describe("direct model encoder", () => {
  it("matches toBinary on every libonnx-testdata model", () => {
    assertSameForFiles(libonnxModelDirs().map((d) => path.join(d, "model.onnx")));
  });

  it("matches toBinary on every onnx backend node-test model", () => {
    assertSameForFiles(nodeTestDirs().map((d) => path.join(d, "model.onnx")));
  });

  it("matches toBinary on the light networks", () => {
    const dir = requireDir(LIGHT, "../shared/testdata/light");
    assertSameForFiles(fs.readdirSync(dir).filter((f) => f.endsWith(".onnx")).map((f) => path.join(dir, f)));
  });

  it("matches toBinary on the printed corpus, decoded and as lowered from its text", () => {
    const dir = requireDir(PRINTED, "../shared/onnx/printed");
    const texts = fs.readdirSync(dir).filter((f) => f.endsWith(".onnxtxt"));
    assert.ok(texts.length > 0);
    let lowered = 0;
    for (const t of texts) {
      const parsed = path.join(dir, t.replace(/\.onnxtxt$/, ".parsed.onnx"));
      if (fs.existsSync(parsed)) assertSame(decodeModel(fs.readFileSync(parsed)), parsed);
      const r = modelFromText(fs.readFileSync(path.join(dir, t), "utf8"), { sourceMap: false });
      if (r.model) {
        assertSame(r.model, t);
        lowered++;
      }
    }
    assert.ok(lowered > texts.length / 2, `only ${lowered} of ${texts.length} texts lowered`);
  });

  it("matches toBinary on corner cases: negative and large integers, non-ASCII and long strings, every type kind, denotations, metadata, unknown fields", () => {
    const long = "x".repeat(300) + "é";
    const tensor = create(TensorProtoSchema, {
      name: "ünïcode\u{1F600}",
      dims: [0n, -1n, 2n ** 40n],
      dataType: 1,
      floatData: Array.from({ length: 100 }, (_, i) => i - 50.5),
      int32Data: [-1, 0, 2147483647, -2147483648],
      int64Data: [-(2n ** 63n), 2n ** 63n - 1n, 0n],
      uint64Data: [2n ** 64n - 1n, 0n],
      doubleData: [Math.PI, -0, Infinity, NaN],
      stringData: [new Uint8Array([0, 255]), new Uint8Array(0)],
      rawData: new Uint8Array(200),
      docString: long,
    });
    const attr = create(AttributeProtoSchema, { name: "a", f: -0, i: -5n, floats: [1.5, NaN], ints: [-1n, 300n], strings: [new Uint8Array([1])], t: tensor, type: 4 });
    const entry = create(StringStringEntryProtoSchema, { key: "k", value: "v" });
    const node = create(NodeProtoSchema, { input: ["", "x"], output: ["y"], name: "n", opType: "Op", domain: "", overload: "o", docString: "d", metadataProps: [entry], attribute: [attr] });
    const dim = (d: bigint | string) => create(TensorShapeProto_DimensionSchema, { value: typeof d === "bigint" ? { case: "dimValue", value: d } : { case: "dimParam", value: d }, denotation: "DATA_BATCH" });
    const tensorType = create(TypeProtoSchema, { value: { case: "tensorType", value: { elemType: 1, shape: { dim: [dim(3n), dim("N"), create(TensorShapeProto_DimensionSchema)] } } }, denotation: "TENSOR" });
    const seqType = create(TypeProtoSchema, { value: { case: "sequenceType", value: { elemType: tensorType } } });
    const mapType = create(TypeProtoSchema, { value: { case: "mapType", value: { keyType: 7, valueType: seqType } } });
    const optType = create(TypeProtoSchema, { value: { case: "optionalType", value: { elemType: mapType } }, denotation: "X" });
    const sparseType = create(TypeProtoSchema, { value: { case: "sparseTensorType", value: { elemType: 1 } } });
    const info = (name: string, type: TypeProto) => create(ValueInfoProtoSchema, { name, type, docString: "doc", metadataProps: [entry] });
    const inner = create(GraphProtoSchema, { name: "inner", node: Array.from({ length: 50 }, () => node) });
    const withGraph = create(AttributeProtoSchema, { name: "body", g: inner, type: 5 });
    const model = create(ModelProtoSchema, {
      irVersion: 10n,
      producerName: "",
      opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 21n })],
      metadataProps: [entry],
      docString: "model doc",
      graph: create(GraphProtoSchema, {
        name: long,
        node: [node, create(NodeProtoSchema, { opType: "Loop", attribute: [withGraph, create(AttributeProtoSchema, { name: "tp", tp: optType, typeProtos: [sparseType, seqType], refAttrName: "r", type: 13 })] })],
        initializer: [tensor],
        input: [info("a", tensorType), info("b", optType)],
        output: [info("c", sparseType)],
        valueInfo: [info("d", mapType)],
        docString: "graph doc",
        metadataProps: [entry],
      }),
    });
    assertSame(model, "corner cases");
    // Unknown fields on a nested message: that message is encoded by protobuf-es, in place.
    const withUnknown = decodeModel(toBinary(ModelProtoSchema, model));
    withUnknown.graph!.node[0]!.$unknown = [{ no: 99, wireType: 0, data: new Uint8Array([7]) }];
    assertSame(withUnknown, "unknown fields");
  });

  it("leaves values protobuf-es refuses to protobuf-es", () => {
    const bad = create(ModelProtoSchema, { graph: create(GraphProtoSchema, { node: [create(NodeProtoSchema, { attribute: [create(AttributeProtoSchema, { f: 1e39 })] })] }) });
    assert.throws(() => encodeModelDirect(bad), NeedsGenericEncoder);
    assert.throws(() => toBinary(ModelProtoSchema, bad), /invalid float32/);
  });
});
