// Reads a tensor constant as the server prints it (`float[2,3] {1, 2, 3, 4, 5, 6}`) into
// element type, dims and element texts, for the table view. Anything else (sequences, maps,
// symbolic dims) is left to the plain-text view.
import type { Literal, PackedNumbers } from "../../grammar/src/ast.js";
import { parseTensorConstant } from "../../grammar/src/index.js";

export interface TensorText {
  readonly elemType: string;
  /** Empty for a scalar. */
  readonly dims: readonly number[];
  /** Each element exactly as printed (numbers, or quoted strings with their quotes). */
  readonly values: readonly string[];
}

/** Reads the text with the project's own parser; undefined unless it is a tensor with known dims and data. */
export function parseTensorText(text: string): TensorText | undefined {
  const { ast, diagnostics } = parseTensorConstant(text);
  if (!ast || diagnostics.length > 0 || ast.type.kind !== "TensorType" || ast.data?.kind !== "InlineData") return undefined;
  const shape = ast.type.shape;
  if (shape && shape.dims.length === 0) return undefined; // `float[]`: unknown rank
  const dims: number[] = [];
  for (const d of shape?.dims ?? []) {
    if (d.value?.kind !== "Int") return undefined;
    dims.push(Number(d.value.value));
  }
  const values = elementTexts(text, ast.data.elements);
  const count = dims.reduce((a, b) => a * b, 1);
  const elemType = ast.type.elem.text;
  // Complex elements are printed as real, imaginary pairs.
  if ((elemType === "complex64" || elemType === "complex128") && values.length === 2 * count) {
    return { elemType, dims, values: Array.from({ length: count }, (_, i) => complexText(values[2 * i]!, values[2 * i + 1]!)) };
  }
  if (values.length !== count) return undefined;
  return { elemType, dims, values };
}

/** Each element as written: literals by their source span, a packed number run split at its commas. */
function elementTexts(text: string, elements: readonly Literal[] | PackedNumbers): string[] {
  if ("kind" in elements) {
    const run = text.slice(elements.span.start, elements.span.end).replace(/^\s*\{|\}\s*$/g, "");
    return run.split(",").map((v) => v.trim());
  }
  return elements.map((l) => text.slice(l.span.start, l.span.end));
}

function complexText(re: string, im: string): string {
  return im.startsWith("-") ? `${re}${im}i` : `${re}+${im}i`;
}

/** `seq [float[2] {1, 2}, int64 {3}]` -> the item texts; undefined for anything else. */
export function parseSequenceText(text: string): string[] | undefined {
  const m = /^\s*seq\s*\[([^]*)\]\s*$/.exec(text);
  if (!m) return undefined;
  const body = m[1]!;
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (c === "," && depth === 0) {
      items.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = body.slice(start).trim();
  if (last !== "") items.push(last);
  return depth === 0 && !inString ? items : undefined;
}

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}
