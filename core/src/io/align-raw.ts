// A big raw_data field is moved, inside the buffer its model was decoded from, back to an offset
// its element size divides, so that readers can view it as a Float32Array (or wider) instead of
// copying it. The bytes it moves over are the field's own tag and length, which no decoded field
// refers to. Only for a buffer that the caller owns and does not read again.
import { dataTypeInfo, type ModelProto } from "../../../proto/src/index.js";
import { walkModel } from "../walk.js";

/** Smaller fields are not worth it: a copy of them costs little. */
export const ALIGN_MIN_BYTES = 1 << 16;

function varintLength(n: number): number {
  let length = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 0x80)) length++;
  return length;
}

export function alignRawData(model: ModelProto, owned: Uint8Array): void {
  walkModel(model, {
    tensor(t) {
      const raw = t.rawData;
      if (raw.length < ALIGN_MIN_BYTES || raw.buffer !== owned.buffer) return;
      const bits = dataTypeInfo(t.dataType)?.bits ?? 0;
      const size = bits >= 16 ? Math.min(bits / 8, 8) : 1;
      const shift = raw.byteOffset % size;
      // raw_data is field 9: a one-byte tag, then the length.
      if (shift === 0 || shift > 1 + varintLength(raw.length)) return;
      const at = raw.byteOffset - shift;
      new Uint8Array(raw.buffer).copyWithin(at, raw.byteOffset, raw.byteOffset + raw.length);
      t.rawData = new Uint8Array(raw.buffer, at, raw.length);
    },
  });
}
