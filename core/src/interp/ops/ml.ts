// The ai.onnx.ml kernels the tests use: Binarizer, ArrayFeatureExtractor, LabelEncoder.
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, intList, numbers, tensor, type Value } from "../value.js";
import { t } from "./util.js";

const ML = "ai.onnx.ml";

function labelEncoder([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const at = ctx.attrs;
  const keyTensor = at.tensor("keys_tensor");
  const valueTensor = at.tensor("values_tensor");
  const keys: (string | number)[] =
    at.strings("keys_strings") ?? at.raw("keys_int64s")?.ints.map(Number) ?? at.floats("keys_floats") ?? (keyTensor ? Array.from(keyTensor.data as ArrayLike<number | string>, (v) => (typeof v === "bigint" ? Number(v) : v)) : []);
  let outType: number;
  let values: (string | number)[];
  let dflt: string | number;
  if (at.has("values_strings")) {
    outType = DT.STRING;
    values = at.strings("values_strings")!;
    dflt = at.string("default_string", "_Unused");
  } else if (at.has("values_int64s")) {
    outType = DT.INT64;
    values = at.raw("values_int64s")!.ints.map(Number);
    dflt = at.int("default_int64", -1);
  } else if (at.has("values_floats")) {
    outType = DT.FLOAT;
    values = at.floats("values_floats")!;
    dflt = at.float("default_float", -0);
  } else if (valueTensor) {
    outType = valueTensor.dtype;
    values = Array.from(valueTensor.data as ArrayLike<number | string>, (v) => (typeof v === "bigint" ? Number(v) : v));
    const d = at.tensor("default_tensor");
    dflt = d ? (typeof d.data[0] === "bigint" ? Number(d.data[0]) : (d.data[0] as number | string)) : outType === DT.STRING ? "_Unused" : outType === DT.INT64 ? -1 : -0;
  } else return [a];
  const table = new Map<string | number, string | number>();
  keys.forEach((k, i) => table.set(k, values[i]!));
  const src = a.dtype === DT.STRING ? (a.data as string[]) : Array.from(numbers(a));
  const mapped = src.map((k) => (typeof k === "number" && Number.isNaN(k) ? ([...table.entries()].find(([kk]) => Number.isNaN(kk as number))?.[1] ?? dflt) : (table.get(k) ?? dflt)));
  if (outType === DT.STRING) return [tensor(DT.STRING, a.dims, mapped.map(String))];
  return [fromNumbers(outType, a.dims, mapped.map(Number))];
}

export function registerML(r: Registry): void {
  r.register("Binarizer", ([x], ctx) => {
    const a = t(x);
    const th = ctx.attrs.float("threshold", 0);
    return [fromNumbers(a.dtype, a.dims, Array.from(numbers(a), (v) => (v > th ? 1 : 0)))];
  }, { domain: ML });
  r.register("ArrayFeatureExtractor", ([x, y]) => {
    const a = t(x);
    const idx = intList(t(y));
    const last = a.dims[a.dims.length - 1]!;
    const outer = a.data.length / last;
    const out = tensor(a.dtype, a.dims.length === 1 ? [1, idx.length] : [...a.dims.slice(0, -1), idx.length]);
    const src = a.data as unknown as unknown[];
    const dst = out.data as unknown as unknown[];
    for (let o = 0; o < outer; o++) idx.forEach((k, j) => (dst[o * idx.length + j] = src[o * last + k]));
    return [out];
  }, { domain: ML });
  r.register("LabelEncoder", labelEncoder, { domain: ML });
}

