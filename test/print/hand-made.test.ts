// Hand-made models that set every field the text must carry, including the ones the official
// syntax cannot say (they travel in `#@` extension comments). Each must come back byte for byte.
import { strict as assert } from "node:assert";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  AttributeProto_AttributeType as AT,
  AttributeProtoSchema,
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProto_DataType as DT,
  TensorProtoSchema,
  dataTypeInfo,
  TypeProtoSchema,
  ValueInfoProtoSchema,
  type ModelProto,
  type TensorProto,
} from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText } from "../../core/src/text.js";

function roundTrip(model: ModelProto): string {
  const bytes = encodeModel(model);
  const text = printModel(decodeModel(bytes));
  const r = modelFromText(text);
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === "error"),
    [],
    text,
  );
  assert.ok(r.model, text);
  const back = encodeModel(r.model);
  assert.ok(Buffer.compare(Buffer.from(back), Buffer.from(bytes)) === 0, `model changed through text:\n${text}`);
  assert.equal(printModel(r.model), text, "printing is not stable");
  return text;
}

const props = (k: string, v: string) => [{ key: k, value: v }];
const tensorType = (elem: number, dims: (number | string)[] | undefined) =>
  create(TypeProtoSchema, {
    value: {
      case: "tensorType",
      value: {
        elemType: elem,
        ...(dims && {
          shape: {
            dim: dims.map((d) =>
              typeof d === "number" ? { value: { case: "dimValue" as const, value: BigInt(d) } } : { value: { case: "dimParam" as const, value: d } },
            ),
          },
        }),
      },
    },
  });

function model(graph: MessageInitShape<typeof GraphProtoSchema>, extra: MessageInitShape<typeof ModelProtoSchema> = {}): ModelProto {
  const m = create(ModelProtoSchema, extra);
  m.irVersion = 10n;
  m.opsetImport = [create(OperatorSetIdProtoSchema, { domain: "", version: 21n })];
  m.graph = create(GraphProtoSchema, { name: "g", ...graph });
  return m;
}

const f32 = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0]!;

describe("hand-made models through text", () => {
  it("keeps doc strings and metadata everywhere, and an absent ir_version", () => {
    const m = create(ModelProtoSchema, {
      opsetImport: [{ domain: "", version: 21n }],
      docString: "model doc",
      metadataProps: props("license", "MIT"),
      graph: create(GraphProtoSchema, {
        name: "g",
        docString: "graph doc\nwith a newline",
        metadataProps: props("g", "1"),
        input: [create(ValueInfoProtoSchema, { name: "x", type: tensorType(DT.FLOAT, ["N"]), docString: "input doc", metadataProps: props("vi", "2") })],
        output: [create(ValueInfoProtoSchema, { name: "y", type: tensorType(DT.FLOAT, ["N"]) })],
        node: [
          create(NodeProtoSchema, {
            name: "relu",
            opType: "Relu",
            input: ["x"],
            output: ["y"],
            docString: "node doc",
            metadataProps: props("n", "3"),
            attribute: [create(AttributeProtoSchema, { name: "unused", type: AT.INT, i: 1n, docString: "attr doc" })],
          }),
        ],
      }),
      functions: [
        create(FunctionProtoSchema, {
          name: "F",
          domain: "local",
          docString: "function doc",
          metadataProps: props("f", "4"),
          input: ["a"],
          output: ["b"],
          attribute: ["mode"],
          attributeProto: [create(AttributeProtoSchema, { name: "alpha", type: AT.FLOAT, f: 0.5 })],
          valueInfo: [create(ValueInfoProtoSchema, { name: "a", type: tensorType(DT.FLOAT, []) })],
          opsetImport: [{ domain: "", version: 21n }],
          node: [
            create(NodeProtoSchema, {
              opType: "Constant",
              domain: "",
              output: ["c"],
              attribute: [create(AttributeProtoSchema, { name: "value_float", type: AT.FLOAT, refAttrName: "alpha" })],
            }),
            create(NodeProtoSchema, { opType: "Mul", domain: "", input: ["a", "c"], output: ["b"] }),
          ],
        }),
      ],
    });
    const text = roundTrip(m);
    assert.match(text, /#@graph \{"doc_string":"graph doc\\nwith a newline"/);
    assert.doesNotMatch(text, /ir_version/);
  });

  it("keeps training info, sparse initializers, quantization annotations and denotations", () => {
    const values = create(TensorProtoSchema, { name: "sp", dataType: DT.FLOAT, dims: [2n], floatData: [1, 2] });
    const indices = create(TensorProtoSchema, { name: "sp_i", dataType: DT.INT64, dims: [2n], int64Data: [0n, 3n] });
    const type = tensorType(DT.FLOAT, [4]);
    type.denotation = "IMAGE";
    if (type.value.case === "tensorType") type.value.value.shape!.dim[0]!.denotation = "DATA_BATCH";
    const m = model(
      {
        input: [create(ValueInfoProtoSchema, { name: "x", type })],
        output: [create(ValueInfoProtoSchema, { name: "x" })],
        sparseInitializer: [{ values, indices, dims: [4n] }],
        quantizationAnnotation: [{ tensorName: "x", quantParameterTensorNames: props("SCALE_TENSOR", "s") }],
      },
      { trainingInfo: [{ algorithm: create(GraphProtoSchema, { name: "train" }), updateBinding: props("w", "w_new") }] },
    );
    roundTrip(m);
  });

  it("keeps every element type, in typed fields and in raw_data", () => {
    const tensors: TensorProto[] = [];
    const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
    type Data = Partial<Pick<TensorProto, "floatData" | "doubleData" | "int32Data" | "int64Data" | "uint64Data" | "stringData">>;
    const typed: [DT, Data][] = [
      [DT.FLOAT, { floatData: [1.5, -0, Infinity, -Infinity, f32(1), f32(0x00000001), f32(0x7fc00001), f32(0xffc00000), 0.1] }],
      [DT.DOUBLE, { doubleData: [0.1, -0, 5e-324, Number.NaN, 1e300] }],
      [DT.INT64, { int64Data: [-(2n ** 63n), 2n ** 63n - 1n] }],
      [DT.UINT64, { uint64Data: [2n ** 64n - 1n, 0n] }],
      [DT.UINT32, { uint64Data: [4294967295n] }],
      [DT.INT32, { int32Data: [-2147483648, 7] }],
      [DT.BOOL, { int32Data: [0, 1] }],
      [DT.FLOAT16, { int32Data: [15360, 49152] }],
      [DT.BFLOAT16, { int32Data: [16256] }],
      [DT.FLOAT8E4M3FN, { int32Data: [0x7e] }],
      [DT.FLOAT8E5M2FNUZ, { int32Data: [0x80] }],
      [DT.FLOAT8E8M0, { int32Data: [127] }],
      [DT.INT4, { int32Data: [0xd1] }],
      [DT.UINT4, { int32Data: [0x21] }],
      [DT.FLOAT4E2M1, { int32Data: [0x7f] }],
      [DT.INT2, { int32Data: [0xe4] }],
      [DT.UINT2, { int32Data: [0x1b] }],
      [DT.FLOAT6E2M3, { int32Data: [63] }],
      [DT.COMPLEX64, { floatData: [1, 0, 0, -1] }],
      [DT.COMPLEX128, { doubleData: [1.25, -2] }],
      [DT.STRING, { stringData: [new TextEncoder().encode('a"b\\c\n'), new TextEncoder().encode("")] }],
    ];
    // Each tensor's shape holds what its data stores (a tensor that does not fill its shape is refused: see below).
    const elements = (dt: DT, stored: number): bigint => {
      const bits = dataTypeInfo(dt)!.bits;
      if (dt === DT.COMPLEX64 || dt === DT.COMPLEX128) return BigInt(stored / 2);
      return BigInt(bits > 0 && bits < 8 ? Math.floor((stored * 8) / bits) : stored);
    };
    // 6-bit types are written one per byte in the text; n bytes of them hold n elements.
    const rawElements = (dt: DT, n: number): bigint => BigInt(dataTypeInfo(dt)!.bits === 6 ? n : Math.floor((n * 8) / dataTypeInfo(dt)!.bits));
    typed.forEach(([dt, data], i) => {
      const stored = Math.max(...Object.values(data).map((v) => (v as unknown[]).length));
      tensors.push(Object.assign(create(TensorProtoSchema, { name: `t${i}`, dataType: dt, dims: [elements(dt, stored)] }), data));
    });
    const sizes: [DT, number][] = [
      [DT.FLOAT, 16],
      [DT.DOUBLE, 16],
      [DT.INT8, 3],
      [DT.UINT8, 3],
      [DT.INT16, 4],
      [DT.UINT16, 4],
      [DT.INT32, 8],
      [DT.INT64, 8],
      [DT.UINT32, 8],
      [DT.UINT64, 8],
      [DT.BOOL, 2],
      [DT.FLOAT16, 6],
      [DT.BFLOAT16, 4],
      [DT.FLOAT8E4M3FNUZ, 3],
      [DT.FLOAT8E5M2, 3],
      [DT.INT4, 2],
      [DT.UINT4, 2],
      [DT.FLOAT4E2M1, 2],
      [DT.INT2, 1],
      [DT.UINT2, 1],
      [DT.FLOAT6E3M2, 3],
      [DT.COMPLEX64, 16],
      [DT.COMPLEX128, 32],
    ];
    sizes.forEach(([dt, n], i) => tensors.push(create(TensorProtoSchema, { name: `r${i}`, dataType: dt, dims: [rawElements(dt, n)], rawData: bytes(n) })));
    // A float NaN payload and -0 in raw_data, and an empty raw tensor.
    tensors.push(create(TensorProtoSchema, { name: "rnan", dataType: DT.FLOAT, dims: [2n], rawData: Uint8Array.from([1, 0, 0xc0, 0x7f, 0, 0, 0, 0x80]) }));
    tensors.push(create(TensorProtoSchema, { name: "empty", dataType: DT.FLOAT, dims: [0n], rawData: new Uint8Array(0) }));
    tensors.push(
      create(TensorProtoSchema, {
        name: "seg",
        dataType: DT.INT64,
        dims: [1n],
        int64Data: [1n],
        segment: { begin: 0n, end: 1n },
        docString: "t doc",
        metadataProps: props("t", "5"),
      }),
    );
    tensors.push(
      create(TensorProtoSchema, {
        name: "ext",
        dataType: DT.FLOAT,
        dims: [4n],
        dataLocation: 1,
        externalData: [
          { key: "location", value: "weights.bin" },
          { key: "offset", value: "0" },
          { key: "length", value: "16" },
        ],
      }),
    );
    const m = model({ initializer: tensors, output: tensors.map((t) => create(ValueInfoProtoSchema, { name: t.name })) });
    const text = roundTrip(m);
    assert.match(text, /float\[4\] ext = \["location": "weights.bin", "offset": "0", "length": "16"\]/);
    assert.match(text, /"@nan":\{"6":"7fc00001"/);
  });

  it("refuses to read back a tensor whose data does not fill its shape (onnxruntime would refuse the model)", () => {
    const odd = create(TensorProtoSchema, { name: "odd", dataType: DT.FLOAT, dims: [1n], rawData: Uint8Array.from([1, 2, 3]) });
    const text = printModel(decodeModel(encodeModel(model({ initializer: [odd], output: [create(ValueInfoProtoSchema, { name: "odd" })] }))));
    assert.match(text, /"raw_data":"AQID"/, "the printed text keeps the bytes");
    const r = modelFromText(text);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.severity, d.code]),
      [["error", "element-count"]],
    );
  });

  it("keeps attributes of every kind, references, unset presence and unwritable names", () => {
    const t = create(TensorProtoSchema, { dataType: DT.FLOAT, dims: [2n], floatData: [1, 2] });
    const sub = create(GraphProtoSchema, { name: "then-branch", output: [create(ValueInfoProtoSchema, { name: "o", type: tensorType(DT.FLOAT, [2]) })] });
    const attrs = [
      create(AttributeProtoSchema, { name: "f", type: AT.FLOAT, f: 2 }),
      create(AttributeProtoSchema, { name: "fnan", type: AT.FLOAT, f: f32(0x7fc00005) }),
      create(AttributeProtoSchema, { name: "i", type: AT.INT, i: -3n }),
      create(AttributeProtoSchema, { name: "s", type: AT.STRING, s: new TextEncoder().encode("text") }),
      create(AttributeProtoSchema, { name: "sbin", type: AT.STRING, s: Uint8Array.from([0xff, 0xfe]) }),
      create(AttributeProtoSchema, { name: "t", type: AT.TENSOR, t }),
      create(AttributeProtoSchema, {
        name: "named_t",
        type: AT.TENSOR,
        t: create(TensorProtoSchema, { name: "my.t", dataType: DT.INT64, dims: [], int64Data: [5n] }),
      }),
      create(AttributeProtoSchema, { name: "g", type: AT.GRAPH, g: sub }),
      create(AttributeProtoSchema, { name: "fs", type: AT.FLOATS, floats: [1, 2.5] }),
      create(AttributeProtoSchema, { name: "is", type: AT.INTS, ints: [] }),
      create(AttributeProtoSchema, { name: "ss", type: AT.STRINGS, strings: [] }),
      create(AttributeProtoSchema, { name: "ts", type: AT.TENSORS, tensors: [t, t] }),
      create(AttributeProtoSchema, { name: "gs", type: AT.GRAPHS, graphs: [create(GraphProtoSchema, { name: "a" })] }),
      create(AttributeProtoSchema, { name: "tp", type: AT.TYPE_PROTO, tp: tensorType(DT.FLOAT16, ["N", 3]) }),
      create(AttributeProtoSchema, { name: "tps", type: AT.TYPE_PROTOS, typeProtos: [tensorType(DT.INT8, [])] }),
      create(AttributeProtoSchema, {
        name: "sp",
        type: AT.SPARSE_TENSOR,
        sparseTensor: { values: t, indices: create(TensorProtoSchema, { dataType: DT.INT64, dims: [2n], int64Data: [0n, 1n] }), dims: [4n] },
      }),
      create(AttributeProtoSchema, { name: "ref", refAttrName: "outer" }),
      create(AttributeProtoSchema, { name: "bad-name", type: AT.INT, i: 1n }),
      create(AttributeProtoSchema, { name: "untyped", i: 4n }),
    ];
    const m = model({
      node: [
        create(NodeProtoSchema, { opType: "Custom", domain: "my-domain", input: ["", "x"], output: ["y", ""], attribute: attrs, overload: "" }),
        create(NodeProtoSchema, { opType: "Relu", input: ["y"], output: ["z"] }),
        create(NodeProtoSchema, { opType: "Relu", domain: "", input: ["z"], output: ["w"], name: "" }),
        create(NodeProtoSchema, { opType: "Op", domain: "com.acme", input: ["float"], output: ["seq"], overload: "v2" }),
      ],
    });
    roundTrip(m);
  });

  it("prints a model the official syntax can fully express without extension comments", () => {
    const m = model({
      input: [create(ValueInfoProtoSchema, { name: "x", type: tensorType(DT.FLOAT, ["N", 4]) })],
      output: [create(ValueInfoProtoSchema, { name: "y", type: tensorType(DT.FLOAT, ["N", 4]) })],
      initializer: [create(TensorProtoSchema, { name: "b", dataType: DT.FLOAT, dims: [4n], floatData: [0.1, 0.2, 0.3, 0.4] })],
      node: [create(NodeProtoSchema, { opType: "Add", domain: "", input: ["x", "b"], output: ["y"], attribute: [] })],
    });
    const text = roundTrip(m);
    assert.doesNotMatch(text, /#/);
    assert.match(text, /float\[4\] b = \{0\.1, 0\.2, 0\.3, 0\.4\}/);
  });
});
