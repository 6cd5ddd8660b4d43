// Reads a tensor constant as the server prints it (`float[2,3] {1, 2, 3, 4, 5, 6}`) into
// element type, dims and element texts, for the table view. Anything else (sequences, maps,
// symbolic dims) is left to the plain-text view.

export interface TensorText {
  readonly elemType: string;
  /** Empty for a scalar. */
  readonly dims: readonly number[];
  /** Each element exactly as printed (numbers, or quoted strings with their quotes). */
  readonly values: readonly string[];
}

const HEAD = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*)?=?\s*\{/;

/** Splits the inside of `{...}` at top-level commas; quoted strings may hold commas and braces. */
function splitElements(body: string): string[] | undefined {
  const out: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ",") {
      out.push(body.slice(start, i).trim());
      start = i + 1;
    } else if (c === "{" || c === "}") return undefined;
  }
  if (inString) return undefined;
  const last = body.slice(start).trim();
  if (last !== "" || out.length > 0) out.push(last);
  return out.some((v) => v === "") ? undefined : out;
}

export function parseTensorText(text: string): TensorText | undefined {
  const head = HEAD.exec(text);
  if (!head) return undefined;
  const close = text.lastIndexOf("}");
  if (close < head[0].length - 1 || text.slice(close + 1).trim() !== "") return undefined;
  const dimText = head[2];
  const dims: number[] = [];
  if (dimText !== undefined) {
    if (dimText.trim() === "") return undefined; // unknown rank
    for (const d of dimText.split(",")) {
      const n = Number(d.trim());
      if (!/^\s*\d+\s*$/.test(d) || !Number.isSafeInteger(n)) return undefined;
      dims.push(n);
    }
  }
  const values = splitElements(text.slice(head[0].length, close));
  if (!values) return undefined;
  const count = dims.reduce((a, b) => a * b, 1);
  const elemType = head[1]!;
  // Complex elements are printed as real, imaginary pairs.
  if ((elemType === "complex64" || elemType === "complex128") && values.length === 2 * count) {
    return { elemType, dims, values: Array.from({ length: count }, (_, i) => complexText(values[2 * i]!, values[2 * i + 1]!)) };
  }
  if (values.length !== count) return undefined;
  return { elemType, dims, values };
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
