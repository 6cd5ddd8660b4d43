// What the generated decoders (proto/gen/onnx_decode.ts, written by scripts/gen-decoder.ts)
// read the protobuf wire format with. Together they give exactly the messages protobuf-es's
// reflective `fromBinary` gives (test/proto/decoder-differential.test.ts holds them to that),
// down to its leniencies: a known field is read as its type says whatever its wire type, a
// value may run past the end of its message (only the end of the buffer is an error), skipped
// varints have no length cap. What they do not share with it is the cost: no array per tag or
// per message, property stores by name, and short strings interned (see `string`).
import { create, type DescMessage, type Message, type UnknownField } from "@bufbuild/protobuf";

/** The wire types, by their numbers in the encoding (also what core/src/io/wire-check.ts reads). */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const START_GROUP = 3;
export const END_GROUP = 4;
export const FIXED32 = 5;

export interface DecodeOptions {
  /** How deep messages may nest; the outermost one is at depth 1. protobuf-es's default is 100. */
  readonly recursionLimit?: number;
}

function cutOff(): Error {
  return new RangeError("premature end of the input");
}

// --- short strings ----------------------------------------------------------------------------
// A model names each value at least twice (as an output and as an input) and repeats its op
// types and domains on every node: decoding the same few bytes into a new string each time
// makes millions of equal strings. Short ASCII strings go through a direct-mapped cache keyed
// by a hash of their bytes instead; a hit is checked against the bytes before it is reused.
// Sharing one string object is invisible to callers, and later map lookups of it find its
// hash already computed.

/** Longest string that is interned. */
const INTERN_MAX = 64;
const CACHE_BITS = 12;
const cache: string[] = new Array<string>(1 << CACHE_BITS).fill("");
/** One array of char codes per length, for `String.fromCharCode` without a new array per string. */
const codes: number[][] = Array.from({ length: INTERN_MAX + 1 }, (_, n) => new Array<number>(n).fill(0));
/** What strings with non-ASCII or longer text are decoded by; like protobuf-es, a BOM stays text. */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** The string of the ASCII bytes [start, end), or undefined if any byte is not ASCII. */
function internAscii(buf: Uint8Array, start: number, end: number): string | undefined {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b >= 0x80) return undefined;
    h = Math.imul(h ^ b, 0x01000193);
  }
  const slot = (h ^ (h >>> CACHE_BITS)) & ((1 << CACHE_BITS) - 1);
  const cached = cache[slot]!;
  const n = end - start;
  if (cached.length === n) {
    let i = 0;
    while (i < n && cached.charCodeAt(i) === buf[start + i]) i++;
    if (i === n) return cached;
  }
  const chars = codes[n]!;
  for (let i = 0; i < n; i++) chars[i] = buf[start + i]!;
  const s = String.fromCharCode.apply(null, chars);
  cache[slot] = s;
  return s;
}

// --- the reader -------------------------------------------------------------------------------

/** A position in one buffer of wire bytes. Every read checks against the end of the buffer. */
export class WireReader {
  pos = 0;
  readonly len: number;
  readonly limit: number;
  private readonly view: DataView;
  /** The two halves of the last 64-bit varint read. */
  private lo = 0;
  private hi = 0;

  constructor(
    readonly buf: Uint8Array,
    options: DecodeOptions | undefined,
  ) {
    this.len = buf.length;
    this.limit = options?.recursionLimit ?? 100;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** Refuses a message at `depth` when that is deeper than the limit. */
  enter(depth: number): void {
    if (depth > this.limit) throw new Error(`messages are nested more than ${this.limit} deep`);
  }

  /** A field tag (number * 8 + wire type), refused if the number is 0 or the wire type is 6 or 7. */
  tag(): number {
    const start = this.pos;
    const tag = this.uint32();
    const size = this.pos - start;
    // Like protobuf-es: a tag is a uint32 written in at most 5 bytes.
    if (size > 5 || (size === 5 && this.buf[this.pos - 1]! > 0x0f)) throw new Error("invalid tag: more than 32 bits");
    if (tag >>> 3 === 0 || (tag & 7) > FIXED32) throw new Error(`invalid tag: field ${tag >>> 3}, wire type ${tag & 7}`);
    return tag;
  }

  /** A varint's low 32 bits, unsigned. Up to 10 bytes. */
  uint32(): number {
    const buf = this.buf;
    const len = this.len;
    let pos = this.pos;
    let value = 0;
    // The first five bytes hold bits 0 to 34; `<<` keeps the 32 that fit.
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= len) throw cutOff();
      const b = buf[pos++]!;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    for (let i = 5; i < 10; i++) {
      if (pos >= len) throw cutOff();
      if (buf[pos++]! < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw new Error("invalid varint: more than 10 bytes");
  }

  int32(): number {
    return this.uint32() | 0;
  }

  /** Reads a length and gives where the value it announces ends. */
  end(): number {
    const n = this.uint32();
    return this.pos + n;
  }

  /** Reads a varint's low 64 bits into `lo` and `hi`. */
  private varint64(): void {
    const buf = this.buf;
    const len = this.len;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; ; i++) {
      if (i === 10) throw new Error("invalid varint: more than 10 bytes");
      if (pos >= len) throw cutOff();
      const b = buf[pos++]!;
      const bits = b & 0x7f;
      // Byte i holds bits 7i to 7i+6: the fifth straddles the halves, the tenth keeps one bit.
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi = bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (b < 0x80) break;
    }
    this.pos = pos;
    this.lo = lo;
    this.hi = hi;
  }

  int64(): bigint {
    this.varint64();
    if (this.hi === 0) return BigInt(this.lo >>> 0);
    return (BigInt(this.hi) << 32n) | BigInt(this.lo >>> 0); // hi is signed: so is the result
  }

  uint64(): bigint {
    this.varint64();
    if (this.hi === 0) return BigInt(this.lo >>> 0);
    return (BigInt(this.hi >>> 0) << 32n) | BigInt(this.lo >>> 0);
  }

  float(): number {
    const at = this.pos;
    if (at + 4 > this.len) throw cutOff();
    this.pos = at + 4;
    return this.view.getFloat32(at, true);
  }

  double(): number {
    const at = this.pos;
    if (at + 8 > this.len) throw cutOff();
    this.pos = at + 8;
    return this.view.getFloat64(at, true);
  }

  /**
   * Reads a packed run of floats (`width` 4) or doubles (8), its length just ahead, onto
   * `list`; gives the list, a new array when `list` was empty. What the loop of single reads
   * would give (a last value may run past the run, not past the buffer), without an array
   * growing by push() through millions of values: one array of the run's size.
   */
  packed(list: number[], width: 4 | 8): number[] {
    const stop = this.end();
    const start = this.pos;
    const n = Math.ceil((stop - start) / width);
    if (start + n * width > this.len) {
      // Cut off: the single reads throw where they would.
      while (this.pos < stop) list.push(width === 4 ? this.float() : this.double());
      return list;
    }
    const view = this.view;
    const at = list.length;
    const out = at === 0 ? new Array<number>(n) : list;
    if (width === 4) for (let i = 0; i < n; i++) out[at + i] = view.getFloat32(start + 4 * i, true);
    else for (let i = 0; i < n; i++) out[at + i] = view.getFloat64(start + 8 * i, true);
    this.pos = start + n * width;
    return out;
  }

  /** Reads a length and moves past the value it announces; gives where that value starts. */
  private delimited(): number {
    const end = this.end();
    if (end > this.len) throw cutOff();
    const start = this.pos;
    this.pos = end;
    return start;
  }

  /** A view into the input, not a copy (core/src/io/align-raw.ts relies on that). */
  bytes(): Uint8Array {
    const start = this.delimited();
    return this.buf.subarray(start, this.pos);
  }

  /** Invalid UTF-8 becomes U+FFFD, as in protobuf-es for proto2 strings. */
  string(): string {
    const start = this.delimited();
    const end = this.pos;
    return (end - start <= INTERN_MAX ? internAscii(this.buf, start, end) : undefined) ?? utf8.decode(this.buf.subarray(start, end));
  }

  /**
   * Skips the value of an unknown field, whose tag was just read, and adds it to `fields` (a
   * new list when undefined) as protobuf-es keeps it: the value's bytes, a view of the input.
   */
  unknown(tag: number, depth: number, fields: UnknownField[] | undefined): UnknownField[] {
    const start = this.pos;
    this.skip(tag & 7, tag >>> 3, this.limit - depth);
    const list = fields ?? [];
    list.push({ no: tag >>> 3, wireType: tag & 7, data: this.buf.subarray(start, this.pos) });
    return list;
  }

  /** `budget`: how many groups deep the value may still nest. */
  private skip(wireType: number, fieldNo: number, budget: number): void {
    switch (wireType) {
      case VARINT:
        // No cap on the length here, as in protobuf-es.
        for (;;) {
          if (this.pos >= this.len) throw cutOff();
          if (this.buf[this.pos++]! < 0x80) return;
        }
      case FIXED64:
      case FIXED32:
        this.pos += wireType === FIXED64 ? 8 : 4;
        break;
      case LEN:
        this.delimited();
        return;
      case START_GROUP:
        if (budget <= 0) throw new Error("groups are nested too deep");
        for (;;) {
          const tag = this.tag();
          if ((tag & 7) === END_GROUP) {
            if (tag >>> 3 !== fieldNo) throw new Error(`group ${fieldNo} ends with the end tag of ${tag >>> 3}`);
            return;
          }
          this.skip(tag & 7, tag >>> 3, budget - 1);
        }
      default:
        throw new Error(`an end-group tag for field ${fieldNo} outside its group`);
    }
    if (this.pos > this.len) throw cutOff();
  }
}

// --- messages ---------------------------------------------------------------------------------

/** T without `readonly`, for a constructor that sets `$typeName`. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A constructor of messages made as protobuf-es's `create(schema)` makes a proto2 message: its
 * prototype is that very message's prototype (which holds the scalar fields' defaults, so that
 * a field is set only when it is an own property), and `init` gives `$typeName`, fresh lists
 * and `{ case: undefined }` for the oneofs. A constructor, unlike `Object.create`, lets the
 * engine keep the fields decoding adds inside the object.
 */
export function messageType<T extends Message>(schema: DescMessage, init: (this: Writable<T>) => void): new () => T {
  const ctor = init as unknown as (new () => T) & { prototype: object };
  ctor.prototype = Object.getPrototypeOf(create(schema)) as object;
  return ctor;
}

/**
 * A value a closed enum does not have, which protobuf-es keeps as an unknown field (the int32
 * as a varint of 64 bits, as it is written): added to the message's `$unknown` at once, unlike
 * the other unknown fields, which a reader collects apart and sets at the message's end (so
 * that, when there are any, they replace a list this started).
 */
export function unknownEnumValue(msg: Message, no: number, wireType: number, value: number): void {
  const data: number[] = [];
  let v = BigInt.asUintN(64, BigInt(value));
  for (; v >= 0x80n; v >>= 7n) data.push(Number(v & 0x7fn) | 0x80);
  data.push(Number(v));
  (msg.$unknown ??= []).push({ no, wireType, data: new Uint8Array(data) });
}
