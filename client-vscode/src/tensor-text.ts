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
  if (values.length !== count) return undefined;
  return { elemType: head[1]!, dims, values };
}

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}
