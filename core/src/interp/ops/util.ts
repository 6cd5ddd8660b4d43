// Shared helpers of the kernels: broadcasting, axes, shape arithmetic.
import { OnnxtxtError } from "../../io/index.js";
import { expectTensor, intList, sizeOf, stridesOf, type Tensor, type Value, ints32 } from "../value.js";
import { maxOf } from "../../arrays.js";

export function fail(message: string): never {
  throw new OnnxtxtError(message);
}

export function broadcastShapes(...shapes: (readonly number[])[]): number[] {
  const rank = maxOf(
    shapes.map((s) => s.length),
    0,
  );
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    const off = rank - s.length;
    for (let i = 0; i < s.length; i++) {
      const d = s[i]!;
      const o = out[off + i]!;
      if (d === o || d === 1) continue;
      if (o === 1) out[off + i] = d;
      else fail(`shapes [${shapes.map((x) => x.join(",")).join("] and [")}] cannot be broadcast`);
    }
  }
  // a zero-sized dim wins over 1
  for (const s of shapes) {
    const off = rank - s.length;
    for (let i = 0; i < s.length; i++) if (s[i] === 0) out[off + i] = 0;
  }
  return out;
}

/**
 * How to find an input element for each output element of a broadcast: "same" (same index),
 * "scalar" (always 0), "mod" (index % size: the input is a suffix of the output), or a map.
 */
type BroadcastIndex = { kind: "same" } | { kind: "scalar" } | { kind: "mod"; size: number } | { kind: "map"; map: Int32Array };

export function broadcastIndex(outDims: readonly number[], inDims: readonly number[]): BroadcastIndex {
  const n = sizeOf(inDims);
  const outN = sizeOf(outDims);
  if (n === outN) return { kind: "same" };
  if (n === 1) return { kind: "scalar" };
  const trimmed = trimLeadingOnes(inDims);
  const tail = outDims.slice(outDims.length - trimmed.length);
  if (trimmed.every((d, i) => d === tail[i])) return { kind: "mod", size: n };
  const rank = outDims.length;
  const inStrides = stridesOf(inDims);
  const st = new Array<number>(rank).fill(0);
  for (let i = 0; i < inDims.length; i++) {
    const r = rank - inDims.length + i;
    st[r] = inDims[i] === 1 ? 0 : inStrides[i]!;
  }
  const map = ints32(outN);
  const idx = new Array<number>(rank).fill(0);
  let off = 0;
  for (let o = 0; o < outN; o++) {
    map[o] = off;
    for (let r = rank - 1; r >= 0; r--) {
      idx[r]!++;
      off += st[r]!;
      if (idx[r]! < outDims[r]!) break;
      off -= st[r]! * idx[r]!;
      idx[r] = 0;
    }
  }
  return { kind: "map", map };
}

function trimLeadingOnes(d: readonly number[]): readonly number[] {
  let i = 0;
  while (i < d.length && d[i] === 1) i++;
  return d.slice(i);
}

export function at(b: BroadcastIndex, o: number): number {
  switch (b.kind) {
    case "same":
      return o;
    case "scalar":
      return 0;
    case "mod":
      return o % b.size;
    case "map":
      return b.map[o]!;
  }
}

/** Normalizes a possibly negative axis. */
export function axisOf(axis: number, rank: number, what = "axis"): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= Math.max(rank, 1)) fail(`${what} ${axis} is out of range for rank ${rank}`);
  return a;
}

export function t(v: Value | undefined, what = "input"): Tensor {
  return expectTensor(v, what);
}

/** An optional int tensor input as numbers (axes, pads, shapes). */
export function optInts(v: Value | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  return intList(expectTensor(v, "input"));
}

/** Outer, axis and inner sizes around `axis`. */
export function splitAt(dims: readonly number[], axis: number): [number, number, number] {
  let outer = 1;
  for (let i = 0; i < axis; i++) outer *= dims[i]!;
  let inner = 1;
  for (let i = axis + 1; i < dims.length; i++) inner *= dims[i]!;
  return [outer, dims[axis] ?? 1, inner];
}
