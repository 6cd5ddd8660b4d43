// One-line summaries of values for `onnxtxt run`: type, shape and the first elements.
import { getElement, typeLabel, type Value } from "./value.js";

function formatElement(v: number | bigint | string): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return v.toString();
  if (Number.isInteger(v)) return String(v);
  const s = v.toPrecision(6);
  return String(Number(s));
}

export function summarize(v: Value, maxItems = 8): string {
  switch (v.kind) {
    case "tensor": {
      const n = v.dims.reduce((a, b) => a * b, 1);
      const shown: string[] = [];
      const isComplex = v.data.length === 2 * n && n > 0;
      for (let i = 0; i < Math.min(n, maxItems); i++) {
        shown.push(isComplex ? `${formatElement(v.data[2 * i] as number)}${(v.data[2 * i + 1] as number) < 0 ? "-" : "+"}${formatElement(Math.abs(v.data[2 * i + 1] as number))}i` : formatElement(getElement(v, i)));
      }
      return `${typeLabel(v)} {${shown.join(", ")}${n > maxItems ? `, … (${n} values)` : ""}}`;
    }
    case "sequence":
      return `${typeLabel(v)} [${v.items.slice(0, 3).map((x) => summarize(x, maxItems)).join("; ")}${v.items.length > 3 ? "; …" : ""}]`;
    case "map":
      return `${typeLabel(v)} with ${v.keys.length} keys`;
    case "optional":
      return v.value ? `optional ${summarize(v.value, maxItems)}` : "optional(none)";
  }
}
