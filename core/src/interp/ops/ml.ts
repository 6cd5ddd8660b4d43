// The ai.onnx.ml kernels the tests use: Binarizer, ArrayFeatureExtractor, LabelEncoder.
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, intList, numbers, tensor, type Value, floats64 } from "../value.js";
import { t } from "./util.js";
import { maxOf } from "../../arrays.js";

const ML = "ai.onnx.ml";

function labelEncoder([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const at = ctx.attrs;
  const keyTensor = at.tensor("keys_tensor");
  const valueTensor = at.tensor("values_tensor");
  const keys: (string | number)[] =
    at.strings("keys_strings") ??
    at.raw("keys_int64s")?.ints.map(Number) ??
    at.floats("keys_floats") ??
    (keyTensor ? Array.from(keyTensor.data as ArrayLike<number | string>, (v) => (typeof v === "bigint" ? Number(v) : v)) : []);
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
    dflt = d
      ? typeof d.data[0] === "bigint"
        ? Number(d.data[0])
        : (d.data[0] as number | string)
      : outType === DT.STRING
        ? "_Unused"
        : outType === DT.INT64
          ? -1
          : -0;
  } else return [a];
  const table = new Map<string | number, string | number>();
  keys.forEach((k, i) => table.set(k, values[i]!));
  const src = a.dtype === DT.STRING ? (a.data as string[]) : Array.from(numbers(a));
  const mapped = src.map((k) =>
    typeof k === "number" && Number.isNaN(k) ? ([...table.entries()].find(([kk]) => Number.isNaN(kk as number))?.[1] ?? dflt) : (table.get(k) ?? dflt),
  );
  if (outType === DT.STRING) return [tensor(DT.STRING, a.dims, mapped.map(String))];
  return [fromNumbers(outType, a.dims, mapped.map(Number))];
}

/** TreeEnsemble (ai.onnx.ml 5): walks each tree per row and aggregates leaf weights per target. */
function treeEnsemble([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const X = t(x);
  const at = ctx.attrs;
  const tensorNums = (name: string) => {
    const v = at.tensor(name);
    return v ? Array.from(numbers(v)) : [];
  };
  const splits = tensorNums("nodes_splits");
  const modes = tensorNums("nodes_modes");
  const features = at.ints("nodes_featureids") ?? [];
  const trueIds = at.ints("nodes_truenodeids") ?? [];
  const falseIds = at.ints("nodes_falsenodeids") ?? [];
  const trueLeaf = at.ints("nodes_trueleafs") ?? [];
  const falseLeaf = at.ints("nodes_falseleafs") ?? [];
  const leafTargets = at.ints("leaf_targetids") ?? [];
  const leafWeights = tensorNums("leaf_weights");
  const roots = at.ints("tree_roots") ?? [];
  const missingTrue = at.ints("nodes_missing_value_tracks_true");
  const members = tensorNums("membership_values");
  const agg = at.int("aggregate_function", 1);
  const nTargets = at.int("n_targets") ?? maxOf(leafTargets, 0) + 1;
  // the members of each MEMBER node, in node order, separated by NaN in membership_values
  const memberSets = new Map<number, Set<number>>();
  let cursor = 0;
  modes.forEach((m, i) => {
    if (m !== 6) return;
    const set = new Set<number>();
    while (cursor < members.length && !Number.isNaN(members[cursor]!)) set.add(members[cursor++]!);
    cursor++;
    memberSets.set(i, set);
  });
  const [rows, cols] = X.dims.length === 2 ? (X.dims as [number, number]) : [1, X.dims[0]!];
  const xv = numbers(X);
  const goesTrue = (node: number, v: number): boolean => {
    if (Number.isNaN(v) && missingTrue?.[node]) return true;
    const s = splits[node]!;
    switch (modes[node]) {
      case 0:
        return v <= s;
      case 1:
        return v < s;
      case 2:
        return v >= s;
      case 3:
        return v > s;
      case 4:
        return v === s;
      case 5:
        return v !== s;
      default:
        return memberSets.get(node)?.has(v) ?? false;
    }
  };
  const init = agg === 2 ? Infinity : agg === 3 ? -Infinity : 0;
  const out = floats64(rows * nTargets).fill(init);
  for (let r = 0; r < rows; r++) {
    for (const root of roots) {
      let node = root;
      let leaf: number;
      if (trueLeaf[root] && falseLeaf[root] && trueIds[root] === falseIds[root]) leaf = trueIds[root]!;
      else {
        for (;;) {
          const isTrue = goesTrue(node, xv[r * cols + features[node]!]!);
          const next = isTrue ? trueIds[node]! : falseIds[node]!;
          if (isTrue ? trueLeaf[node] : falseLeaf[node]) {
            leaf = next;
            break;
          }
          node = next;
        }
      }
      const o = r * nTargets + leafTargets[leaf]!;
      const w = leafWeights[leaf]!;
      if (agg === 0) out[o]! += w / roots.length;
      else if (agg === 1) out[o]! += w;
      else if (agg === 2) out[o] = Math.min(out[o]!, w);
      else out[o] = Math.max(out[o]!, w);
    }
  }
  return [fromNumbers(X.dtype, [rows, nTargets], out)];
}

export function registerML(r: Registry): void {
  r.register("TreeEnsemble", treeEnsemble, { domain: ML });
  r.register(
    "Binarizer",
    ([x], ctx) => {
      const a = t(x);
      const th = ctx.attrs.float("threshold", 0);
      return [
        fromNumbers(
          a.dtype,
          a.dims,
          Array.from(numbers(a), (v) => (v > th ? 1 : 0)),
        ),
      ];
    },
    { domain: ML },
  );
  r.register(
    "ArrayFeatureExtractor",
    ([x, y]) => {
      const a = t(x);
      const idx = intList(t(y));
      const last = a.dims[a.dims.length - 1]!;
      const outer = a.data.length / last;
      const out = tensor(a.dtype, a.dims.length === 1 ? [1, idx.length] : [...a.dims.slice(0, -1), idx.length]);
      const src = a.data as unknown as unknown[];
      const dst = out.data as unknown as unknown[];
      for (let o = 0; o < outer; o++) idx.forEach((k, j) => (dst[o * idx.length + j] = src[o * last + k]));
      return [out];
    },
    { domain: ML },
  );
  r.register("LabelEncoder", labelEncoder, { domain: ML });
}
