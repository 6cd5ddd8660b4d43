// String kernels: StringNormalizer, TfIdfVectorizer, and the string ops of newer opsets.
import { claimBytes } from "../budget.js";
import type { KernelContext, Registry } from "../registry.js";
import { DT, fromNumbers, intList, tensor, type Value, floats64 } from "../value.js";
import { fail, t } from "./util.js";
import { maxOf } from "../../arrays.js";

function stringNormalizer([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const action = ctx.attrs.string("case_change_action", "NONE");
  const caseSensitive = ctx.attrs.int("is_case_sensitive", 0) === 1;
  const stop = ctx.attrs.strings("stopwords") ?? [];
  const stopSet = new Set(caseSensitive ? stop : stop.map((s) => s.toLowerCase()));
  const src = a.data as string[];
  let kept = src.filter((s) => !stopSet.has(caseSensitive ? s : s.toLowerCase()));
  if (action === "LOWER") kept = kept.map((s) => s.toLowerCase());
  else if (action === "UPPER") kept = kept.map((s) => s.toUpperCase());
  if (kept.length === 0) kept = [""];
  const dims = a.dims.length === 2 ? [1, kept.length] : [kept.length];
  return [tensor(DT.STRING, dims, kept)];
}

function tfIdf([x]: readonly (Value | undefined)[], ctx: KernelContext): Value[] {
  const a = t(x);
  const at = ctx.attrs;
  const minN = at.int("min_gram_length") ?? fail("TfIdfVectorizer: no min_gram_length");
  const maxN = at.int("max_gram_length") ?? fail("TfIdfVectorizer: no max_gram_length");
  const maxSkip = at.int("max_skip_count", 0);
  const mode = at.string("mode", "TF");
  const counts = at.ints("ngram_counts") ?? [];
  const indexes = at.ints("ngram_indexes") ?? [];
  const weights = at.floats("weights");
  const poolStrings = at.strings("pool_strings");
  const poolInts = at.raw("pool_int64s")?.ints.map(String);
  const pool = poolStrings ?? poolInts ?? [];
  // map "n-gram as joined tokens" -> output index
  const table = new Map<string, number>();
  let k = 0;
  for (let n = 1; n <= counts.length; n++) {
    const start = counts[n - 1]!;
    const end = n < counts.length ? counts[n]! : pool.length;
    for (let p = start; p < end; p += n) table.set(`${n}|${pool.slice(p, p + n).join("\u0000")}`, indexes[k++]!);
  }
  const outLen = maxOf(indexes, 0) + 1;
  const rows = a.dims.length === 2 ? a.dims[0]! : 1;
  const cols = a.dims[a.dims.length - 1] ?? 0;
  const tokens = a.dtype === DT.STRING ? (a.data as string[]) : intList(a).map(String);
  const out = floats64(rows * outLen);
  for (let r = 0; r < rows; r++) {
    const row = tokens.slice(r * cols, (r + 1) * cols);
    const tf = floats64(outLen);
    for (let n = minN; n <= maxN; n++) {
      const skips = n === 1 ? 0 : maxSkip;
      for (let s = 0; s <= skips; s++) {
        const step = s + 1;
        for (let i = 0; i + (n - 1) * step < row.length; i++) {
          const gram: string[] = [];
          for (let j = 0; j < n; j++) gram.push(row[i + j * step]!);
          const idx = table.get(`${n}|${gram.join("\u0000")}`);
          if (idx !== undefined) tf[idx]!++;
        }
        if (n === 1) break;
      }
    }
    for (let i = 0; i < outLen; i++) {
      const c = tf[i]!;
      const w = weights ? (weights[i] ?? 1) : 1;
      out[r * outLen + i] = mode === "TF" ? c : mode === "IDF" ? (c > 0 ? w : 0) : c * w;
    }
  }
  return [fromNumbers(DT.FLOAT, a.dims.length === 2 ? [rows, outLen] : [outLen], out)];
}

/** The longest string V8 makes (2^29 - 24 UTF-16 units on 64-bit systems). */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

export function registerText(r: Registry): void {
  r.register("StringNormalizer", stringNormalizer);
  r.register("TfIdfVectorizer", tfIdf);
  r.register("StringConcat", ([x, y]) => {
    const a = t(x);
    const b = t(y);
    const sa = a.data as string[];
    const sb = b.data as string[];
    const n = Math.max(sa.length, sb.length);
    // lengths first: a string longer than the engine allows, or all of them past the memory
    // limit, is refused before any is built
    let chars = 0;
    for (let i = 0; i < n; i++) {
      const len = sa[sa.length === 1 ? 0 : i]!.length + sb[sb.length === 1 ? 0 : i]!.length;
      if (len > MAX_STRING_LENGTH) fail(`element ${i} would be ${len} characters long, more than the ${MAX_STRING_LENGTH} a string can hold`);
      chars += len;
    }
    claimBytes(2 * chars, () => `StringConcat's ${n} strings of ${chars} characters`);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(sa[sa.length === 1 ? 0 : i]! + sb[sb.length === 1 ? 0 : i]!);
    return [tensor(DT.STRING, sa.length >= sb.length ? a.dims : b.dims, out)];
  });
}
