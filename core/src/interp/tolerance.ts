// Tolerances for comparing run results, and how far apart two values are.
//  - Expected outputs (output_N.pb of a test data set): onnx's backend test loader defaults,
//    rtol 1e-3 and atol 1e-7 for every element type (onnx/backend/test/loader/__init__.py).
//  - Another backend's intermediate and final values: float and double as onnxruntime runs the
//    onnx backend tests (rtol 1e-3, atol 1e-5, onnx_backend_test_series.py: values near zero
//    after a convolution differ by rounding order); the 16- and 8-bit float formats widened by
//    their machine epsilon; integers, bools and strings exact.
import { DT, getElement, type Value } from "./value.js";
import { compareValues, type Tolerance } from "./compare.js";

export const ONNX_BACKEND_TOLERANCE: Tolerance = { rtol: 1e-3, atol: 1e-7 };

const BACKEND_COMPARE: Partial<Record<number, Tolerance>> = {
  [DT.FLOAT]: { rtol: 1e-3, atol: 1e-5 },
  [DT.DOUBLE]: { rtol: 1e-3, atol: 1e-5 },
  [DT.COMPLEX64]: { rtol: 1e-3, atol: 1e-5 },
  [DT.COMPLEX128]: { rtol: 1e-3, atol: 1e-5 },
  [DT.FLOAT16]: { rtol: 4e-3, atol: 1e-3 },
  [DT.BFLOAT16]: { rtol: 2e-2, atol: 1e-2 },
  [DT.FLOAT8E4M3FN]: { rtol: 0.25, atol: 0.02 },
  [DT.FLOAT8E4M3FNUZ]: { rtol: 0.25, atol: 0.02 },
  [DT.FLOAT8E5M2]: { rtol: 0.5, atol: 0.04 },
  [DT.FLOAT8E5M2FNUZ]: { rtol: 0.5, atol: 0.04 },
};

const EXACT: Tolerance = { rtol: 0, atol: 0 };

/** The first tensor element type in `v` (through sequences, maps and optionals). */
export function elementTypeOf(v: Value | undefined): number | undefined {
  switch (v?.kind) {
    case "tensor":
      return v.dtype;
    case "sequence":
      return v.items.length > 0 ? elementTypeOf(v.items[0]) : v.elemType;
    case "map":
      return elementTypeOf(v.values);
    case "optional":
      return v.value ? elementTypeOf(v.value) : v.elemType;
    default:
      return undefined;
  }
}

/** The tolerance for comparing two backends' values of `dtype`. */
export function backendCompareTolerance(dtype: number | undefined): Tolerance {
  return (dtype !== undefined && BACKEND_COMPARE[dtype]) || EXACT;
}

interface Difference {
  /** Undefined when the values agree within the tolerance, else the first difference. */
  readonly mismatch: string | undefined;
  readonly maxAbs: number;
  readonly maxRel: number;
  readonly tolerance: Tolerance;
}

function visitPairs(a: Value | undefined, e: Value | undefined, f: (x: number, y: number) => void): void {
  if (!a || !e) return;
  if (a.kind === "optional" || e.kind === "optional") {
    visitPairs(a.kind === "optional" ? a.value : a, e.kind === "optional" ? e.value : e, f);
    return;
  }
  if (a.kind === "tensor" && e.kind === "tensor") {
    const n = Math.min(a.data.length, e.data.length);
    for (let i = 0; i < n; i++) {
      const x = getElement(a, i);
      const y = getElement(e, i);
      if (typeof x === "number" && typeof y === "number") f(x, y);
      else if (typeof x === "bigint" && typeof y === "bigint") f(Number(x), Number(y));
    }
  } else if (a.kind === "sequence" && e.kind === "sequence") {
    a.items.forEach((item, i) => visitPairs(item, e.items[i], f));
  } else if (a.kind === "map" && e.kind === "map") {
    visitPairs(a.values, e.values, f);
  }
}

/** Compares `actual` with `expected` and measures the largest absolute and relative errors. */
export function difference(actual: Value | undefined, expected: Value | undefined, tolerance: Tolerance): Difference {
  let maxAbs = 0;
  let maxRel = 0;
  visitPairs(actual, expected, (x, y) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const abs = Math.abs(x - y);
    if (abs > maxAbs) maxAbs = abs;
    if (y !== 0 && abs / Math.abs(y) > maxRel) maxRel = abs / Math.abs(y);
  });
  return { mismatch: compareValues(actual, expected, tolerance), maxAbs, maxRel, tolerance };
}

/** `max abs error 2.4e-7, max rel error 1.1e-6` */
export function describeErrors(d: Difference): string {
  return `max abs error ${formatSmall(d.maxAbs, 2)}, max rel error ${formatSmall(d.maxRel, 2)}`;
}

/** 1e-5, 2.3e-7, 0.0012, 0.5: an exponent below 1e-3, `digits` significant digits at most. */
export function formatSmall(x: number, digits = 17): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const rounded = Number(x.toPrecision(digits));
  return Math.abs(rounded) < 1e-3 ? rounded.toExponential() : String(rounded);
}
