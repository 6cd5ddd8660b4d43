// Runtime values as tensor constants of the text syntax (`float[2] {4, 6}`), and tensor
// constants read back into values.
import { hasErrors } from "../../../grammar/src/diagnostics.js";
import { parseTensorConstant } from "../../../grammar/src/index.js";
import { dataTypeInfo } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/index.js";
import { DT, getElement, tensorFromProto, type Tensor, type Value } from "../interp/index.js";
import { lowerTensorConstant } from "../lower/index.js";
import { formatFloat32, formatFloat64 } from "../numbers/float-text.js";
import { quote } from "../../../grammar/src/names.js";

function elementText(t: Tensor, i: number): string {
  if (t.dtype === DT.COMPLEX64 || t.dtype === DT.COMPLEX128) {
    const v = t.data[i] as number;
    return t.dtype === DT.COMPLEX64 ? formatFloat32(v) : formatFloat64(v);
  }
  const v = getElement(t, i);
  if (typeof v === "string") return quote(v);
  if (typeof v === "bigint") return v.toString();
  if (t.dtype === DT.FLOAT) return formatFloat32(v);
  return Number.isInteger(v) && !Object.is(v, -0) ? String(v) : formatFloat64(v);
}

/** The type part of a tensor constant: `float[2, 3]`, or `float` for a scalar. */
export function tensorTypeText(t: Tensor): string {
  const elem = dataTypeInfo(t.dtype)?.name ?? `type${t.dtype}`;
  return t.dims.length === 0 ? elem : `${elem}[${t.dims.join(", ")}]`;
}

/**
 * A value as text. Tensors with more than `maxElements` elements are cut short with `...`
 * (the result is then a preview, not a constant that parses).
 */
export function valueText(v: Value, maxElements = Infinity): string {
  switch (v.kind) {
    case "tensor": {
      const n = v.dtype === DT.COMPLEX64 || v.dtype === DT.COMPLEX128 ? v.data.length : v.dims.reduce((a, b) => a * b, 1);
      const shown = Math.min(n, maxElements);
      const parts: string[] = [];
      for (let i = 0; i < shown; i++) parts.push(elementText(v, i));
      if (shown < n) parts.push(`... (${n} elements)`);
      return `${tensorTypeText(v)} {${parts.join(", ")}}`;
    }
    case "sequence":
      return `seq [${v.items.map((x) => valueText(x, maxElements)).join(", ")}]`;
    case "optional":
      return v.value ? `optional (${valueText(v.value, maxElements)})` : "optional (none)";
    case "map":
      return `map [${v.keys.length} keys] ${valueText(v.values, maxElements)}`;
  }
}

/** The type of a value in the text syntax, for run results. */
export function valueTypeOf(v: Value): string {
  switch (v.kind) {
    case "tensor":
      return tensorTypeText(v);
    case "sequence":
      return `seq(${v.items[0] ? valueTypeOf(v.items[0]) : "?"})`;
    case "optional":
      return `optional(${v.value ? valueTypeOf(v.value) : "?"})`;
    case "map":
      return `map(${dataTypeInfo(v.keyType)?.name ?? "?"}, ${valueTypeOf(v.values)})`;
  }
}

/** Reads a tensor constant such as `float[2] {1, 2}`; throws OnnxtxtError with the reason. */
export function parseTensorText(text: string): Tensor {
  const parsed = parseTensorConstant(text);
  const firstError = (ds: readonly { severity: string; message: string }[]) => ds.find((d) => d.severity === "error")?.message;
  if (!parsed.ast || hasErrors(parsed.diagnostics)) {
    throw new OnnxtxtError(`not a tensor constant (${firstError(parsed.diagnostics) ?? "nothing parsed"}): ${text}`);
  }
  const lowered = lowerTensorConstant(parsed.ast, text);
  if (hasErrors(lowered.diagnostics) || !lowered.result) {
    throw new OnnxtxtError(`not a tensor constant (${firstError(lowered.diagnostics) ?? "no tensor type"}): ${text}`);
  }
  return tensorFromProto(lowered.result);
}
