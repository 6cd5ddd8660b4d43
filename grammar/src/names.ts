// How names and strings are spelled: bare when the syntax allows it, otherwise quoted with
// the only escapes the syntax knows (`\"` and `\\`).
import { isTypeStart } from "./keywords.js";

/** `[A-Za-z_][A-Za-z0-9_]*` by character codes: names are checked once per raised name. */
function identifierLike(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 32; // folds A-Z onto a-z
    const ok = (lower >= 97 && lower <= 122) || c === 95 || (i > 0 && c >= 48 && c <= 57);
    if (!ok) return false;
  }
  return true;
}

const FLOAT_WORDS = /^(inf|infinity|nan)$/i;

function isFloatWord(s: string): boolean {
  return (s.length === 3 || s.length === 8) && FLOAT_WORDS.test(s);
}

export function isIdentifier(s: string): boolean {
  return identifierLike(s);
}

export function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

/**
 * A name in a quotable position. Names that read as a type or a float word are quoted too,
 * since an untyped value called `float` would otherwise start a type.
 */
export function nameText(s: string): string {
  return identifierLike(s) && !isTypeStart(s) && !isFloatWord(s) ? s : quote(s);
}

/** True when `s` can stand bare where the grammar takes only an identifier. */
export function isPlainWord(s: string): boolean {
  return identifierLike(s);
}

/** True when a subgraph name can follow `attr =` (graph names there cannot be quoted). */
export function isBareGraphName(s: string): boolean {
  return identifierLike(s) && !isTypeStart(s) && !isFloatWord(s);
}
