// Binary mutations for damaged-file tests: truncation, bit flips, overwritten bytes, huge
// varints (lengths far beyond the file), duplicated chunks.
import { Rng } from "./rng.js";

/** A copy: `Buffer#slice` would be a view, and a flip would damage the corpus itself. */
function copy(b: Uint8Array, end = b.length): Uint8Array {
  return new Uint8Array(b.subarray(0, end));
}

function withBytes(b: Uint8Array, at: number, insert: readonly number[], remove = 0): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at));
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

const MUTATIONS: readonly ((b: Uint8Array, r: Rng) => Uint8Array)[] = [
  (b, r) => copy(b, r.int(b.length)),
  (b, r) => {
    const out = copy(b);
    for (let i = 1 + r.int(4); i > 0 && out.length > 0; i--) out[r.int(out.length)]! ^= 1 << r.int(8);
    return out;
  },
  (b, r) => {
    const out = copy(b);
    if (out.length > 0) out[r.int(out.length)] = r.pick([0, 0x7f, 0x80, 0xff, 0x0a, 0x12, 0x3a]);
    return out;
  },
  (b, r) =>
    withBytes(
      b,
      r.int(b.length + 1),
      r.pick([
        [0xff, 0xff, 0xff, 0xff, 0x0f],
        [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        [0x0a, 0xff, 0xff, 0xff, 0x7f],
      ]),
    ),
  (b, r) => {
    const s = r.int(b.length + 1);
    const e = Math.min(b.length, s + r.int(64));
    return withBytes(b, r.int(b.length + 1), Array.from(b.subarray(s, e)));
  },
  (b, r) => {
    const at = r.int(b.length + 1);
    return withBytes(b, at, [], Math.min(b.length - at, 1 + r.int(8)));
  },
];

export function mutateBytes(bytes: Uint8Array, rng: Rng): Uint8Array {
  let out = bytes;
  for (let i = rng.chance(0.7) ? 1 : 2; i > 0; i--) out = rng.pick(MUTATIONS)(out, rng);
  return out;
}
