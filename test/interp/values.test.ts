// TensorProto and value-message decoding and encoding: raw and typed fields, packed int4,
// strings, sequences, maps and optionals; plus .npy reading.
import { strict as assert } from "node:assert";
import { create } from "@bufbuild/protobuf";
import { TensorProtoSchema, TensorProto_DataType as DT } from "../../proto/src/index.js";
import { parseNpy, tensor, tensorFromProto, tensorToProto, valueFromProto, valueToProto, type Value } from "../../core/src/interp/index.js";

function npy(descr: string, shape: number[], body: Uint8Array, fortran = false): Uint8Array {
  let header = `{'descr': '${descr}', 'fortran_order': ${fortran ? "True" : "False"}, 'shape': (${shape.join(", ")}${shape.length === 1 ? "," : ""}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += " ";
  header += "\n";
  const out = new Uint8Array(10 + header.length + body.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(body, 10 + header.length);
  return out;
}

describe("interpreter values", () => {
  it("reads typed fields and raw_data alike", () => {
    const typed = tensorFromProto(create(TensorProtoSchema, { dataType: DT.FLOAT, dims: [2n], floatData: [1.5, -2] }));
    const raw = tensorFromProto(tensorToProto(typed));
    assert.deepEqual(Array.from(raw.data as Float32Array), [1.5, -2]);
    const i64 = tensorFromProto(create(TensorProtoSchema, { dataType: DT.INT64, dims: [2n], int64Data: [-(2n ** 62n), 7n] }));
    assert.deepEqual(Array.from(i64.data as BigInt64Array), [-(2n ** 62n), 7n]);
    const f16 = tensorFromProto(create(TensorProtoSchema, { dataType: DT.FLOAT16, dims: [1n], int32Data: [0x3c00] }));
    assert.equal((f16.data as Uint16Array)[0], 0x3c00);
  });

  it("packs and unpacks int4 two per byte, low nibble first", () => {
    const t = tensor(DT.INT4, [3], Int8Array.of(-8, 7, -1));
    const p = tensorToProto(t);
    assert.deepEqual(Array.from(p.rawData), [0x78, 0x0f]);
    assert.deepEqual(Array.from(tensorFromProto(p).data as Int8Array), [-8, 7, -1]);
  });

  it("rejects raw_data of the wrong size with a message", () => {
    const p = create(TensorProtoSchema, { name: "w", dataType: DT.FLOAT, dims: [3n], rawData: new Uint8Array(8) });
    assert.throws(() => tensorFromProto(p), /tensor 'w': raw_data holds 8 bytes, expected 12/);
  });

  it("round-trips strings, sequences, maps and optionals through their messages", () => {
    const values: Value[] = [
      tensor(DT.STRING, [2], ["a", "ü"]),
      { kind: "sequence", items: [tensor(DT.INT32, [1], Int32Array.of(4)), tensor(DT.INT32, [2], Int32Array.of(5, 6))] },
      {
        kind: "map",
        keyType: DT.INT64,
        keys: [1n, 2n],
        values: { kind: "sequence", items: [tensor(DT.FLOAT, [], Float32Array.of(1)), tensor(DT.FLOAT, [], Float32Array.of(2))] },
      },
      { kind: "optional", value: tensor(DT.DOUBLE, [1], Float64Array.of(0.5)) },
      { kind: "optional", value: undefined },
    ];
    for (const v of values) assert.deepEqual(valueFromProto(valueToProto(v)), v);
  });

  it("reads .npy files: little and big endian, Fortran order, unicode", () => {
    const f4 = new Uint8Array(Float32Array.of(1, 2, 3, 4, 5, 6).buffer);
    const c = parseNpy(npy("<f4", [2, 3], f4));
    assert.deepEqual(c.dims, [2, 3]);
    assert.deepEqual(Array.from(c.data as Float32Array), [1, 2, 3, 4, 5, 6]);
    const f = parseNpy(npy("<f4", [2, 3], f4, true));
    assert.deepEqual(Array.from(f.data as Float32Array), [1, 3, 5, 2, 4, 6]);
    const be = new Uint8Array(8);
    new DataView(be.buffer).setBigInt64(0, -5n, false);
    assert.deepEqual(Array.from(parseNpy(npy(">i8", [1], be)).data as BigInt64Array), [-5n]);
    const u = new Uint8Array(16);
    const dv = new DataView(u.buffer);
    [0x68, 0x69].forEach((cp, i) => dv.setUint32(i * 4, cp, true));
    dv.setUint32(8, 0x1f600, true);
    assert.deepEqual(parseNpy(npy("<U2", [2], u)).data, ["hi", "😀"]);
    assert.throws(() => parseNpy(new Uint8Array(4)), /not a \.npy file/);
  });
});
