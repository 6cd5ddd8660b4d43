// Matrix products: MatMul (batched, broadcast), Gemm, MatMulInteger, Einsum.
// The inner loops are plain JS over Float32Array/Float64Array; `gemm` is the hook that
// faster implementations replace.
import { pollRun } from "../budget.js";
import type { Registry } from "../registry.js";
import { DT, fromNumbers, numbers, sizeOf, stridesOf, tensor, type Tensor, floats64, floats32 } from "../value.js";
import { broadcastShapes, fail, t } from "./util.js";

/** C[m,n] (+)= A[m,k] * B[k,n], row-major, with offsets into flat arrays. */
export function gemm(
  a: ArrayLike<number>,
  aOff: number,
  b: ArrayLike<number>,
  bOff: number,
  c: Float32Array | Float64Array,
  cOff: number,
  m: number,
  k: number,
  n: number,
): void {
  for (let i = 0; i < m; i++) {
    pollRun();
    const ci = cOff + i * n;
    for (let p = 0; p < k; p++) {
      const av = a[aOff + i * k + p]!;
      if (av === 0) continue;
      const bp = bOff + p * n;
      for (let j = 0; j < n; j++) c[ci + j]! += av * b[bp + j]!;
    }
  }
}

export function matmul(x: Tensor, y: Tensor, outType = x.dtype): Tensor {
  const ad = x.dims.length === 1 ? [1, x.dims[0]!] : x.dims.slice();
  const bd = y.dims.length === 1 ? [y.dims[0]!, 1] : y.dims.slice();
  const m = ad[ad.length - 2]!;
  const k = ad[ad.length - 1]!;
  const k2 = bd[bd.length - 2]!;
  const n = bd[bd.length - 1]!;
  if (k !== k2) fail(`MatMul: inner dimensions differ: [${x.dims.join(",")}] x [${y.dims.join(",")}]`);
  const batch = broadcastShapes(ad.slice(0, -2), bd.slice(0, -2));
  const batchN = sizeOf(batch);
  const acc = outType === DT.FLOAT ? floats32(batchN * m * n) : floats64(batchN * m * n);
  const av = numbers(x);
  const bv = numbers(y);
  const aBatch = ad.slice(0, -2);
  const bBatch = bd.slice(0, -2);
  const aStr = stridesOf(aBatch);
  const bStr = stridesOf(bBatch);
  const outStr = stridesOf(batch);
  for (let bi = 0; bi < batchN; bi++) {
    let ao = 0;
    let bo = 0;
    for (let r = 0; r < batch.length; r++) {
      const idx = Math.floor(bi / outStr[r]!) % batch[r]!;
      const ra = r - (batch.length - aBatch.length);
      const rb = r - (batch.length - bBatch.length);
      if (ra >= 0 && aBatch[ra] !== 1) ao += idx * aStr[ra]!;
      if (rb >= 0 && bBatch[rb] !== 1) bo += idx * bStr[rb]!;
    }
    gemm(av, ao * m * k, bv, bo * k * n, acc, bi * m * n, m, k, n);
  }
  const dims = [...batch];
  if (x.dims.length !== 1) dims.push(m);
  if (y.dims.length !== 1) dims.push(n);
  if (outType === DT.FLOAT) return tensor(DT.FLOAT, dims, acc as Float32Array);
  return fromNumbers(outType, dims, acc);
}

function transpose2(v: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const out = floats64(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = v[i * cols + j]!;
  return out;
}

function gemmOp(a: Tensor, b: Tensor, c: Tensor | undefined, alpha: number, beta: number, transA: boolean, transB: boolean): Tensor {
  let [m, k] = a.dims as [number, number];
  let av: ArrayLike<number> = numbers(a);
  if (transA) {
    av = transpose2(av, m, k);
    [m, k] = [k, m];
  }
  let [k2, n] = b.dims as [number, number];
  let bv: ArrayLike<number> = numbers(b);
  if (transB) {
    bv = transpose2(bv, k2, n);
    [k2, n] = [n, k2];
  }
  if (k !== k2) fail(`Gemm: inner dimensions differ (${k} and ${k2})`);
  const out = a.dtype === DT.FLOAT ? floats32(m * n) : floats64(m * n);
  gemm(av, 0, bv, 0, out, 0, m, k, n);
  if (alpha !== 1) for (let i = 0; i < out.length; i++) out[i]! *= alpha;
  if (c && beta !== 0) {
    const cv = numbers(c);
    const cd = c.dims;
    const rows = cd.length === 2 ? cd[0]! : 1;
    const cols = cd.length >= 1 ? cd[cd.length - 1]! : 1;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) out[i * n + j]! += beta * cv[(rows === 1 ? 0 : i) * cols + (cols === 1 ? 0 : j)]!;
    }
  }
  if (a.dtype === DT.FLOAT) return tensor(DT.FLOAT, [m, n], out as Float32Array);
  return fromNumbers(a.dtype, [m, n], out);
}

function zeroPointShift(x: Tensor, zp: Tensor | undefined, axisLen: number, perRowAxis: "row" | "col"): Float64Array {
  const v = numbers(x);
  const out = Float64Array.from(v);
  if (!zp) return out;
  const z = numbers(zp);
  const cols = x.dims[x.dims.length - 1]!;
  for (let i = 0; i < out.length; i++) {
    const idx = z.length === 1 ? 0 : perRowAxis === "row" ? Math.floor(i / cols) % axisLen : i % cols;
    out[i] = out[i]! - z[idx]!;
  }
  return out;
}

function einsum(equation: string, inputs: Tensor[]): Tensor {
  const eq = equation.replace(/\s+/g, "");
  const [lhs, rhsGiven] = eq.split("->") as [string, string | undefined];
  const terms = lhs.split(",");
  if (terms.length !== inputs.length) fail("Einsum: the equation does not match the inputs");
  // expand ellipsis into unused capital letters
  const ellLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let ellRank = 0;
  terms.forEach((term, i) => {
    if (term.includes("...")) ellRank = Math.max(ellRank, inputs[i]!.dims.length - (term.length - 3));
  });
  const ell = ellLetters.slice(0, ellRank);
  const expanded = terms.map((term, i) => {
    if (!term.includes("...")) return term;
    const r = inputs[i]!.dims.length - (term.length - 3);
    return term.replace("...", ell.slice(ellRank - r));
  });
  const sizes = new Map<string, number>();
  expanded.forEach((term, i) => {
    [...term].forEach((ch, j) => {
      const d = inputs[i]!.dims[j]!;
      const prev = sizes.get(ch);
      if (prev === undefined || prev === 1) sizes.set(ch, d);
    });
  });
  let rhs: string;
  if (rhsGiven !== undefined) rhs = rhsGiven.replace("...", ell);
  else {
    const counts = new Map<string, number>();
    for (const term of expanded) for (const ch of term) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    rhs =
      ell +
      [...counts.keys()]
        .filter((c) => counts.get(c) === 1 && !ell.includes(c))
        .sort()
        .join("");
  }
  const letters = [...sizes.keys()];
  const outDims = [...rhs].map((c) => sizes.get(c)!);
  const vals = inputs.map((x) => numbers(x));
  const strides = expanded.map((term, i) => {
    const st = stridesOf(inputs[i]!.dims);
    return letters.map((l) => {
      let s = 0;
      [...term].forEach((ch, j) => {
        if (ch === l && inputs[i]!.dims[j] !== 1) s += st[j]!;
      });
      return s;
    });
  });
  const out = floats64(sizeOf(outDims));
  const outStr = stridesOf(outDims);
  const outLetterStride = letters.map((l) => {
    const j = rhs.indexOf(l);
    return j < 0 ? 0 : outStr[j]!;
  });
  const dims = letters.map((l) => sizes.get(l)!);
  const total = sizeOf(dims);
  const pos = new Array<number>(letters.length).fill(0);
  for (let it = 0; it < total; it++) {
    if ((it & 0xffff) === 0) pollRun();
    let prod = 1;
    for (let i = 0; i < vals.length; i++) {
      let off = 0;
      for (let l = 0; l < letters.length; l++) off += pos[l]! * strides[i]![l]!;
      prod *= vals[i]![off]!;
    }
    let o = 0;
    for (let l = 0; l < letters.length; l++) o += pos[l]! * outLetterStride[l]!;
    out[o]! += prod;
    for (let l = letters.length - 1; l >= 0; l--) {
      if (++pos[l]! < dims[l]!) break;
      pos[l] = 0;
    }
  }
  return fromNumbers(inputs[0]!.dtype, outDims, out);
}

export function registerLinalg(r: Registry): void {
  r.register("MatMul", ([a, b]) => [matmul(t(a), t(b))]);
  r.register("Gemm", ([a, b, c], ctx) => [
    gemmOp(
      t(a),
      t(b),
      c === undefined ? undefined : t(c),
      ctx.attrs.float("alpha", 1),
      ctx.attrs.float("beta", 1),
      ctx.attrs.int("transA", 0) === 1,
      ctx.attrs.int("transB", 0) === 1,
    ),
  ]);
  r.register("MatMulInteger", ([a, b, za, zb]) => {
    const x = t(a);
    const y = t(b);
    const av = zeroPointShift(x, za === undefined ? undefined : t(za), x.dims[x.dims.length - 2] ?? 1, "row");
    const bv = zeroPointShift(y, zb === undefined ? undefined : t(zb), y.dims[y.dims.length - 1]!, "col");
    const res = matmul(tensor(DT.DOUBLE, x.dims, av), tensor(DT.DOUBLE, y.dims, bv), DT.DOUBLE);
    return [fromNumbers(DT.INT32, res.dims, res.data as Float64Array)];
  });
  r.register("Einsum", (inputs, ctx) => [
    einsum(
      ctx.attrs.string("equation", ""),
      inputs.map((v) => t(v)),
    ),
  ]);
}
