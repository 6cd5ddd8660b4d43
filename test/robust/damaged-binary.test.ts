// Damaged binaries get one clear error (an OnnxtxtError naming the byte and the field), never
// another exception, never a read past the buffer, never an allocation the file cannot back.
import { strict as assert } from "node:assert";
import { create, toBinary } from "@bufbuild/protobuf";
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, TensorProtoSchema } from "../../proto/src/index.js";
import { checkModel } from "../../core/src/check/index.js";
import { checkWire, decodeModel, decodeValue, encodeModel, MAX_MESSAGE_DEPTH, OnnxtxtError, WireError } from "../../core/src/io/index.js";
import { parseNpy, tensorFromProto } from "../../core/src/interp/index.js";
import { binaryCorpus } from "./harness/corpus.js";
import { mutateBytes } from "./harness/mutate-bytes.js";
import { Rng } from "./harness/rng.js";

/** The error decodeModel throws, asserting it is a one-line OnnxtxtError. */
function decodeError(bytes: Uint8Array): string {
  try {
    decodeModel(bytes);
  } catch (e) {
    assert.ok(e instanceof OnnxtxtError, `not an OnnxtxtError: ${String(e)}`);
    assert.ok(!e.message.includes("\n"), `multi-line message: ${e.message}`);
    return e.message;
  }
  assert.fail("decoded without an error");
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function tag(field: number, wireType: number): number[] {
  return varint(field * 8 + wireType);
}

const GRAPH = 7; // ModelProto.graph
const NODE = 1; // GraphProto.node
const ATTRIBUTE = 5; // NodeProto.attribute
const ATTR_G = 6; // AttributeProto.g

describe("damaged binaries", () => {
  const models = binaryCorpus(60);

  it("every truncation of a model is either a clean error or a valid prefix", () => {
    for (const model of models.slice(0, 20)) {
      for (let cut = 0; cut < model.length; cut += Math.max(1, Math.floor(model.length / 40))) {
        const bytes = model.subarray(0, cut);
        try {
          decodeModel(bytes);
        } catch (e) {
          assert.ok(e instanceof OnnxtxtError, `cut at ${cut}: ${String(e)}`);
          assert.match(e.message, /^not a valid ONNX model: .*\(at byte \d+/);
        }
      }
    }
  });

  it("seeded bit flips, overwrites and inserted huge varints: a clean error, or a model the checker handles", () => {
    const rng = new Rng(99);
    let errors = 0;
    for (let i = 0; i < 1500; i++) {
      const bytes = mutateBytes(models[i % models.length]!, rng);
      let model;
      try {
        model = decodeModel(bytes);
      } catch (e) {
        assert.ok(e instanceof OnnxtxtError, `iteration ${i}: ${String(e)}`);
        errors++;
        continue;
      }
      for (const d of checkModel(model)) assert.ok(d.where || d.span, `iteration ${i}: unlocated ${d.code}: ${d.message}`);
    }
    assert.ok(errors > 300, `only ${errors} of 1500 mutations were refused; the mutator lost its teeth`);
  });

  it("a length far beyond the file names the field and the byte", () => {
    const m = decodeError(new Uint8Array([...tag(GRAPH, 2), ...varint(2 ** 31), ...tag(NODE, 2), 0]));
    assert.match(m, /length 2147483648 runs past the end of the file \(2 bytes left\) \(at byte 1, in graph\)/);
  });

  it("a nested length beyond its enclosing message is refused, even when the file is long enough", () => {
    const node = [...tag(NODE, 2), ...varint(50), ...new Array<number>(10).fill(0)];
    const graph = [...tag(GRAPH, 2), ...varint(node.length), ...node, ...new Array<number>(60).fill(0)];
    assert.match(decodeError(new Uint8Array(graph)), /runs past the end of the enclosing message .*in graph\.node\[0\]/);
  });

  it("the path counts the elements before the damaged one, whatever fields lie between", () => {
    const goodNode = [...tag(NODE, 2), 2, ...tag(4, 2), 0];
    const badAttribute = [...tag(ATTRIBUTE, 2), 2, ...tag(1, 2), 9]; // a name longer than its attribute
    const goodAttribute = [...tag(ATTRIBUTE, 2), 2, ...tag(1, 2), 0];
    const badNode = [...tag(3, 2), 0, ...goodAttribute, ...tag(2, 2), 0, ...goodAttribute, ...badAttribute];
    const body = [...goodNode, ...tag(2, 2), 0, ...goodNode, ...tag(NODE, 2), ...varint(badNode.length), ...badNode];
    const m = decodeError(new Uint8Array([...tag(GRAPH, 2), ...varint(body.length), ...body]));
    assert.match(m, /in graph\.node\[2\]\.attribute\[2\]\.name\)/);
  });

  it("the scan tells whether a float or double holds a NaN whose bits the decoder may lose", () => {
    const f32 = (bits: number) => [bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, bits >>> 24];
    const floatData = (...words: number[]) => new Uint8Array([...tag(4, 2), words.length * 4, ...words.flatMap(f32)]);
    assert.equal(checkWire(TensorProtoSchema, floatData(0x3f800000, 0x7fc00000)).oddNans, false);
    assert.equal(checkWire(TensorProtoSchema, floatData(0x3f800000, 0x7f800001)).oddNans, true);
    assert.equal(checkWire(TensorProtoSchema, floatData(0xffc00000)).oddNans, true);
    // raw_data is bytes, kept as they are: no NaN there needs recording
    assert.equal(checkWire(TensorProtoSchema, new Uint8Array([...tag(9, 2), 4, ...f32(0x7f800001)])).oddNans, false);
    const double = (hi: number, lo: number) => new Uint8Array([...tag(10, 2), 8, ...f32(lo), ...f32(hi)]);
    assert.equal(checkWire(TensorProtoSchema, double(0x7ff80000, 0)).oddNans, false);
    assert.equal(checkWire(TensorProtoSchema, double(0x7ff80000, 1)).oddNans, true);
    assert.equal(checkWire(TensorProtoSchema, double(0x7ff00000, 0)).oddNans, false); // infinity
    // an attribute's single float, written as fixed32
    const attribute = [...tag(2, 5), ...f32(0x7fa00000)];
    const node = [...tag(ATTRIBUTE, 2), attribute.length, ...attribute];
    const graph = [...tag(NODE, 2), node.length, ...node];
    assert.equal(checkWire(ModelProtoSchema, new Uint8Array([...tag(GRAPH, 2), graph.length, ...graph])).oddNans, true);
  });

  it("huge packed and bytes lengths in a TensorProto do not allocate", () => {
    for (const field of [1, 4, 5, 7, 9, 10]) {
      // dims, float_data, int32_data, int64_data, raw_data, double_data: a 4 GiB claim in 8 bytes
      const bytes = new Uint8Array([...tag(field, 2), ...varint(2 ** 32 - 1), 1, 2]);
      assert.throws(
        () => decodeValue(bytes, "tensor"),
        (e: unknown) => e instanceof OnnxtxtError && /runs past the end of the file/.test(e.message),
      );
    }
  });

  it("cut-off varints, invalid wire types and field numbers, mismatched wire types", () => {
    assert.match(decodeError(new Uint8Array([...tag(1, 0), 0x80, 0x80])), /a varint value is cut off/);
    assert.match(decodeError(new Uint8Array([...tag(1, 0), ...new Array<number>(11).fill(0xff)])), /longer than 10 bytes/);
    assert.match(decodeError(new Uint8Array([...tag(3, 7)])), /invalid wire type 7/);
    assert.match(decodeError(new Uint8Array([0x00, 0x01])), /invalid field number 0/);
    assert.match(decodeError(new Uint8Array([...tag(GRAPH, 0), 1])), /wire type varint does not fit this field \(expected length-delimited\).*in graph/);
    assert.match(decodeError(new Uint8Array([...tag(99, 5), 1, 2])), /a 4-byte value is cut off.*in #99/);
  });

  it(`nesting deeper than ${MAX_MESSAGE_DEPTH} messages is refused with a short path; just below it decodes and checks`, () => {
    // graph > node > attribute > g > node > attribute > g ... built inside out.
    const nested = (levels: number): Uint8Array => {
      let inner: number[] = [];
      for (let i = 0; i < levels; i++) {
        const node = [
          ...tag(ATTRIBUTE, 2),
          ...varint(inner.length + 2 + varint(inner.length).length - 1),
          ...tag(ATTR_G, 2),
          ...varint(inner.length),
          ...inner,
        ];
        const graph = [...tag(NODE, 2), ...varint(node.length), ...node];
        inner = graph;
      }
      return new Uint8Array([...tag(GRAPH, 2), ...varint(inner.length), ...inner]);
    };
    const deep = decodeError(nested(400));
    assert.match(deep, new RegExp(`nested more than ${MAX_MESSAGE_DEPTH} deep`));
    assert.match(deep, /in graph\.node\[0\]\.attribute\[0\]\.g\.…\d+ more…/);
    assert.ok(deep.length < 300, deep);
    const ok = decodeModel(nested(300));
    assert.ok(ok.graph);
    for (const d of checkModel(ok)) assert.ok(d.where || d.span);
  });

  it("a huge repeated field costs memory in proportion to the file, and decodes", () => {
    const empty = toBinary(NodeProtoSchema, create(NodeProtoSchema, { opType: "Relu" }));
    const graph = create(GraphProtoSchema, { name: "g" });
    for (let i = 0; i < 50_000; i++) graph.node.push(create(NodeProtoSchema, { opType: "Relu" }));
    const bytes = encodeModel(create(ModelProtoSchema, { irVersion: 8n, graph }));
    assert.equal(bytes.length > 50_000 * empty.length, true);
    assert.equal(decodeModel(bytes).graph?.node.length, 50_000);
  });

  it("WireError carries the offset and the path for tools", () => {
    try {
      checkWire(TensorProtoSchema, new Uint8Array([...tag(9, 2), 100]));
      assert.fail("no error");
    } catch (e) {
      assert.ok(e instanceof WireError);
      assert.equal(e.offset, 1);
      assert.equal(e.path, "raw_data");
    }
  });

  it("every model of the corpus passes the scan unchanged", () => {
    for (const m of models) assert.deepEqual(encodeModel(decodeModel(m)).length > 0, true);
  });

  it("a .npy whose header claims more than the file holds is refused before allocating", () => {
    const npy = (descr: string, shape: string, body: number): Uint8Array => {
      let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape}), }`;
      header += " ".repeat((64 - ((10 + header.length + 1) % 64)) % 64) + "\n";
      const bytes = new Uint8Array(10 + header.length + body);
      bytes.set([0x93, ...Buffer.from("NUMPY"), 1, 0, header.length & 0xff, header.length >> 8]);
      bytes.set(Buffer.from(header, "latin1"), 10);
      return bytes;
    };
    assert.throws(
      () => parseNpy(npy("<f8", "1000000, 1000000", 16)),
      (e: unknown) => e instanceof OnnxtxtError && /holds 16 bytes, needs 8000000000000/.test(e.message),
    );
    assert.throws(
      () => parseNpy(npy("<U4", "1000000,", 16)),
      (e: unknown) => e instanceof OnnxtxtError && /holds 16 bytes, needs 16000000/.test(e.message),
    );
    assert.deepEqual(parseNpy(npy("<f4", "2,", 8)).kind, "tensor");
  });

  it("a TensorProto with huge dims and little data is refused before allocating", () => {
    const bytes = toBinary(TensorProtoSchema, create(TensorProtoSchema, { name: "t", dataType: 11, dims: [100000n, 100000n], rawData: new Uint8Array(16) }));
    const value = decodeValue(bytes, "tensor");
    if (value.kind !== "tensor") assert.fail(value.kind);
    const proto = value.value;
    assert.throws(
      () => tensorFromProto(proto),
      (e: unknown) => e instanceof OnnxtxtError && /need 10000000000 elements, but it holds 16 bytes/.test(e.message),
    );
    const empty = create(TensorProtoSchema, { dataType: 1, dims: [0n, 5n] });
    assert.deepEqual(tensorFromProto(empty).dims, [0, 5]);
  });
});
