// An ASCII byte buffer for text built element by element (tensor data): numbers are written as
// bytes and decoded to one string at the end, instead of one string per number.

const decoder = new TextDecoder("utf-8");

export class ByteWriter {
  buf = new Uint8Array(1 << 12);
  pos = 0;

  ensure(n: number): void {
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

  append(other: ByteWriter): void {
    this.ensure(other.pos);
    this.buf.set(other.buf.subarray(0, other.pos), this.pos);
    this.pos += other.pos;
  }

  text(): string {
    return decoder.decode(this.buf.subarray(0, this.pos));
  }
}
