// How names and strings are spelled: bare when the syntax allows it, otherwise quoted with
// the only escapes the syntax knows (`\"` and `\\`).
import { DATA_TYPES } from "../../../proto/src/index.js";

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Words that start a type or a float literal where a value may also be a name. */
const RESERVED = new Set<string>([
  ...DATA_TYPES.map((d) => d.name),
  "seq",
  "map",
  "optional",
  "sparse_tensor",
  "opaque",
]);

const FLOAT_WORDS = /^(inf|infinity|nan)$/i;

export function isIdentifier(s: string): boolean {
  return IDENT.test(s);
}

export function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

/**
 * A name in a quotable position. Names that read as a type or a float word are quoted too,
 * since an untyped value called `float` would otherwise start a type.
 */
export function nameText(s: string): string {
  return IDENT.test(s) && !RESERVED.has(s) && !FLOAT_WORDS.test(s) ? s : quote(s);
}

/** True when `s` can stand bare where the grammar takes only an identifier. */
export function isPlainWord(s: string): boolean {
  return IDENT.test(s);
}

/** True when a subgraph name can follow `attr =` (graph names there cannot be quoted). */
export function isBareGraphName(s: string): boolean {
  return IDENT.test(s) && !RESERVED.has(s) && !FLOAT_WORDS.test(s);
}
