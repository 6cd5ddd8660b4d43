// A model whose one weight is external data, for the tests and attacks of #22 item 6.
import { create } from "@bufbuild/protobuf";
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, TensorProtoSchema, ValueInfoProtoSchema, type ModelProto } from "../../../proto/src/index.js";

/** y = x + w over float[n], with w stored externally at `location` (offset and length in bytes). */
export function externalAddModel(n: number, location: string, offset = 0, length = n * 4): ModelProto {
  const vi = (name: string) =>
    create(ValueInfoProtoSchema, {
      name,
      type: { value: { case: "tensorType", value: { elemType: 1, shape: { dim: [{ value: { case: "dimValue", value: BigInt(n) } }] } } } },
    });
  return create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [{ domain: "", version: 21n }],
    graph: create(GraphProtoSchema, {
      name: "g",
      node: [create(NodeProtoSchema, { opType: "Add", input: ["x", "w"], output: ["y"] })],
      initializer: [
        create(TensorProtoSchema, {
          name: "w",
          dataType: 1,
          dims: [BigInt(n)],
          dataLocation: 1,
          externalData: [
            { key: "location", value: location },
            { key: "offset", value: String(offset) },
            { key: "length", value: String(length) },
          ],
        }),
      ],
      input: [vi("x")],
      output: [vi("y")],
    }),
  });
}
