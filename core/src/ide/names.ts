// How a name is written in the text: a bare identifier when it can be, otherwise quoted.
import { DATA_TYPES } from "../../../proto/src/index.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Words that start a type where a value name may also stand, so a bare one would misparse. */
export const TYPE_KEYWORDS: readonly string[] = [
  ...DATA_TYPES.map((d) => d.name),
  "seq",
  "map",
  "optional",
  "sparse_tensor",
  "opaque",
];
const TYPE_WORDS = new Set(TYPE_KEYWORDS);

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** True when `name` cannot be written bare in a quotable name position. */
export function needsQuotes(name: string): boolean {
  return !isIdentifier(name) || TYPE_WORDS.has(name);
}

/** A string literal with `"` and `\` escaped (the syntax has no other escapes). */
export function quote(name: string): string {
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The text for a name in a position that allows quoting. */
export function writeName(name: string): string {
  return needsQuotes(name) ? quote(name) : name;
}

/** The edit distance between two names, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}
