// What the generated encoders (proto/gen/onnx_encode.ts, written by scripts/gen-encoder.ts)
// write the protobuf wire format with. Together they give exactly the bytes protobuf-es's
// reflective `toBinary` gives (test/proto/encoder-differential.test.ts holds them to that),
// with its checks of 32-bit and float ranges, at a fraction of the cost: one buffer, no closure
// per field, a nested message written in place (its length is reserved as one byte and the body
// moved in the rare case it needs more), packed numbers copied as a typed array.
import type { UnknownField } from "@bufbuild/protobuf";

export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

const FLOAT32_MAX = 3.4028234663852886e38;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const utf8 = new TextEncoder();

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

export class WireWriter {
  buf = new Uint8Array(1024);
  pos = 0;
  private view = new DataView(this.buf.buffer);

  /** Room for `n` more bytes. */
  need(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** A varint of a non-negative number below 2^32 (tags, lengths, uint32). */
  uint32(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new Error(`invalid uint32: ${v}`);
    this.need(5);
    const buf = this.buf;
    let pos = this.pos;
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
    this.pos = pos;
  }

  int32(v: number): void {
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw new Error(`invalid int32: ${v}`);
    if (v >= 0) {
      this.uint32(v);
      return;
    }
    // Negative: sign-extended to 64 bits, ten bytes.
    this.need(10);
    for (let i = 0; i < 9; i++) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>= 7;
    }
    this.buf[this.pos++] = 1;
  }

  /** A 64-bit varint (int64 and uint64 fields hold bigints; numbers and strings are taken too, as protobuf-es takes them). */
  int64(value: bigint | number | string, unsigned: boolean): void {
    let v: bigint;
    if (typeof value === "bigint") v = value;
    else if (typeof value === "number" && Number.isSafeInteger(value)) v = BigInt(value);
    else if (typeof value === "string" && /^-?[0-9]+$/.test(value)) v = BigInt(value);
    else throw new Error(`invalid ${unsigned ? "uint64" : "int64"}: ${String(value)}`);
    if (unsigned ? v < 0n || v > 0xffffffffffffffffn : v < -0x8000000000000000n || v > 0x7fffffffffffffffn)
      throw new Error(`invalid ${unsigned ? "uint64" : "int64"}: ${v}`);
    if (v >= 0n && v <= 0xffffffffn) {
      this.uint32(Number(v));
      return;
    }
    let u = BigInt.asUintN(64, v);
    this.need(10);
    while (u > 0x7fn) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  tag(field: number, wireType: number): void {
    this.uint32(((field << 3) | wireType) >>> 0);
  }

  float(v: number): void {
    if (Number.isFinite(v) && (v > FLOAT32_MAX || v < -FLOAT32_MAX)) throw new Error(`invalid float32: ${v}`);
    this.need(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  double(v: number): void {
    this.need(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  bytes(v: Uint8Array): void {
    this.uint32(v.byteLength);
    this.need(v.byteLength);
    this.buf.set(v, this.pos);
    this.pos += v.byteLength;
  }

  string(v: string): void {
    const n = v.length;
    if (n < 0x80) {
      this.need(n + 1);
      const buf = this.buf;
      let pos = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = v.charCodeAt(i);
        if (c > 0x7f) break;
        buf[pos++] = c;
      }
      if (i === n) {
        buf[this.pos] = n;
        this.pos = pos;
        return;
      }
    }
    // UTF-8 as TextEncoder makes it (a lone surrogate becomes U+FFFD, as in protobuf-es).
    this.need(n * 3 + 5);
    const guess = varintSize(n);
    const start = this.pos;
    const { written } = utf8.encodeInto(v, this.buf.subarray(start + guess));
    const size = varintSize(written);
    if (size !== guess) this.buf.copyWithin(start + size, start + guess, start + guess + written);
    this.uint32(written);
    this.pos += written;
  }

  /** Starts a length-delimited value: one byte is reserved for its length. */
  fork(): number {
    this.need(1);
    return this.pos++;
  }

  /** Ends the value `fork` started at `at`, writing its length there. */
  join(at: number): void {
    const length = this.pos - at - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.need(size - 1);
      this.buf.copyWithin(at + size, at + 1, this.pos);
      this.pos += size - 1;
    }
    const end = this.pos;
    this.pos = at;
    this.uint32(length);
    this.pos = end;
  }

  /** A packed list of float32 values, copied through a typed array. */
  packedFloats(field: number, values: readonly number[]): void {
    const n = values.length;
    if (n === 0) return;
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      // Beyond the float32 range and finite (NaN and infinities are kept), as protobuf-es refuses.
      if (!(v <= FLOAT32_MAX && v >= -FLOAT32_MAX) && Number.isFinite(v)) throw new Error(`invalid float32: ${v}`);
      a[i] = v;
    }
    this.tag(field, LEN);
    this.uint32(n * 4);
    this.copyTyped(a);
  }

  packedDoubles(field: number, values: readonly number[]): void {
    if (values.length === 0) return;
    this.tag(field, LEN);
    this.uint32(values.length * 8);
    this.copyTyped(new Float64Array(values));
  }

  private copyTyped(a: Float32Array | Float64Array): void {
    this.need(a.byteLength);
    if (LITTLE_ENDIAN) {
      this.buf.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), this.pos);
      this.pos += a.byteLength;
    } else if (a instanceof Float32Array) for (let i = 0; i < a.length; i++) this.float(a[i]!);
    else for (let i = 0; i < a.length; i++) this.double(a[i]!);
  }

  /** Fields this reader did not know, written back as they came. */
  unknown(fields: readonly UnknownField[] | undefined): void {
    if (fields === undefined) return;
    for (const { no, wireType, data } of fields) {
      this.tag(no, wireType);
      this.need(data.length);
      this.buf.set(data, this.pos);
      this.pos += data.length;
    }
  }
}
