// What the cursor is inside, read from the text itself. Completion and signature help run
// while the user types, when the statement at hand is usually broken, so they look at the
// brackets before the cursor rather than at the tree.

/** How far back to look for the enclosing brackets. */
const WINDOW = 8000;

interface OpenBracket {
  readonly char: "(" | "<" | "[" | "{";
  readonly offset: number;
}

const CLOSER: Record<string, OpenBracket["char"]> = { ")": "(", ">": "<", "]": "[", "}": "{" };

/** The brackets left open before `offset`, outermost first; strings and comments are skipped. */
export function openBrackets(text: string, offset: number): OpenBracket[] {
  let start = Math.max(0, offset - WINDOW);
  if (start > 0) {
    const nl = text.indexOf("\n", start);
    start = nl < 0 || nl > offset ? offset : nl + 1;
  }
  const stack: OpenBracket[] = [];
  for (let i = start; i < offset; i++) {
    const c = text[i]!;
    if (c === "#") {
      const nl = text.indexOf("\n", i);
      if (nl < 0 || nl >= offset) break;
      i = nl;
    } else if (c === '"') {
      i++;
      while (i < offset && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    } else if (c === "(" || c === "<" || c === "[" || c === "{") {
      stack.push({ char: c, offset: i });
    } else if (c === ")" || c === ">" || c === "]" || c === "}") {
      if (c === ">" && text[i - 1] === "=") continue; // `=>`
      const want = CLOSER[c];
      for (let j = stack.length - 1; j >= 0; j--) {
        if (stack[j]!.char === want) {
          stack.length = j;
          break;
        }
      }
    }
  }
  return stack;
}

const OP_BEFORE = /(?:^|[^\w.])((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)(?:\s*:\s*[A-Za-z_]\w*)?\s*$/;

interface OpAt {
  /** The op as written, `com.acme.Shift`, without blanks. */
  readonly op: string;
  readonly domain: string;
  readonly opType: string;
}

/**
 * The op whose attribute list or input list opens at `bracket`, when that bracket follows
 * `= Op` or `= Op <...>`; undefined for graph and function signatures.
 */
export function opBefore(text: string, bracket: number): OpAt | undefined {
  let end = bracket;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  if (text[end - 1] === ">" && text[end - 2] !== "=") {
    // Skip a leading attribute list: `Op <...> (`.
    let depth = 0;
    let i = end - 1;
    for (; i >= 0; i--) {
      const c = text[i];
      if (c === ">" && text[i - 1] !== "=") depth++;
      else if (c === "<") {
        depth--;
        if (depth === 0) break;
      }
    }
    end = i;
  }
  const before = text.slice(Math.max(0, end - 300), end);
  const m = OP_BEFORE.exec(before);
  if (!m) return undefined;
  const head = before.slice(0, before.length - m[0].length + (m[0].length - m[0].trimStart().length));
  if (!/=\s*$/.test(head) || /=>\s*$/.test(head)) return undefined;
  const op = m[1]!.replace(/\s+/g, "");
  const dot = op.lastIndexOf(".");
  return { op, domain: dot < 0 ? "" : op.slice(0, dot), opType: dot < 0 ? op : op.slice(dot + 1) };
}

/** Commas at depth 0 between `from` (just after an opening bracket) and `to`. */
export function topLevelCommas(text: string, from: number, to: number): number {
  let depth = 0;
  let commas = 0;
  for (let i = from; i < to; i++) {
    const c = text[i]!;
    if (c === '"') {
      i++;
      while (i < to && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    } else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || (c === ">" && text[i - 1] !== "=")) depth--;
    else if (c === "," && depth === 0) commas++;
  }
  return commas;
}

/** The identifier (letters, digits, `_`, `.`) that ends at `offset`. */
export function wordBefore(text: string, offset: number): string {
  let i = offset;
  while (i > 0 && /[\w.]/.test(text[i - 1]!)) i--;
  return text.slice(i, offset);
}
