// Elementwise kernels: unary math, binary arithmetic with broadcasting, comparisons,
// logic and variadic Max/Min/Sum/Mean.
import type { Kernel, KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, isBigType, numbers, reshaped, tensor, type Tensor, type Value, floats64, floats32 } from "../value.js";
import { at, broadcastIndex, broadcastShapes, fail, t } from "./util.js";

type F1 = (x: number) => number;
type F2 = (x: number, y: number) => number;
type B2 = (x: bigint, y: bigint) => bigint;

/** Applies f to every element; float32 stays on Float32Array, other types go through doubles. */
function mapUnary(x: Tensor, f: F1, outType = x.dtype): Tensor {
  const n = x.data.length;
  if (x.dtype === DT.FLOAT && outType === DT.FLOAT) {
    const src = x.data as Float32Array;
    const out = floats32(n);
    for (let i = 0; i < n; i++) out[i] = f(src[i]!);
    return tensor(DT.FLOAT, x.dims, out);
  }
  const src = numbers(x);
  const out = floats64(n);
  for (let i = 0; i < n; i++) out[i] = f(src[i]!);
  return fromNumbers(outType, x.dims, out);
}

export function unary(f: F1, intF?: F1): Kernel {
  return ([x]) => {
    const a = t(x);
    const isInt = a.dtype !== DT.FLOAT && a.dtype !== DT.DOUBLE && a.dtype !== DT.FLOAT16 && a.dtype !== DT.BFLOAT16;
    return [mapUnary(a, isInt && intF ? intF : f)];
  };
}

/** Unary kernel whose function depends on attributes. */
function unaryAttr(make: (ctx: KernelContext) => F1): Kernel {
  return ([x], ctx) => [mapUnary(t(x), make(ctx))];
}

function mapBinary(a: Tensor, b: Tensor, f: F2, outType: number, big?: B2): Tensor {
  const dims = broadcastShapes(a.dims, b.dims);
  const out = tensor(outType, dims);
  const n = out.data.length;
  const ia = broadcastIndex(dims, a.dims);
  const ib = broadcastIndex(dims, b.dims);
  if (big && isBigType(a.dtype) && isBigType(b.dtype) && isBigType(outType)) {
    const da = a.data as BigInt64Array;
    const db = b.data as BigInt64Array;
    const o = out.data as BigInt64Array;
    const wrap = outType === DT.INT64 ? (v: bigint) => BigInt.asIntN(64, v) : (v: bigint) => BigInt.asUintN(64, v);
    for (let i = 0; i < n; i++) o[i] = wrap(big(da[at(ia, i)]!, db[at(ib, i)]!));
    return out;
  }
  const xa = numbers(a);
  const xb = numbers(b);
  if (
    outType === DT.FLOAT ||
    outType === DT.BOOL ||
    outType === DT.DOUBLE ||
    outType === DT.INT32 ||
    outType === DT.UINT8 ||
    outType === DT.INT8 ||
    outType === DT.INT16 ||
    outType === DT.UINT16 ||
    outType === DT.UINT32
  ) {
    const o = out.data as Float32Array;
    if (ia.kind === "same" && ib.kind === "same") for (let i = 0; i < n; i++) o[i] = f(xa[i]!, xb[i]!);
    else if (ia.kind === "same" && ib.kind === "scalar") {
      const y = xb[0]!;
      for (let i = 0; i < n; i++) o[i] = f(xa[i]!, y);
    } else if (ia.kind === "same" && ib.kind === "mod") {
      const m = ib.size;
      for (let i = 0; i < n; i++) o[i] = f(xa[i]!, xb[i % m]!);
    } else for (let i = 0; i < n; i++) o[i] = f(xa[at(ia, i)]!, xb[at(ib, i)]!);
    return out;
  }
  const tmp = floats64(n);
  for (let i = 0; i < n; i++) tmp[i] = f(xa[at(ia, i)]!, xb[at(ib, i)]!);
  return fromNumbers(outType, dims, tmp);
}

function isIntType(dtype: number): boolean {
  return !(dtype === DT.FLOAT || dtype === DT.DOUBLE || dtype === DT.FLOAT16 || dtype === DT.BFLOAT16 || dtype === DT.STRING);
}

function binary(f: F2, big?: B2, intF?: F2): Kernel {
  return ([x, y]) => {
    const a = t(x);
    const b = t(y);
    return [mapBinary(a, b, intF && isIntType(a.dtype) ? intF : f, a.dtype, big)];
  };
}

function compare(f: F2, str?: (x: string, y: string) => boolean): Kernel {
  return ([x, y]) => {
    const a = t(x);
    const b = t(y);
    if (a.dtype === DT.STRING) {
      if (!str) fail("string inputs are not supported");
      const dims = broadcastShapes(a.dims, b.dims);
      const out = tensor(DT.BOOL, dims);
      const ia = broadcastIndex(dims, a.dims);
      const ib = broadcastIndex(dims, b.dims);
      const sa = a.data as string[];
      const sb = b.data as string[];
      const o = out.data as Uint8Array;
      for (let i = 0; i < o.length; i++) o[i] = str(sa[at(ia, i)]!, sb[at(ib, i)]!) ? 1 : 0;
      return [out];
    }
    if (isBigType(a.dtype) && isBigType(b.dtype)) {
      const dims = broadcastShapes(a.dims, b.dims);
      const out = tensor(DT.BOOL, dims);
      const ia = broadcastIndex(dims, a.dims);
      const ib = broadcastIndex(dims, b.dims);
      const da = a.data as BigInt64Array;
      const db = b.data as BigInt64Array;
      const o = out.data as Uint8Array;
      for (let i = 0; i < o.length; i++) {
        const p = da[at(ia, i)]!;
        const q = db[at(ib, i)]!;
        o[i] = f(p < q ? -1 : p > q ? 1 : 0, 0);
      }
      return [out];
    }
    return [mapBinary(a, b, f, DT.BOOL)];
  };
}

function variadic(f: F2, big?: B2, finish?: (acc: Tensor, count: number) => Tensor): Kernel {
  return (inputs) => {
    const ts = inputs.filter((v): v is Value => v !== undefined).map((v) => t(v));
    if (ts.length === 0) fail("needs at least one input");
    let acc = ts[0]!;
    if (ts.length === 1) acc = mapUnary(acc, (x) => x);
    for (let i = 1; i < ts.length; i++) acc = mapBinary(acc, ts[i]!, f, acc.dtype, big);
    return [finish ? finish(acc, ts.length) : acc];
  };
}

function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Abramowitz-Stegun is too coarse; this series/continued fraction is accurate to ~1e-15. */
export function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2.5) {
    // Taylor series
    let sum = x;
    let term = x;
    const x2 = x * x;
    for (let n = 1; n < 100; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  if (ax > 6) return Math.sign(x);
  // continued fraction for erfc
  let f = 0;
  for (let n = 60; n >= 1; n--) f = n / 2 / (ax + f);
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / (ax + f);
  return Math.sign(x) * (1 - erfc);
}

function bitWidth(dtype: number): number {
  switch (dtype) {
    case DT.UINT8:
    case DT.INT8:
      return 8;
    case DT.UINT16:
    case DT.INT16:
      return 16;
    default:
      return 32;
  }
}

function wrapBits(v: number, bits: number, signed: boolean): number {
  const m = 2 ** bits;
  let r = ((v % m) + m) % m;
  if (signed && r >= m / 2) r -= m;
  return r;
}

function pyMod(x: number, y: number): number {
  if (y === 0) return NaN;
  const r = x % y;
  return r !== 0 && r < 0 !== y < 0 ? r + y : r;
}

function bigPyMod(x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n;
  const r = x % y;
  return r !== 0n && r < 0n !== y < 0n ? r + y : r;
}

function truncDiv(x: number, y: number): number {
  if (y === 0) return 0;
  return Math.trunc(x / y);
}

export function registerElementwise(r: Registry): void {
  const u = (name: string, f: F1, intF?: F1) => r.register(name, unary(f, intF));
  u("Abs", Math.abs);
  u("Neg", (x) => -x);
  u("Sqrt", Math.sqrt);
  u("Exp", Math.exp);
  u("Log", Math.log);
  u("Reciprocal", (x) => 1 / x);
  u("Sin", Math.sin);
  u("Cos", Math.cos);
  u("Tan", Math.tan);
  u("Asin", Math.asin);
  u("Acos", Math.acos);
  u("Atan", Math.atan);
  u("Sinh", Math.sinh);
  u("Cosh", Math.cosh);
  u("Asinh", Math.asinh);
  u("Acosh", Math.acosh);
  u("Atanh", Math.atanh);
  u("Sigmoid", (x) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x))));
  u("Tanh", Math.tanh);
  u("Relu", (x) => (x > 0 ? x : 0));
  u("Floor", Math.floor);
  u("Ceil", Math.ceil);
  u("Round", roundHalfEven);
  u("Erf", erf);
  u("Sign", (x) => (Number.isNaN(x) ? NaN : Math.sign(x)));
  u("Softsign", (x) => x / (1 + Math.abs(x)));
  u("Softplus", (x) => (x > 30 ? x : Math.log1p(Math.exp(x))));
  u("Mish", (x) => x * Math.tanh(x > 30 ? x : Math.log1p(Math.exp(x))));
  r.register("Not", ([x]) => [mapUnary(t(x), (v) => (v ? 0 : 1))]);
  r.register("BitwiseNot", ([x]) => {
    const a = t(x);
    if (isBigType(a.dtype)) {
      const out = tensor(a.dtype, a.dims);
      const s = a.data as BigInt64Array;
      const o = out.data as BigInt64Array;
      for (let i = 0; i < s.length; i++) o[i] = ~s[i]!;
      return [out];
    }
    return [mapUnary(a, (v) => ~v)];
  });
  r.register("IsNaN", ([x]) => [mapUnary(t(x), (v) => (Number.isNaN(v) ? 1 : 0), DT.BOOL)]);
  r.register("IsInf", ([x], ctx) => {
    const pos = ctx.attrs.int("detect_positive", 1);
    const neg = ctx.attrs.int("detect_negative", 1);
    return [mapUnary(t(x), (v) => ((v === Infinity && pos) || (v === -Infinity && neg) ? 1 : 0), DT.BOOL)];
  });
  r.register(
    "LeakyRelu",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 0.01);
      return (x) => (x >= 0 ? x : alpha * x);
    }),
  );
  r.register(
    "Elu",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 1);
      return (x) => (x >= 0 ? x : alpha * (Math.exp(x) - 1));
    }),
  );
  r.register(
    "Celu",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 1);
      return (x) => Math.max(0, x) + Math.min(0, alpha * (Math.exp(x / alpha) - 1));
    }),
  );
  r.register(
    "Selu",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 1.67326319217681884765625);
      const gamma = c.attrs.float("gamma", 1.05070102214813232421875);
      return (x) => (x > 0 ? gamma * x : gamma * (alpha * Math.exp(x) - alpha));
    }),
  );
  r.register(
    "HardSigmoid",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 0.2);
      const beta = c.attrs.float("beta", 0.5);
      return (x) => Math.max(0, Math.min(1, alpha * x + beta));
    }),
  );
  r.register(
    "HardSwish",
    unary((x) => x * Math.max(0, Math.min(1, x / 6 + 0.5))),
  );
  r.register(
    "ThresholdedRelu",
    unaryAttr((c) => {
      const alpha = c.attrs.float("alpha", 1);
      return (x) => (x > alpha ? x : 0);
    }),
  );
  r.register(
    "Shrink",
    unaryAttr((c) => {
      const lambd = c.attrs.float("lambd", 0.5);
      const bias = c.attrs.float("bias", 0);
      return (x) => (x < -lambd ? x + bias : x > lambd ? x - bias : 0);
    }),
  );
  r.register(
    "Gelu",
    unaryAttr((c) => {
      if (c.attrs.string("approximate", "none") === "tanh") {
        return (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
      }
      return (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));
    }),
  );

  r.register(
    "Add",
    binary(
      (x, y) => x + y,
      (x, y) => x + y,
    ),
  );
  r.register(
    "Sub",
    binary(
      (x, y) => x - y,
      (x, y) => x - y,
    ),
  );
  r.register(
    "Mul",
    binary(
      (x, y) => x * y,
      (x, y) => x * y,
      Math.imul,
    ),
  );
  r.register(
    "Div",
    binary(
      (x, y) => x / y,
      (x, y) => (y === 0n ? 0n : x / y),
      truncDiv,
    ),
  );
  r.register("Pow", ([x, y]) => {
    const a = t(x);
    return [mapBinary(a, t(y), (p, q) => Math.pow(p, q), a.dtype)];
  });
  r.register("Mod", ([x, y], ctx) => {
    const a = t(x);
    const fmod = ctx.attrs.int("fmod", 0) === 1;
    if (fmod)
      return [
        mapBinary(
          a,
          t(y),
          (p, q) => p % q,
          a.dtype,
          (p, q) => (q === 0n ? 0n : p % q),
        ),
      ];
    return [mapBinary(a, t(y), pyMod, a.dtype, bigPyMod)];
  });
  r.register("PRelu", ([x, s]) => {
    const a = t(x);
    let slope = t(s);
    // before opset 7 a 1-d slope ran along the channel axis
    if (slope.dims.length === 1 && a.dims.length > 2 && slope.dims[0] === a.dims[1] && slope.dims[0] !== a.dims[a.dims.length - 1]) {
      slope = reshaped(slope, [slope.dims[0]!, ...a.dims.slice(2).map(() => 1)]);
    }
    return [mapBinary(a, slope, (p, q) => (p < 0 ? p * q : p), a.dtype)];
  });
  r.register("BitShift", ([x, y], ctx) => {
    const a = t(x);
    const left = ctx.attrs.string("direction", "") === "LEFT";
    const bits = bitWidth(a.dtype);
    const signed = a.dtype === DT.INT8 || a.dtype === DT.INT16 || a.dtype === DT.INT32;
    // shifts outside [0, width) give 0, or the sign (-1) for a right shift of a negative value
    const f: F2 = (p, q) => {
      if (q < 0 || q >= bits) return !left && signed && p < 0 ? -1 : 0;
      if (left) return wrapBits(p * 2 ** q, bits, signed);
      return Math.floor(p / 2 ** q);
    };
    return [mapBinary(a, t(y), f, a.dtype, (p, q) => (q < 0n || q >= 64n ? (!left && p < 0n ? -1n : 0n) : left ? p << q : p >> q))];
  });
  const bitwise = (name: string, f: F2, big: B2) => r.register(name, ([x, y]) => [mapBinary(t(x), t(y), f, t(x).dtype, big)]);
  bitwise(
    "BitwiseAnd",
    (x, y) => x & y,
    (x, y) => x & y,
  );
  bitwise(
    "BitwiseOr",
    (x, y) => x | y,
    (x, y) => x | y,
  );
  bitwise(
    "BitwiseXor",
    (x, y) => x ^ y,
    (x, y) => x ^ y,
  );
  r.register("And", ([x, y]) => [mapBinary(t(x), t(y), (p, q) => (p && q ? 1 : 0), DT.BOOL)]);
  r.register("Or", ([x, y]) => [mapBinary(t(x), t(y), (p, q) => (p || q ? 1 : 0), DT.BOOL)]);
  r.register("Xor", ([x, y]) => [mapBinary(t(x), t(y), (p, q) => (!p !== !q ? 1 : 0), DT.BOOL)]);
  r.register(
    "Equal",
    compare(
      (x, y) => (x === y ? 1 : 0),
      (x, y) => x === y,
    ),
  );
  r.register(
    "Less",
    compare((x, y) => (x < y ? 1 : 0)),
  );
  r.register(
    "Greater",
    compare((x, y) => (x > y ? 1 : 0)),
  );
  r.register(
    "LessOrEqual",
    compare((x, y) => (x <= y ? 1 : 0)),
  );
  r.register(
    "GreaterOrEqual",
    compare((x, y) => (x >= y ? 1 : 0)),
  );
  const nanMax: F2 = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN : x > y ? x : y);
  const nanMin: F2 = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN : x < y ? x : y);
  r.register(
    "Max",
    variadic(nanMax, (x, y) => (x > y ? x : y)),
  );
  r.register(
    "Min",
    variadic(nanMin, (x, y) => (x < y ? x : y)),
  );
  r.register(
    "Sum",
    variadic(
      (x, y) => x + y,
      (x, y) => x + y,
    ),
  );
  r.register(
    "Mean",
    variadic(
      (x, y) => x + y,
      undefined,
      (acc, n) => mapUnary(acc, (v) => v / n),
    ),
  );
}
