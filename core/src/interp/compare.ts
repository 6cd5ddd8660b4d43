// Comparing values with a tolerance: |actual - expected| <= atol + rtol * |expected|,
// NaN equal to NaN, exact for strings and integers beyond double precision.
import { DT, getElement, tensor, typeLabel, type Value } from "./value.js";

export interface Tolerance {
  rtol: number;
  atol: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { rtol: 1e-3, atol: 1e-7 };

/** Undefined when equal within tolerance, else a short description of the first difference. */
export function compareValues(actual: Value | undefined, expected: Value | undefined, tol: Tolerance = DEFAULT_TOLERANCE): string | undefined {
  if (actual === undefined || expected === undefined) {
    return actual === expected ? undefined : `expected ${expected ? typeLabel(expected) : "nothing"}, got ${actual ? typeLabel(actual) : "nothing"}`;
  }
  if (expected.kind === "optional" && actual.kind !== "optional") return compareValues(actual, expected.value, tol);
  if (actual.kind === "optional" && expected.kind !== "optional") return compareValues(actual.value, expected, tol);
  if (actual.kind !== expected.kind) return `expected a ${expected.kind}, got a ${actual.kind}`;
  switch (expected.kind) {
    case "tensor": {
      const a = actual as Extract<Value, { kind: "tensor" }>;
      // older test data stores bfloat16 results as uint16 bit patterns
      const bitsOnly = expected.dtype === DT.UINT16 && (a.dtype === DT.BFLOAT16 || a.dtype === DT.FLOAT16);
      if (bitsOnly) return compareValues(tensor(DT.UINT16, a.dims, a.data), expected, tol);
      if (a.dtype !== expected.dtype) return `expected ${typeLabel(expected)}, got ${typeLabel(a)}`;
      if (a.dims.length !== expected.dims.length || a.dims.some((d, i) => d !== expected.dims[i])) {
        return `expected shape [${expected.dims.join(",")}], got [${a.dims.join(",")}]`;
      }
      const n = expected.data.length;
      for (let i = 0; i < n; i++) {
        const x = getElement(a, i);
        const y = getElement(expected, i);
        if (!close(x, y, tol)) return `element ${i}: expected ${String(y)}, got ${String(x)}`;
      }
      return undefined;
    }
    case "sequence": {
      const a = actual as Extract<Value, { kind: "sequence" }>;
      if (a.items.length !== expected.items.length) return `expected ${expected.items.length} sequence items, got ${a.items.length}`;
      for (let i = 0; i < a.items.length; i++) {
        const d = compareValues(a.items[i], expected.items[i], tol);
        if (d) return `item ${i}: ${d}`;
      }
      return undefined;
    }
    case "map": {
      const a = actual as Extract<Value, { kind: "map" }>;
      if (a.keys.length !== expected.keys.length || a.keys.some((k, i) => String(k) !== String(expected.keys[i]))) return "map keys differ";
      return compareValues(a.values, expected.values, tol);
    }
    case "optional": {
      const a = actual as Extract<Value, { kind: "optional" }>;
      return compareValues(a.value, expected.value, tol);
    }
  }
}

function close(x: number | bigint | string, y: number | bigint | string, tol: Tolerance): boolean {
  if (typeof y === "string" || typeof x === "string") return x === y;
  if (typeof y === "bigint" || typeof x === "bigint") return BigInt(x) === BigInt(y);
  if (Number.isNaN(y)) return Number.isNaN(x);
  if (x === y) return true;
  if (!Number.isFinite(y) || !Number.isFinite(x)) return false;
  return Math.abs(x - y) <= tol.atol + tol.rtol * Math.abs(y);
}
