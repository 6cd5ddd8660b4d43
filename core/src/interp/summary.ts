// One-line summaries of values for `onnxtxt run`: type, shape and the first elements. Floats are
// in the shortest form that reads back to the same value of their type, with an exponent when
// plain digits would be long (3.2075434e+17, not 320754340000000000).
import { formatFloat32 } from "../numbers/float-text.js";
import { DT, encodeElement, getElement, isFloatType, typeLabel, type Value } from "./value.js";

/** The fewest significant digits that encode to the same bits in `dtype` (16- and 8-bit floats). */
function shortestIn(dtype: number, v: number): string {
  const bits = encodeElement(dtype, v);
  for (let p = 1; p < 17; p++) {
    const s = v.toPrecision(p);
    if (encodeElement(dtype, Number(s)) === bits) return String(Number(s));
  }
  return String(v);
}

/** `digits` (a finite number's shortest text) with an exponent when that is shorter. */
function compact(digits: string): string {
  const n = Number(digits);
  if (n === 0 || digits.includes("e")) return digits;
  const abs = Math.abs(n);
  if (abs < 1e16 && abs >= 1e-5) return digits;
  return n.toExponential();
}

function formatElement(v: number | bigint | string, dtype: number = DT.DOUBLE): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return v.toString();
  if (!isFloatType(dtype) && dtype !== DT.COMPLEX64 && dtype !== DT.COMPLEX128) return String(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  if (Object.is(v, -0)) return "-0";
  if (dtype === DT.FLOAT || dtype === DT.COMPLEX64) return compact(formatFloat32(v));
  if (dtype === DT.DOUBLE || dtype === DT.COMPLEX128) return compact(String(v));
  return compact(shortestIn(dtype, v));
}

/** Up to `maxItems` elements (Infinity: all). */
export function summarize(v: Value, maxItems = 8): string {
  switch (v.kind) {
    case "tensor": {
      const n = v.dims.reduce((a, b) => a * b, 1);
      const shown: string[] = [];
      const isComplex = v.data.length === 2 * n && n > 0;
      const fmt = (x: number | bigint | string) => formatElement(x, v.dtype);
      for (let i = 0; i < Math.min(n, maxItems); i++) {
        shown.push(
          isComplex
            ? `${fmt(v.data[2 * i] as number)}${(v.data[2 * i + 1] as number) < 0 ? "-" : "+"}${fmt(Math.abs(v.data[2 * i + 1] as number))}i`
            : fmt(getElement(v, i)),
        );
      }
      return `${typeLabel(v)} {${shown.join(", ")}${n > maxItems ? `, … (${n} values)` : ""}}`;
    }
    case "sequence": {
      const items = Number.isFinite(maxItems) ? 3 : Infinity;
      return `${typeLabel(v)} [${v.items
        .slice(0, items)
        .map((x) => summarize(x, maxItems))
        .join("; ")}${v.items.length > items ? "; …" : ""}]`;
    }
    case "map":
      return `${typeLabel(v)} with ${v.keys.length} keys`;
    case "optional":
      return v.value ? `optional ${summarize(v.value, maxItems)}` : "optional(none)";
  }
}
