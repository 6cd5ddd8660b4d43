// Big raw_data becomes a tensor without a copy (a gigabyte of external weights is held once),
// small raw_data is copied; either way the elements are the bytes' little-endian values.
import { strict as assert } from "node:assert";
import { create } from "@bufbuild/protobuf";
import { tensorFromProto } from "../../core/src/interp/index.js";
import { TensorProtoSchema, TensorProto_DataType } from "../../proto/src/index.js";

function bufferOf(data: unknown): ArrayBufferLike {
  return (data as Float32Array).buffer;
}

function rawTensor(values: Float32Array, offset: number) {
  const bytes = new Uint8Array(values.byteLength + offset);
  bytes.set(new Uint8Array(values.buffer), offset);
  const rawData = bytes.subarray(offset);
  return { rawData, proto: create(TensorProtoSchema, { dims: [BigInt(values.length)], dataType: TensorProto_DataType.FLOAT, rawData }) };
}

describe("interp: raw_data without a copy", () => {
  it("views big aligned raw_data and copies small or unaligned raw_data", () => {
    const big = Float32Array.from({ length: 1 << 16 }, (_, i) => Math.sin(i));
    const aligned = rawTensor(big, 8);
    const t = tensorFromProto(aligned.proto);
    assert.equal(bufferOf(t.data), aligned.rawData.buffer, "the tensor views the message's bytes");
    // the DataView reading is the oracle for the element values
    const dv = new DataView(aligned.rawData.buffer, aligned.rawData.byteOffset);
    for (const i of [0, 1, 12345, big.length - 1]) assert.equal(t.data[i], dv.getFloat32(i * 4, true));
    const odd = rawTensor(big, 1);
    const u = tensorFromProto(odd.proto);
    assert.notEqual(bufferOf(u.data), odd.rawData.buffer);
    assert.deepEqual(Array.from(u.data as Float32Array), Array.from(big));
    const small = rawTensor(Float32Array.of(1, 2, 3), 0);
    assert.notEqual(bufferOf(tensorFromProto(small.proto).data), small.rawData.buffer);
  });
});
