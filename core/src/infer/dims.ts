// Dimension arithmetic shared by the operator rules: broadcasting, merging what is declared
// with what is inferred, and products of known dimensions.
import type { Dim, Shape } from "./types.js";

export class ShapeError extends Error {}

/** Numpy-style multidirectional broadcasting; throws ShapeError when two known dims clash. */
export function broadcastShapes(shapes: readonly Shape[]): Dim[] {
  let rank = 0;
  // Indexed loops: broadcasting runs for every elementwise node, mostly before V8 optimises it.
  for (let k = 0; k < shapes.length; k++) rank = Math.max(rank, shapes[k]!.length);
  // Sized up front: the shape stays in the value's type, and a pushed array keeps spare room.
  const out: Dim[] = new Array<Dim>(rank);
  for (let i = 0; i < rank; i++) {
    let known: number | undefined;
    // The symbolic sizes met: one kept, and whether another differed (no set per dimension).
    let symbol: string | undefined;
    let symbols = 0;
    let unknown = false;
    for (let k = 0; k < shapes.length; k++) {
      const s = shapes[k]!;
      const d = s[i - (rank - s.length)];
      if (i < rank - s.length || d === 1) continue;
      if (typeof d === "number") {
        if (known !== undefined && known !== d) throw new ShapeError(`dimensions ${known} and ${d} differ and neither is 1`);
        known = d;
      } else if (typeof d === "string") {
        if (symbols === 0 || (symbols === 1 && d !== symbol)) symbols++;
        symbol = d;
      } else unknown = true;
    }
    out[i] = known !== undefined ? known : unknown ? undefined : symbols === 1 ? symbol : symbols === 0 ? 1 : undefined;
  }
  return out;
}

/** Combines two descriptions of one dimension (check `dimsConflict` first): a known size wins. */
export function mergeDim(a: Dim, b: Dim): Dim {
  if (typeof a === "number") return a;
  if (typeof b === "number") return b;
  return a ?? b;
}

export function dimsConflict(a: Dim, b: Dim): boolean {
  return typeof a === "number" && typeof b === "number" && a !== b;
}

/** The product of the dims, or undefined when one is not known. */
export function product(dims: readonly Dim[]): number | undefined {
  let p = 1;
  for (const d of dims) {
    if (typeof d !== "number") return undefined;
    p *= d;
  }
  return p;
}

/** Like `product`, but a single symbolic dim among ones stays symbolic: [N, 1] gives N. */
export function productDim(dims: readonly Dim[]): Dim {
  const rest = dims.filter((d) => d !== 1);
  if (rest.length === 1) return rest[0];
  return product(dims);
}

/** Normalises a possibly negative axis; undefined when out of range. */
export function normAxis(axis: number, rank: number): number | undefined {
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank ? a : undefined;
}

export function addDims(a: Dim, b: Dim): Dim {
  return typeof a === "number" && typeof b === "number" ? a + b : undefined;
}

export function mulDims(a: Dim, b: Dim): Dim {
  if (a === 1) return b;
  if (b === 1) return a;
  return typeof a === "number" && typeof b === "number" ? a * b : undefined;
}
