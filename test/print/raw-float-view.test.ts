// float32 raw_data is printed from a view of its bytes (no widened copy), and a big field in a
// file the CLI has just read is first moved to a 4-byte boundary so that the view needs no
// copy either. The text must be what the same values give through float_data, the typed path.
import { strict as assert } from "node:assert";
import { create } from "@bufbuild/protobuf";
import {
  GraphProtoSchema,
  ModelProtoSchema,
  OperatorSetIdProtoSchema,
  TensorProtoSchema,
  ValueInfoProtoSchema,
  type ModelProto,
} from "../../proto/src/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";

const FLOAT = 1;

function model(name: string, values: Float32Array, raw: boolean): ModelProto {
  const w = create(TensorProtoSchema, {
    name,
    dims: [BigInt(values.length)],
    dataType: FLOAT,
    ...(raw ? { rawData: new Uint8Array(values.buffer.slice(0)) } : { floatData: [...values] }),
  });
  return create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 18n })],
    graph: create(GraphProtoSchema, { name: "g", initializer: [w], output: [create(ValueInfoProtoSchema, { name })] }),
  });
}

/** Values that stress the float text: signed zeros, subnormals, extremes, infinities, ties. */
function awkwardValues(n: number): Float32Array {
  const v = new Float32Array(n);
  const bits = new Uint32Array(v.buffer);
  const special = [0x80000000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff800000, 0x7f800000, 0x3f800000, 0x33d6bf95];
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    bits[i] = i < special.length ? special[i]! : s & 0x7f7fffff;
  }
  return v;
}

describe("float32 raw data printed from a view of its bytes", () => {
  it("prints what float_data of the same values prints, at every alignment of the bytes", () => {
    const values = awkwardValues(20000); // 80000 bytes: over the size the reader realigns
    const typed = printModel(model("w", values, false)).replace('#@model {"@storage":"raw"}\n', "");
    // Names of 1..4 characters move raw_data through every offset modulo 4 in the encoded file.
    for (const name of ["w", "ww", "www", "wwww"]) {
      const bytes = encodeModel(model(name, values, true));
      const expected = typed.replaceAll(" w ", ` ${name} `).replace("=> (w)", `=> (${name})`);
      const plain = decodeModel(bytes.slice());
      const owned = decodeModel(bytes.slice(), { owned: true });
      const t = owned.graph!.initializer[0]!.rawData;
      assert.equal(t.byteOffset % 4, 0, `${name}: realigned`);
      assert.deepEqual(t, plain.graph!.initializer[0]!.rawData, `${name}: same bytes`);
      for (const m of [plain, owned]) {
        const text = printModel(m);
        assert.equal(text.replace('#@model {"@storage":"raw"}\n', ""), expected, name);
        assert.deepEqual(encodeModel(m), bytes, `${name}: the model is unchanged`);
      }
    }
  });
});
