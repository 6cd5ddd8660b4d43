// Element-wise agreement of two float outputs: |got - want| <= atol + rtol * |want|.

export interface Comparison {
  ok: boolean;
  mismatches: number;
  maxAbsDiff: number;
  summary: string;
}

export function compareOutputs(got: Float32Array, want: Float32Array, rtol: number, atol: number): Comparison {
  if (got.length !== want.length) {
    return { ok: false, mismatches: Math.max(got.length, want.length), maxAbsDiff: NaN, summary: `length ${got.length} vs ${want.length}` };
  }
  let mismatches = 0;
  let maxAbsDiff = 0;
  for (let i = 0; i < got.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    if (!(d <= atol + rtol * Math.abs(want[i]!))) mismatches++;
    if (d > maxAbsDiff || Number.isNaN(d)) maxAbsDiff = d;
  }
  const ok = mismatches === 0;
  return { ok, mismatches, maxAbsDiff, summary: `${ok ? "match" : `${mismatches} of ${got.length} differ`}, max |diff| ${maxAbsDiff.toExponential(2)}` };
}
