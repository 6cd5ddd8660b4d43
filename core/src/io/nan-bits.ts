// Exact bit patterns of NaN elements in float and double fields (TensorProto float_data and
// double_data, AttributeProto f and floats). A JS number cannot be trusted with them: a
// signalling NaN is quieted when a float32 widens to a double, and V8 may canonicalize a NaN
// stored in an array of doubles, depending on the array's state and the JIT. So every NaN
// other than the canonical one is kept here as an integer, beside the message that holds it:
// the binary decoder records them from the wire, the text reader from `@nan`, and the
// encoder writes them back over the bytes the protobuf writer produced.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

type Bits = number | bigint;

/** message -> field number -> element index -> bits (u32 for float, u64 for double). */
const table = new WeakMap<object, Map<number, Map<number, Bits>>>();
/** Whether anything was ever recorded: encoding skips its pass over the bytes otherwise. */
let used = false;

export const CANONICAL_NAN32 = 0x7fc00000;
const CANONICAL_NAN64 = 0x7ff8000000000000n;

function isNan32(bits: number): boolean {
  return (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0;
}

function isNan64(bits: bigint): boolean {
  return (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n && (bits & 0xfffffffffffffn) !== 0n;
}

export function setNanBits(msg: object, field: number, index: number, bits: Bits): void {
  let fields = table.get(msg);
  if (!fields) table.set(msg, (fields = new Map()));
  let byIndex = fields.get(field);
  if (!byIndex) fields.set(field, (byIndex = new Map()));
  byIndex.set(index, bits);
  used = true;
}

/** The recorded bits of one element, if it is a NaN other than the canonical one. */
export function nanBitsAt(msg: object, field: number, index: number): Bits | undefined {
  return table.get(msg)?.get(field)?.get(index);
}

export function nanBitsOf(msg: object, field: number): ReadonlyMap<number, Bits> | undefined {
  return table.get(msg)?.get(field);
}

/** Records the non-canonical NaNs of little-endian float (width 4) or double (width 8) bytes. */
export function recordNans(msg: object, field: number, bytes: Uint8Array, width: 4 | 8): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i * width < bytes.length; i++) {
    if (width === 4) {
      const b = dv.getUint32(i * 4, true);
      if (isNan32(b) && b !== CANONICAL_NAN32) setNanBits(msg, field, i, b);
    } else {
      const b = dv.getBigUint64(i * 8, true);
      if (isNan64(b) && b !== CANONICAL_NAN64) setNanBits(msg, field, i, b);
    }
  }
}

// --- walking the wire format beside the decoded messages ---------------------------------

const byNumber = new WeakMap<DescMessage, Map<number, DescField>>();

function fieldOf(schema: DescMessage, no: number): DescField | undefined {
  let m = byNumber.get(schema);
  if (!m) byNumber.set(schema, (m = new Map(schema.fields.map((f) => [f.number, f]))));
  return m.get(no);
}

function floatWidth(f: DescField): 4 | 8 | undefined {
  const scalar = f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : undefined;
  return scalar === ScalarType.FLOAT ? 4 : scalar === ScalarType.DOUBLE ? 8 : undefined;
}

type Visit = (msg: object, field: number, index: number, offset: number, width: 4 | 8) => void;

function varint(bytes: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[pos++];
    if (b === undefined) throw new Error("truncated varint");
    v += (b & 0x7f) * scale;
    if (b < 0x80) return [v, pos];
    scale *= 128;
  }
}

/** Visits every float/double element of `msg` and its sub-messages, at its place in `bytes`. */
function walk(
  schema: DescMessage,
  msg: object,
  bytes: Uint8Array,
  start: number,
  end: number,
  visit: Visit,
  seen = new Map<object, Map<number, number>>(),
): void {
  // Per message, not per occurrence: a message field written twice merges (its lists append).
  let counters = seen.get(msg);
  if (!counters) seen.set(msg, (counters = new Map()));
  const c = counters;
  const next = (no: number): number => {
    const i = c.get(no) ?? 0;
    c.set(no, i + 1);
    return i;
  };
  const fields = msg as Record<string, unknown>;
  let pos = start;
  while (pos < end) {
    const [tag, p] = varint(bytes, pos);
    pos = p;
    const no = Math.floor(tag / 8);
    const wt = tag % 8;
    const f = fieldOf(schema, no);
    const width = f && floatWidth(f);
    if (wt === 0) pos = varint(bytes, pos)[1];
    else if (wt === 1 || wt === 5) {
      const w = wt === 1 ? 8 : 4;
      if (width === w) visit(msg, no, next(no), pos, w);
      pos += w;
    } else if (wt === 2) {
      const [len, q] = varint(bytes, pos);
      pos = q;
      if (width !== undefined) for (let i = 0; i * width < len; i++) visit(msg, no, next(no), pos + i * width, width);
      else if (f && f.message && !f.oneof && f.fieldKind !== "map") {
        const value = fields[f.localName];
        const sub = f.fieldKind === "list" ? (value as object[])[next(no)] : value;
        if (sub && typeof sub === "object") walk(f.message, sub, bytes, pos, pos + len, visit, seen);
      }
      pos += len;
    } else return; // groups: not used by onnx.proto
  }
}

/** After decoding: records the NaN bit patterns the doubles in `msg` may have lost. */
export function recordFromWire(schema: DescMessage, msg: object, bytes: Uint8Array): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  walk(schema, msg, bytes, 0, bytes.length, (m, field, index, offset, width) => {
    if (width === 4) {
      const b = dv.getUint32(offset, true);
      if (isNan32(b) && b !== CANONICAL_NAN32) setNanBits(m, field, index, b);
    } else {
      const b = dv.getBigUint64(offset, true);
      if (isNan64(b) && b !== CANONICAL_NAN64) setNanBits(m, field, index, b);
    }
  });
}

/** After encoding: writes the recorded NaN bit patterns over the NaNs the writer produced. */
export function patchWire(schema: DescMessage, msg: object, bytes: Uint8Array): Uint8Array {
  if (!used) return bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  walk(schema, msg, bytes, 0, bytes.length, (m, field, index, offset, width) => {
    const bits = nanBitsAt(m, field, index);
    if (bits === undefined) return;
    if (width === 4 && isNan32(dv.getUint32(offset, true))) dv.setUint32(offset, Number(bits), true);
    else if (width === 8 && isNan64(dv.getBigUint64(offset, true))) dv.setBigUint64(offset, BigInt(bits), true);
  });
  return bytes;
}

/** Message objects in a deterministic order, for pairing a message tree with its clone. */
function holders(schema: DescMessage, msg: object, out: object[]): object[] {
  out.push(msg);
  const fields = msg as Record<string, unknown>;
  for (const f of schema.fields) {
    if (!f.message || f.oneof || f.fieldKind === "map") continue;
    const value = fields[f.localName];
    if (f.fieldKind === "list") for (const sub of value as object[]) holders(f.message, sub, out);
    else if (value && typeof value === "object") holders(f.message, value, out);
  }
  return out;
}

/** Carries the recorded bit patterns from `from` to its clone `to` (protobuf's clone does not). */
export function copyNanBits(schema: DescMessage, from: object, to: object): void {
  if (!used) return;
  const a = holders(schema, from, []);
  const b = holders(schema, to, []);
  a.forEach((m, i) => {
    const fields = table.get(m);
    const target = b[i];
    if (!fields || !target) return;
    for (const [field, byIndex] of fields) for (const [index, bits] of byIndex) setNanBits(target, field, index, bits);
  });
}
