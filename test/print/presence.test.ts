// Raise's own presence test agrees with the library's isFieldSet on every field of the messages
// it asks about, set and unset, including set-to-default values and oneofs.
import { strict as assert } from "node:assert";
import { create, fromBinary, isFieldSet, toBinary, type DescMessage } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  GraphProtoSchema,
  NodeProtoSchema,
  TensorProtoSchema,
  TensorShapeProto_DimensionSchema,
  TypeProtoSchema,
} from "../../proto/src/index.js";
import { fieldsOf, has } from "../../core/src/raise/presence.js";

function agrees(schema: DescMessage, messages: readonly object[]): void {
  const f = fieldsOf(
    schema,
    schema.fields.map((d) => d.name),
  );
  for (const msg of messages)
    schema.fields.forEach((field, i) => {
      const expected = isFieldSet(msg as never, field);
      assert.equal(
        has(msg as never, f, i),
        expected,
        `${schema.typeName}.${field.name} in ${JSON.stringify(msg, (_, v) => (typeof v === "bigint" ? String(v) : v))}`,
      );
    });
}

describe("raise's field presence", () => {
  it("agrees with isFieldSet, fresh and decoded, set to defaults and not", () => {
    const node = create(NodeProtoSchema, { opType: "Relu", domain: "", input: ["x"], output: ["y"] });
    const attr = create(AttributeProtoSchema, { name: "a", i: 0n, type: 2, refAttrName: "" });
    const tensor = create(TensorProtoSchema, { dataType: 1, dims: [2n], rawData: new Uint8Array(8), name: "" });
    const type = create(TypeProtoSchema, { value: { case: "tensorType", value: { elemType: 1 } } });
    const dim = create(TensorShapeProto_DimensionSchema, { value: { case: "dimValue", value: 0n } });
    const graph = create(GraphProtoSchema, { name: "g", node: [node] });
    const roundTrip = <D extends DescMessage>(s: D, m: object): object => fromBinary(s, toBinary(s, m as never));
    agrees(NodeProtoSchema, [create(NodeProtoSchema), node, roundTrip(NodeProtoSchema, node)]);
    agrees(AttributeProtoSchema, [create(AttributeProtoSchema), attr, roundTrip(AttributeProtoSchema, attr)]);
    agrees(TensorProtoSchema, [create(TensorProtoSchema), tensor, roundTrip(TensorProtoSchema, tensor)]);
    agrees(TypeProtoSchema, [create(TypeProtoSchema), type, roundTrip(TypeProtoSchema, type)]);
    agrees(TensorShapeProto_DimensionSchema, [create(TensorShapeProto_DimensionSchema), dim, roundTrip(TensorShapeProto_DimensionSchema, dim)]);
    agrees(GraphProtoSchema, [create(GraphProtoSchema), graph, roundTrip(GraphProtoSchema, graph)]);
  });
});
