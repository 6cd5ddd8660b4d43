// Messages from messageFactory must behave exactly like create(): same fields, same presence,
// same bytes, before and after fields are set.
import { strict as assert } from "node:assert";
import { create, equals, isFieldSet, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { AttributeProtoSchema, NodeProtoSchema, TypeProtoSchema, ValueInfoProtoSchema } from "../../proto/src/index.js";
import { messageFactory, nodeFactory } from "../../core/src/lower/messages.js";

function same(schema: DescMessage, a: object, b: object): void {
  assert.ok(equals(schema, a as never, b as never));
  assert.deepEqual(toBinary(schema, a as never), toBinary(schema, b as never));
  for (const f of schema.fields) assert.equal(isFieldSet(a as never, f), isFieldSet(b as never, f), f.name);
}

describe("messageFactory", () => {
  for (const schema of [NodeProtoSchema, AttributeProtoSchema, ValueInfoProtoSchema, TypeProtoSchema] as DescMessage[]) {
    it(`builds ${schema.typeName} like create()`, () => {
      const make = messageFactory(schema);
      same(schema, make(), create(schema));
      const a = make() as unknown as Record<string, unknown>;
      const b = create(schema) as unknown as Record<string, unknown>;
      assert.notEqual(make(), make());
      for (const f of schema.fields) {
        if (f.fieldKind === "scalar" && f.scalar === 9 /* string */) {
          a[f.localName] = "";
          b[f.localName] = "";
        }
      }
      same(schema, a, b);
    });
  }

  it("builds NodeProto with the written-out factory like create()", () => {
    const make = nodeFactory();
    const core = () => ({ input: ["x"], output: ["y"], opType: "Relu", domain: "" });
    same(NodeProtoSchema, make(core()), create(NodeProtoSchema, core()));
    const a = make(core());
    const b = create(NodeProtoSchema, core());
    a.name = b.name = "n";
    a.attribute.push(create(AttributeProtoSchema, { name: "alpha", f: 0.5, type: 1 }));
    b.attribute.push(create(AttributeProtoSchema, { name: "alpha", f: 0.5, type: 1 }));
    same(NodeProtoSchema, a, b);
    assert.notEqual(make(core()).attribute, make(core()).attribute);
  });

  it("does not share repeated fields between messages", () => {
    const make = messageFactory(NodeProtoSchema);
    const x = make();
    x.input.push("a");
    assert.deepEqual(make().input, []);
  });
});
