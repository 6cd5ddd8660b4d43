// Fields this binding does not know (from a newer ONNX) survive decode and encode.
import { strict as assert } from "node:assert";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { create, toBinary } from "@bufbuild/protobuf";
import { GraphProtoSchema } from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";

describe("unknown fields", () => {
  it("survive a round trip, at the top level and nested", () => {
    const graph = toBinary(GraphProtoSchema, create(GraphProtoSchema, { name: "g" }));
    const nested = new BinaryWriter().raw(graph).tag(99, WireType.Varint).uint64(7n).finish();
    const bytes = new BinaryWriter()
      .tag(1, WireType.Varint)
      .int64(10n)
      .tag(7, WireType.LengthDelimited)
      .bytes(nested)
      .tag(500, WireType.LengthDelimited)
      .string("from the future")
      .finish();
    const model = decodeModel(bytes);
    assert.equal(model.irVersion, 10n);
    assert.equal(model.graph?.name, "g");
    assert.deepEqual(Buffer.from(encodeModel(model)), Buffer.from(bytes));
  });
});
