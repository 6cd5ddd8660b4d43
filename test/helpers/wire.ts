// A minimal protobuf wire-format writer for tests: it builds model bytes by hand, so test
// models can hold exact float bit patterns (signalling NaNs, payloads) without passing them
// through the library under test or through JS doubles.
export type Field = Uint8Array;

export function varint(v: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: number[] = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x > 0n) b |= 0x80;
    out.push(b);
  } while (x > 0n);
  return out;
}

function cat(parts: readonly (Uint8Array | number[])[]): Uint8Array {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function int(no: number, v: number | bigint): Field {
  return Uint8Array.from([...varint(no * 8), ...varint(v)]);
}

export function bytes(no: number, data: Uint8Array): Field {
  return cat([varint(no * 8 + 2), varint(data.length), data]);
}

export function str(no: number, s: string): Field {
  return bytes(no, new TextEncoder().encode(s));
}

export function msg(no: number, ...fields: Field[]): Field {
  return bytes(no, cat(fields));
}

/** A fixed32 field holding exactly these bits (a float). */
export function fixed32(no: number, bits: number): Field {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, bits >>> 0, true);
  return cat([varint(no * 8 + 5), b]);
}

/** Little-endian u32 words (packed floats, raw float data). */
export function words32(bits: readonly number[]): Uint8Array {
  const b = new Uint8Array(bits.length * 4);
  const dv = new DataView(b.buffer);
  bits.forEach((x, i) => dv.setUint32(i * 4, x >>> 0, true));
  return b;
}

export function words64(bits: readonly bigint[]): Uint8Array {
  const b = new Uint8Array(bits.length * 8);
  const dv = new DataView(b.buffer);
  bits.forEach((x, i) => dv.setBigUint64(i * 8, x, true));
  return b;
}

export function packedVarints(no: number, values: readonly (number | bigint)[]): Field {
  return bytes(no, Uint8Array.from(values.flatMap((v) => varint(v))));
}

export function message(...fields: Field[]): Uint8Array {
  return cat(fields);
}

/** Whether `needle` occurs in `hay`. */
export function contains(hay: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength)) >= 0;
}
