// A byte buffer for text built element by element (tensor data): numbers are written as ASCII
// bytes and decoded (as UTF-8) to one string at the end, instead of one string per number.

const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();

export class ByteWriter {
  buf = new Uint8Array(1 << 12);
  pos = 0;
  /**
   * When set, the bytes so far are handed to `flush` (and dropped) once they pass `flushAt`,
   * so printing to a stream needs a bounded buffer. Writers only append after `ensure`.
   */
  flush: ((bytes: Uint8Array) => void) | undefined;
  flushAt = 1 << 22;

  ensure(n: number): void {
    if (this.flush && this.pos > 0 && this.pos + n > this.flushAt) {
      this.flush(this.buf.subarray(0, this.pos));
      this.pos = 0;
    }
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Appends a string of ASCII characters. */
  ascii(s: string): void {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
  }

  /** Appends any string as UTF-8. */
  utf8(s: string): void {
    this.ensure(s.length * 3);
    this.pos += encoder.encodeInto(s, this.buf.subarray(this.pos)).written;
  }

  /** Appends another writer's bytes (short runs: a loop beats a subarray per call). */
  append(other: ByteWriter): void {
    const n = other.pos;
    this.ensure(n);
    const src = other.buf;
    const dst = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) dst[p++] = src[i]!;
    this.pos = p;
  }

  /**
   * The text, as a string on the JS heap. (Node's Buffer decodes ASCII faster, but into an
   * external string, whose size counts as external memory and brings on full collections:
   * slower overall when the heap holds a big decoded model.)
   */
  text(): string {
    return decoder.decode(this.buf.subarray(0, this.pos));
  }
}
