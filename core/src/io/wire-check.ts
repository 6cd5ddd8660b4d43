// A cheap, linear pass over protobuf wire bytes before decoding, guided by the message schema.
// It turns damaged binaries into one clear message with a byte offset and a field path,
// instead of whatever the decoder happens to trip over: lengths running past the end of the
// file or of the enclosing message, truncated varints, wire types that do not fit the field,
// and nesting deeper than the decoder's recursion limit. It allocates nothing per message or
// byte. (protobuf C++ would skip a known field with the wrong wire type as unknown;
// protobuf-es would misread it, so it is refused here.) It also notes whether any float or
// double holds an unusual NaN, so the decoder's second pass for those runs only when needed.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { END_GROUP, FIXED32, FIXED64, LEN, START_GROUP, VARINT } from "../../../proto/src/wire-reader.js";

/**
 * Deepest message nesting accepted. Above protobuf's usual 100 because the text parser allows
 * 256 levels of brackets (about 100 nested subgraphs, three messages each), and a model we
 * write must read back; far below what would exhaust the stack in the decoder or the walkers.
 */
export const MAX_MESSAGE_DEPTH = 1000;

/** Thrown with the byte offset and field path of the first damage found. */
export class WireError extends Error {
  constructor(
    readonly offset: number,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${reason} (at byte ${offset}${path ? `, in ${path}` : ""})`);
  }
}

class Cursor {
  pos = 0;
  /** Set when a float or double field holds a NaN other than the canonical one. */
  oddNan = false;
  /** The length of the longest length-delimited value that is not a message (raw_data, strings, packed numbers). */
  longestValue = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(end: number, what: string): number {
    const start = this.pos;
    // Most varints (tags, short lengths) are one byte.
    if (start < end) {
      const b = this.bytes[start]!;
      if (b < 0x80) {
        this.pos = start + 1;
        return b;
      }
    }
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw new Damage(start, `${what} is cut off`);
      const b = this.bytes[this.pos++]!;
      // Exact up to 2^53, which covers every length and tag that can fit in memory.
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) return value;
    }
    throw new Damage(start, `${what} is longer than 10 bytes`);
  }
}

function scalarWireType(t: ScalarType): number {
  switch (t) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return FIXED64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return FIXED32;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return LEN;
    default:
      return VARINT;
  }
}

/** The wire type a field is written with, and whether the packed (LEN) form is allowed too. */
function expectedWireType(f: DescField): { type: number; packable: boolean } {
  switch (f.fieldKind) {
    case "scalar":
      return { type: scalarWireType(f.scalar), packable: false };
    case "enum":
      return { type: VARINT, packable: false };
    case "message":
      return { type: f.delimitedEncoding ? START_GROUP : LEN, packable: false };
    case "map":
      return { type: LEN, packable: false };
    case "list":
      if (f.listKind === "message") return { type: f.delimitedEncoding ? START_GROUP : LEN, packable: false };
      if (f.listKind === "enum") return { type: VARINT, packable: true };
      return { type: scalarWireType(f.scalar), packable: scalarWireType(f.scalar) !== LEN };
  }
}

const WIRE_NAMES = ["varint", "fixed64", "length-delimited", "start-group", "end-group", "fixed32"];

/** What the scan needs of a field, worked out once per schema. */
interface FieldInfo {
  readonly field: DescField;
  readonly wireType: number;
  readonly packable: boolean;
  readonly child: DescMessage | undefined;
  /** 4 or 8 for float and double fields, whose NaN payloads the decoder may lose. */
  readonly floatWidth: 4 | 8 | undefined;
}

/** A message's fields by number (onnx.proto's numbers are small: an array, not a map). */
type FieldTable = readonly (FieldInfo | undefined)[];

const fieldTables = new WeakMap<DescMessage, FieldTable>();

function floatWidthOf(f: DescField): 4 | 8 | undefined {
  const scalar = f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : undefined;
  return scalar === ScalarType.FLOAT ? 4 : scalar === ScalarType.DOUBLE ? 8 : undefined;
}

function fieldsOf(desc: DescMessage): FieldTable {
  let table = fieldTables.get(desc);
  if (!table) {
    const byNumber: (FieldInfo | undefined)[] = new Array<FieldInfo | undefined>(Math.max(0, ...desc.fields.map((f) => f.number + 1))).fill(undefined);
    for (const field of desc.fields) {
      const want = expectedWireType(field);
      byNumber[field.number] = { field, wireType: want.type, packable: want.packable, child: childMessage(field), floatWidth: floatWidthOf(field) };
    }
    table = byNumber;
    fieldTables.set(desc, table);
  }
  return table;
}

function childMessage(f: DescField): DescMessage | undefined {
  if (f.fieldKind === "message") return f.message;
  if (f.fieldKind === "list" && f.listKind === "message") return f.message;
  return undefined;
}

const PATH_KEEP = 4;

/** The field path, with the middle of very deep paths elided so the message stays short. */
function formatPath(segments: readonly string[]): string {
  if (segments.length <= 2 * PATH_KEEP + 1) return segments.join(".");
  const middle = `…${segments.length - 2 * PATH_KEEP} more…`;
  return [...segments.slice(0, PATH_KEEP), middle, ...segments.slice(-PATH_KEEP)].join(".");
}

/** Raised inside the scan; the path grows (innermost first) as it unwinds. */
class Damage {
  readonly reversedPath: string[] = [];
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/**
 * Scans one message body in [cur.pos, end). Returns at `end`, or right after the END_GROUP
 * tag when `group` is the number of the group being read.
 */
function scanMessage(cur: Cursor, end: number, desc: DescMessage | undefined, depth: number, group?: number): void {
  if (depth > MAX_MESSAGE_DEPTH) throw new Damage(cur.pos, `messages are nested more than ${MAX_MESSAGE_DEPTH} deep`);
  const start = cur.pos;
  const table = desc && fieldsOf(desc);
  while (cur.pos < end) {
    const tagAt = cur.pos;
    const tag = cur.varint(end, "a field tag");
    const fieldNo = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (fieldNo === 0 || fieldNo > 0x1fffffff) throw new Damage(tagAt, `invalid field number ${fieldNo}`);
    if (wireType === END_GROUP) {
      if (group === fieldNo) return;
      throw new Damage(tagAt, `unexpected end-group tag for field ${fieldNo}`);
    }
    const info = table !== undefined && fieldNo < table.length ? table[fieldNo] : undefined;
    try {
      scanField(cur, end, info, fieldNo, wireType, depth);
    } catch (e) {
      if (e instanceof Damage) {
        const list = info?.field.fieldKind === "list";
        // The element index is counted only now: the fields before this one scanned cleanly.
        e.reversedPath.push(`${info ? info.field.name : `#${fieldNo}`}${list ? `[${occurrencesBefore(cur.bytes, start, tagAt, fieldNo)}]` : ""}`);
      }
      throw e;
    }
  }
  if (group !== undefined) throw new Damage(cur.pos, `group ${group} has no end tag`);
}

/** How many times field `fieldNo` occurs in the well-formed bytes [start, before) of one message. */
function occurrencesBefore(bytes: Uint8Array, start: number, before: number, fieldNo: number): number {
  const cur = new Cursor(bytes);
  cur.pos = start;
  let n = 0;
  while (cur.pos < before) {
    const tag = cur.varint(before, "a field tag");
    if (Math.floor(tag / 8) === fieldNo) n++;
    skipValue(cur, before, tag);
  }
  return n;
}

function skipValue(cur: Cursor, end: number, tag: number): void {
  switch (tag % 8) {
    case VARINT:
      cur.varint(end, "a varint value");
      return;
    case FIXED64:
      cur.pos += 8;
      return;
    case FIXED32:
      cur.pos += 4;
      return;
    case LEN: {
      const len = cur.varint(end, "a length"); // read first: `pos += varint()` would add to the old pos
      cur.pos += len;
      return;
    }
    case START_GROUP:
      for (;;) {
        const inner = cur.varint(end, "a field tag");
        if (inner % 8 === END_GROUP) return;
        skipValue(cur, end, inner);
      }
  }
}

function isOddNan32(bits: number): boolean {
  return (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0 && bits !== 0x7fc00000;
}

/** Whether a double's bytes at `at` are a NaN other than the canonical 0x7ff8000000000000. */
function isOddNan64(bytes: Uint8Array, at: number): boolean {
  const hi = (bytes[at + 4]! | (bytes[at + 5]! << 8) | (bytes[at + 6]! << 16) | (bytes[at + 7]! << 24)) >>> 0;
  const lo = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  return (hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) !== 0 || lo !== 0) && !(hi === 0x7ff80000 && lo === 0);
}

/** Notes whether the float or double values in [at, end) hold a NaN the decoder may not keep. */
function noteNans(cur: Cursor, at: number, end: number, width: 4 | 8): void {
  if (cur.oddNan) return;
  const bytes = cur.bytes;
  for (let i = at; i + width <= end; i += width) {
    // A NaN's exponent is all ones: its last byte (little-endian) is 0x7f or 0xff. One load
    // rules out almost every value of a big tensor.
    if ((bytes[i + width - 1]! & 0x7f) !== 0x7f) continue;
    const odd = width === 4 ? isOddNan32((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0) : isOddNan64(bytes, i);
    if (odd) {
      cur.oddNan = true;
      return;
    }
  }
}

function scanField(cur: Cursor, end: number, info: FieldInfo | undefined, fieldNo: number, wireType: number, depth: number): void {
  if (wireType > FIXED32) throw new Damage(cur.pos, `invalid wire type ${wireType}`);
  if (info && wireType !== info.wireType && !(info.packable && wireType === LEN)) {
    throw new Damage(cur.pos, `wire type ${WIRE_NAMES[wireType] ?? wireType} does not fit this field (expected ${WIRE_NAMES[info.wireType]})`);
  }
  switch (wireType) {
    case VARINT:
      cur.varint(end, "a varint value");
      return;
    case FIXED64:
    case FIXED32: {
      const size = wireType === FIXED64 ? 8 : 4;
      if (cur.pos + size > end) throw new Damage(cur.pos, `a ${size}-byte value is cut off`);
      if (info?.floatWidth === size) noteNans(cur, cur.pos, cur.pos + size, size);
      cur.pos += size;
      return;
    }
    case LEN: {
      const lenAt = cur.pos;
      const len = cur.varint(end, "a length");
      if (len > end - cur.pos) {
        const left = end - cur.pos;
        const where = end === cur.bytes.length ? "the file" : "the enclosing message";
        throw new Damage(lenAt, `length ${len} runs past the end of ${where} (${left} bytes left)`);
      }
      if (info?.child) scanMessage(cur, cur.pos + len, info.child, depth + 1);
      else {
        if (info?.floatWidth) noteNans(cur, cur.pos, cur.pos + len, info.floatWidth);
        if (len > cur.longestValue) cur.longestValue = len;
        cur.pos += len;
      }
      return;
    }
    case START_GROUP:
      scanMessage(cur, end, info?.child, depth + 1, fieldNo);
      return;
    default:
      throw new Damage(cur.pos, `invalid wire type ${wireType}`);
  }
}

/** What the scan noted on the way, for the passes after decoding. */
export interface WireScan {
  /** A float or double field holds a NaN other than the canonical one (whose bits the decoded numbers may not keep, so they must be recorded from the wire). */
  readonly oddNans: boolean;
  /** The length of the longest length-delimited value that is not a message (no raw_data is longer). */
  readonly longestValue: number;
}

/** Throws a WireError describing the first damage in `bytes` read as a `desc` message. */
export function checkWire(desc: DescMessage, bytes: Uint8Array): WireScan {
  const cur = new Cursor(bytes);
  try {
    scanMessage(cur, bytes.length, desc, 1);
  } catch (e) {
    if (e instanceof Damage) throw new WireError(e.offset, formatPath(e.reversedPath.reverse()), e.reason);
    throw e;
  }
  return { oddNans: cur.oddNan, longestValue: cur.longestValue };
}
