// Finds the ONNX texts of a Python file: the string given to onnx.parser.parse_model / parse_graph
// / parse_function / parse_node (under any import alias), to onnxscript's and onnx_ir's
// from_onnx_text, and any string after a `# onnxtxt: KIND` comment. An argument that is a name
// is followed to the string last assigned to it. Texts built at run time (f-strings with fields,
// `%` or `.format` templates, concatenation with `+`) are skipped, never read with false errors.
import { decodePyStrings, hasFields, isPyStringPrefix, scanPyString, type PyString } from "./python-strings.js";
import { markerKind, MARKER_WORD } from "./marker.js";
import { finishRegions, type RegionDraft } from "./regions.js";
import type { EmbeddedKind, HostScan, SkippedRegion } from "./types.js";

type Token =
  | { readonly t: "name"; readonly start: number; readonly end: number; readonly value: string }
  | { readonly t: "op"; readonly start: number; readonly end: number; readonly value: string }
  | { readonly t: "str"; readonly start: number; readonly end: number; readonly s: PyString }
  | { readonly t: "comment"; readonly start: number; readonly end: number; readonly value: string }
  | { readonly t: "nl"; readonly start: number; readonly end: number };

const CALLS: Readonly<Record<string, EmbeddedKind>> = {
  parse_model: "model",
  parse_graph: "graph",
  parse_function: "function",
  parse_node: "node",
  from_onnx_text: "model",
};

/**
 * What a file must hold to have a region: a call of one of CALLS, an import renaming one, or a
 * marker. A file without is not tokenized (a big file that only mentions parse_model in a comment
 * or a docstring cost seconds and gigabytes of tokens).
 */
const TRIGGER = new RegExp(`\\b(?:${Object.keys(CALLS).join("|")})\\s*(?:\\(|as\\b)|${MARKER_WORD}`);

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

/** Python tokens, enough to see calls, assignments and strings; brackets join lines as in Python. */
const KINDS = ["name", "op", "str", "comment", "nl"] as const;
type Kind = (typeof KINDS)[number];

/**
 * The tokens of a file, kept as three numbers each (a 50 MB file has some ten million tokens:
 * as objects they took gigabytes); `at` makes the object a rule looks at.
 */
class TokenList {
  private kinds = new Uint8Array(1024);
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private readonly strings = new Map<number, PyString>();
  length = 0;

  constructor(private readonly src: string) {}

  push(t: Kind, start: number, end: number, s?: PyString): void {
    if (this.length === this.kinds.length) {
      const grow = <A extends Uint8Array | Int32Array>(a: A, make: (n: number) => A): A => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds, (n) => new Uint8Array(n));
      this.starts = grow(this.starts, (n) => new Int32Array(n));
      this.ends = grow(this.ends, (n) => new Int32Array(n));
    }
    this.kinds[this.length] = KINDS.indexOf(t);
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    if (s) this.strings.set(this.length, s);
    this.length++;
  }

  at(i: number): Token | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const t = KINDS[this.kinds[i]!]!;
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    if (t === "str") return { t, start, end, s: this.strings.get(i)! };
    if (t === "nl") return { t, start, end };
    return { t, start, end, value: this.src.slice(start, end) };
  }

  kind(i: number): Kind | undefined {
    return i >= 0 && i < this.length ? KINDS[this.kinds[i]!] : undefined;
  }

  /** Whether token `i` is the op `op` (one character), without making its object. */
  isOp(i: number, op: string): boolean {
    return this.kind(i) === "op" && this.src[this.starts[i]!] === op && this.ends[i]! - this.starts[i]! === 1;
  }

  /** Whether token `i` is the name `word`, without making its object. */
  isName(i: number, word: string): boolean {
    return this.kinds[i] === 0 && i < this.length && this.ends[i]! - this.starts[i]! === word.length && this.src.startsWith(word, this.starts[i]!);
  }
}

function tokenize(src: string): TokenList {
  const out = new TokenList(src);
  const n = src.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 35 /* # */) {
      let j = src.indexOf("\n", i);
      if (j < 0) j = n;
      out.push("comment", i, j);
      i = j;
    } else if (c === 10) {
      if (depth === 0) out.push("nl", i, i + 1);
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 12) i++;
    else if (c === 92 /* line continuation */) i += 2;
    else if (c === 34 || c === 39) {
      const s = scanPyString(src, i, i);
      out.push("str", i, s.end, s);
      i = s.end;
    } else if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNamePart(src.charCodeAt(j))) j++;
      const q = src.charCodeAt(j);
      if ((q === 34 || q === 39) && isPyStringPrefix(src.slice(i, j))) {
        const s = scanPyString(src, i, j);
        out.push("str", i, s.end, s);
        i = s.end;
      } else {
        out.push("name", i, j);
        i = j;
      }
    } else {
      const ch = src[i]!;
      if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
      // `==` and `!=` must not read as an assignment
      const two = src.slice(i, i + 2);
      const value = two === "==" || two === "!=" || two === "<=" || two === ">=" ? two : ch;
      out.push("op", i, i + value.length);
      i += value.length;
    }
  }
  return out;
}

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.value === v;

interface Literal {
  readonly parts: readonly PyString[];
  /** Why the literal is not a text as written, if it is not. */
  readonly skip?: string;
  /** The token index after it (and after the `dedent(...)` around it). */
  readonly next: number;
}

/**
 * The string expression at token `i`: adjacent literals, possibly inside `dedent(...)` or
 * parentheses. Undefined when there is none; `skip` when it is computed at run time.
 */
function literalAt(toks: TokenList, i: number): Literal | undefined {
  let k = i;
  let closers = 0;
  for (;;) {
    const t = toks.at(k);
    if (isOp(t, "(")) {
      closers++;
      k++;
    } else if (t?.t === "name" && (t.value === "dedent" || t.value === "textwrap")) {
      // textwrap.dedent( or dedent(: ONNX text does not care about indentation
      let m = k + 1;
      if (t.value === "textwrap" && isOp(toks.at(m), ".") && toks.at(m + 1)?.t === "name" && (toks.at(m + 1) as { value: string }).value === "dedent") m += 2;
      else if (t.value === "textwrap") return undefined;
      if (!isOp(toks.at(m), "(")) return undefined;
      closers++;
      k = m + 1;
    } else break;
  }
  const parts: PyString[] = [];
  while (toks.at(k)?.t === "str") {
    parts.push((toks.at(k) as { s: PyString }).s);
    k++;
  }
  if (parts.length === 0) return undefined;
  let skip: string | undefined;
  for (let c = 0; c < closers; c++) {
    if (isOp(toks.at(k), ")")) k++;
    else skip ??= "the string is part of a longer expression";
  }
  const after = toks.at(k);
  if (isOp(after, "%")) skip = "a % template: its text is made at run time";
  else if (isOp(after, ".") && toks.at(k + 1)?.t === "name" && (toks.at(k + 1) as { value: string }).value === "format")
    skip = "a .format template: its text is made at run time";
  else if (isOp(after, "+")) skip = "the string is concatenated at run time";
  if (parts.some((p) => !p.terminated)) skip = "the string is not terminated";
  return { parts, next: k, ...(skip !== undefined && { skip }) };
}

/** Finds every region of a Python file. */
export function findPythonRegions(src: string): HostScan {
  if (!TRIGGER.test(src)) return { language: "python", regions: [], skipped: [] };
  const toks = tokenize(src);
  const aliases = importAliases(toks);
  const assigned = assignments(src, toks);
  const defs: number[] = [];
  for (let i = 0; i < toks.length; i++) if (toks.isName(i, "def")) defs.push(toks.at(i)!.start);
  const drafts: RegionDraft[] = [];
  const skipped: SkippedRegion[] = [];
  const seen = new Set<number>();
  const take = (lit: Literal, kind: EmbeddedKind, kindSource: "call" | "marker", origin: string) => {
    const first = lit.parts[0]!;
    if (seen.has(first.start)) return;
    seen.add(first.start);
    const last = lit.parts[lit.parts.length - 1]!;
    const span = { start: first.start, end: last.end };
    const fields = lit.parts.find((p) => p.fstring && hasFields(src.slice(p.contentStart, p.contentEnd)));
    const skip = lit.skip ?? (fields ? "an f-string with fields: its text is made at run time" : undefined);
    if (skip) {
      skipped.push({ language: "python", span, reason: skip });
      return;
    }
    const { text, map } = decodePyStrings(src, lit.parts);
    const single = lit.parts.length === 1 ? first : undefined;
    const verbatim =
      single !== undefined && map.hostSpan.end - map.hostSpan.start === text.length && src.slice(single.contentStart, single.contentEnd) === text;
    drafts.push({
      language: "python",
      kind,
      kindSource,
      text,
      map,
      literal: {
        span,
        content: { start: first.contentStart, end: last.contentEnd },
        verbatim: verbatim && !(single?.fstring ?? false),
        multiline: single !== undefined && single.quote.length === 3,
        forbidden: single
          ? [single.quote[0]!.repeat(single.quote.length === 3 ? 3 : 1), ...(single.raw ? [] : ["\\"]), ...(single.quote.length === 3 ? [] : ["\n"])]
          : [],
      },
      context: {},
      origin,
    });
  };
  for (let i = 0; i < toks.length; i++) {
    // most tokens are neither a comment nor a name before `(`: looked at without their objects
    const tokenKind = toks.kind(i);
    if (tokenKind !== "comment" && !(tokenKind === "name" && toks.isOp(i + 1, "("))) continue;
    const t = toks.at(i)!;
    if (t.t === "comment") {
      const kind = markerKind(t.value);
      if (!kind) continue;
      // the first string of the next statement: `x = """...` or a call's argument
      for (let k = i + 1; k < toks.length && k < i + 12; k++) {
        const lit = toks.at(k)!.t === "str" ? literalAt(toks, k) : undefined;
        if (lit) {
          take(lit, kind, "marker", `# onnxtxt: ${kind}`);
          break;
        }
      }
      continue;
    }
    if (t.t !== "name" || !isOp(toks.at(i + 1), "(")) continue;
    const callee = aliases.get(t.value) ?? t.value;
    const kind = CALLS[callee];
    if (!kind || (toks.at(i - 1)?.t === "name" && (toks.at(i - 1) as { value: string }).value === "def")) continue;
    const argAt = i + 2;
    const direct = literalAt(toks, argAt);
    if (direct) {
      take(direct, kind, "call", callee);
      continue;
    }
    const arg = toks.at(argAt);
    if (arg?.t === "name" && (isOp(toks.at(argAt + 1), ")") || isOp(toks.at(argAt + 1), ","))) {
      const lit = resolve(assigned, arg.value, arg.start, scopeStart(src, defs, arg.start));
      if (lit) take(lit, kind, "call", callee);
    }
  }
  return { language: "python", regions: finishRegions(drafts), skipped };
}

/** `from onnx.parser import parse_model as pm` and friends: alias -> the function's name. */
function importAliases(toks: TokenList): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 3 < toks.length; i++) {
    if (!toks.isName(i, "import")) continue;
    for (let k = i + 1; k < toks.length && toks.at(k)!.t !== "nl"; k++) {
      const name = toks.at(k)!;
      if (name.t === "name" && CALLS[name.value] && toks.at(k + 1)?.t === "name" && (toks.at(k + 1) as { value: string }).value === "as") {
        const alias = toks.at(k + 2);
        if (alias?.t === "name") out.set(alias.value, name.value);
      }
    }
  }
  return out;
}

interface Assignment {
  readonly at: number;
  /** At the top of the module (not in a function or class). */
  readonly global: boolean;
  readonly lit: Literal;
}

/** The indentation of the line holding `at`. */
function indentAt(src: string, at: number): number {
  let i = src.lastIndexOf("\n", at - 1) + 1;
  const start = i;
  while (src[i] === " " || src[i] === "\t") i++;
  return i - start;
}

/** Where the function holding `at` starts (its `def`), or 0 at module level. */
function scopeStart(src: string, defs: readonly number[], at: number): number {
  const indent = indentAt(src, at);
  for (let k = defs.length - 1; k >= 0; k--) if (defs[k]! < at && indentAt(src, defs[k]!) < indent) return defs[k]!;
  return 0;
}

/** `NAME = "..."` statements (a string expression on the right), by name, in file order. */
function assignments(src: string, toks: TokenList): Map<string, Assignment[]> {
  const out = new Map<string, Assignment[]>();
  for (let i = 0; i + 2 < toks.length; i++) {
    const before = toks.kind(i - 1);
    const statementStart = before === undefined || before === "nl" || before === "comment";
    if (toks.kind(i) !== "name" || !statementStart) continue;
    const t = toks.at(i) as Extract<Token, { t: "name" }>;
    // NAME = or NAME: str =
    let k = i + 1;
    if (isOp(toks.at(k), ":") && toks.at(k + 1)?.t === "name") k += 2;
    if (!isOp(toks.at(k), "=")) continue;
    const lit = literalAt(toks, k + 1);
    if (!lit) continue;
    const list = out.get(t.value) ?? [];
    list.push({ at: t.start, global: indentAt(src, t.start) === 0, lit });
    out.set(t.value, list);
  }
  return out;
}

/**
 * The string last assigned to `name` before `at` in the same function, or at module level (a
 * module constant may also be defined after the function that reads it).
 */
function resolve(assigned: ReadonlyMap<string, Assignment[]>, name: string, at: number, scope: number): Literal | undefined {
  const list = assigned.get(name);
  if (!list) return undefined;
  let best: Assignment | undefined;
  for (const a of list) if (a.at < at && (a.global || a.at > scope)) best = a;
  return (best ?? list.find((a) => a.global))?.lit;
}
