// Text mutations for fuzzing: small, syntax-aware edits of the kind a user makes while typing
// (deleting, duplicating, retyping tokens) plus hostile ones (deep nesting, lone surrogates,
// control characters, huge numbers, splices from other files).
import { Rng } from "./rng.js";

/** Fragments that make the grammar take unusual paths. */
const FRAGMENTS = [
  "<",
  ">",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "@",
  "?",
  "-",
  "=",
  "=>",
  '"',
  "#",
  "\n",
  "ir_version: 8",
  'opset_import: ["" : 18]',
  "graph",
  "float[N, 3]",
  "int64[]",
  "seq(float[2])",
  "map(int64, tensor(float))",
  "optional(float)",
  "tensor(string)",
  "sparse_tensor(float[2])",
  "x = Add(a, b)",
  "y = Loop <body = g () => () { }> (m, c)",
  "<axis = -1>",
  "<f: float = 1.5>",
  "{1, 2, 3}",
  "{}",
  "float[2] {1.0, nan}",
  "int64[2] w = {0, 9223372036854775807}",
  "1e999999",
  "-inf",
  "0x7fffffff",
  "99999999999999999999999999",
  '"\\u',
  '"\\',
  "\\",
  "ref_attr",
  "@f",
  "\u0000",
  "\u00a0",
  "\ufeff",
  "\ud800",
  "\udc00",
  "\ud83d\ude00",
  "\u2028",
  "\t",
  "\r\n",
];

type Mutation = (text: string, rng: Rng, corpus: readonly string[]) => string;

function span(text: string, rng: Rng, maxLen: number): [number, number] {
  const start = rng.int(text.length + 1);
  const end = Math.min(text.length, start + 1 + rng.int(maxLen));
  return [start, end];
}

/** A token boundary near a random offset, so edits often land between tokens. */
function boundary(text: string, rng: Rng): number {
  let i = rng.int(text.length + 1);
  while (i < text.length && /[A-Za-z0-9_.]/.test(text[i]!)) i++;
  return i;
}

const MUTATIONS: readonly Mutation[] = [
  (t, r) => {
    const [s, e] = span(t, r, 20);
    return t.slice(0, s) + t.slice(e);
  },
  (t, r) => {
    const [s, e] = span(t, r, 60);
    const at = r.int(t.length + 1);
    return t.slice(0, at) + t.slice(s, e) + t.slice(at);
  },
  (t, r) => {
    const at = boundary(t, r);
    return t.slice(0, at) + r.pick(FRAGMENTS) + t.slice(at);
  },
  (t, r) => {
    const [s, e] = span(t, r, 8);
    return t.slice(0, s) + r.pick(FRAGMENTS) + t.slice(e);
  },
  (t, r) => t.slice(0, r.int(t.length + 1)),
  (t, r) => {
    const at = r.int(t.length + 1);
    return t.slice(0, at) + String.fromCharCode(r.int(0x10000)) + t.slice(at + 1);
  },
  (t, r, corpus) => {
    const other = r.pick(corpus);
    const [s, e] = span(other, r, 200);
    const at = boundary(t, r);
    return t.slice(0, at) + other.slice(s, e) + t.slice(at);
  },
  (t, r) => {
    // A deep or unbalanced run of brackets.
    const open = r.pick(["(", "[", "{", "<", "seq(", "optional(", "g = If <then_branch = g () => () {"]);
    const n = 1 + r.int(r.chance(0.1) ? 5000 : 50);
    const close = r.chance(0.5) ? { "(": ")", "[": "]", "{": "}", "<": ">" }[open.at(-1)!]!.repeat(r.int(n + 1)) : "";
    const at = boundary(t, r);
    return t.slice(0, at) + open.repeat(n) + close + t.slice(at);
  },
  (t, r) => {
    // Swap two lines.
    const lines = t.split("\n");
    if (lines.length < 2) return t;
    const a = r.int(lines.length);
    const b = r.int(lines.length);
    [lines[a], lines[b]] = [lines[b]!, lines[a]!];
    return lines.join("\n");
  },
  // A byte order mark at the start (check drops it while decoding; the editor gets it).
  (t) => `\ufeff${t}`,
  (t, r) => {
    // A comment with trailing blanks inside a bracketed list (dims, attributes, tensors).
    const opens = [...t.matchAll(/[[({<]/g)];
    if (opens.length === 0) return t;
    const at = r.pick(opens).index! + 1 + r.int(4);
    return t.slice(0, at) + r.pick(["# c  \n", "# c \t\n", "#\t \n", "\n# c   \n", "# c \r\n"]) + t.slice(at);
  },
  (t, r) => {
    // Repeat a line many times: big inputs with many similar errors.
    const lines = t.split("\n");
    const i = r.int(lines.length);
    lines.splice(i, 0, ...Array<string>(1 + r.int(200)).fill(lines[i]!));
    return lines.join("\n");
  },
];

/** Inputs stop growing here: big enough for scaling bugs, small enough to keep runs short. */
const MAX_LENGTH = 256 * 1024;

/** One to four mutations of `text`. */
export function mutateText(text: string, rng: Rng, corpus: readonly string[]): string {
  let out = text;
  const n = 1 + r4(rng);
  for (let i = 0; i < n; i++) {
    const next = rng.pick(MUTATIONS)(out, rng, corpus);
    if (next.length <= MAX_LENGTH || next.length < out.length) out = next;
  }
  return out;
}

function r4(rng: Rng): number {
  return rng.chance(0.6) ? 0 : rng.int(4);
}
