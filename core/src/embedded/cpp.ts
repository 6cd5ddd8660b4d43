// Finds the ONNX texts of a C or C++ file: raw strings delimited `R"ONNX(...)ONNX"` (or `onnx`),
// the text given to `.FunctionBody(...)` (a node list, read at the opset the call or its
// ONNX_OPERATOR_SET_SCHEMA names), the node texts given to a FunctionBuilder's `.Add(...)`, what
// is given to `OnnxParser` (a literal, or a variable initialised with one), and any string after
// a `// onnxtxt: KIND` comment. Strings joined with `+` at run time are skipped.
import { markerKind, MARKER_WORD } from "./marker.js";
import { MapBuilder } from "./offset-map.js";
import { finishRegions, type RegionDraft } from "./regions.js";
import { sniffKind } from "./sniff.js";
import type { EmbeddedContext, EmbeddedKind, HostScan, KindSource, SkippedRegion } from "./types.js";

interface CppString {
  readonly start: number;
  readonly end: number;
  readonly contentStart: number;
  readonly contentEnd: number;
  /** The raw string's delimiter, or undefined for an ordinary string. */
  readonly delimiter?: string;
  readonly terminated: boolean;
}

type Token =
  | { readonly t: "name" | "num" | "op"; readonly start: number; readonly end: number; readonly value: string }
  | { readonly t: "str"; readonly start: number; readonly end: number; readonly s: CppString }
  | { readonly t: "comment"; readonly start: number; readonly end: number; readonly value: string };

const TRIGGERS = ['R"ONNX(', 'R"onnx(', "FunctionBody", ".Add(", "OnnxParser", MARKER_WORD];

const ENCODING_PREFIX = /^(?:u8|u|U|L)?R?$/;

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

function scanString(src: string, start: number, quoteAt: number, raw: boolean): CppString {
  const n = src.length;
  if (raw) {
    const open = src.indexOf("(", quoteAt + 1);
    const delimiter = open < 0 ? "" : src.slice(quoteAt + 1, open);
    if (open < 0 || open - quoteAt - 1 > 16 || /[\s\\)"]/.test(delimiter))
      return { start, end: quoteAt + 1, contentStart: quoteAt + 1, contentEnd: quoteAt + 1, terminated: false };
    const close = src.indexOf(`)${delimiter}"`, open + 1);
    if (close < 0) return { start, end: n, contentStart: open + 1, contentEnd: n, delimiter, terminated: false };
    return { start, end: close + delimiter.length + 2, contentStart: open + 1, contentEnd: close, delimiter, terminated: true };
  }
  let i = quoteAt + 1;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return { start, end: i + 1, contentStart: quoteAt + 1, contentEnd: i, terminated: true };
    else if (c === 10) break;
    else i++;
  }
  // A backslash as the file's last character escapes nothing: the string ends with the file.
  i = Math.min(i, n);
  return { start, end: i, contentStart: quoteAt + 1, contentEnd: i, terminated: false };
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 47 && src.charCodeAt(i + 1) === 47) {
      let j = src.indexOf("\n", i);
      if (j < 0) j = n;
      out.push({ t: "comment", start: i, end: j, value: src.slice(i, j) });
      i = j;
    } else if (c === 47 && src.charCodeAt(i + 1) === 42) {
      let j = src.indexOf("*/", i + 2);
      j = j < 0 ? n : j + 2;
      out.push({ t: "comment", start: i, end: j, value: src.slice(i, j) });
      i = j;
    } else if (c <= 32) i++;
    else if (c === 34) {
      const s = scanString(src, i, i, false);
      out.push({ t: "str", start: i, end: s.end, s });
      i = Math.max(s.end, i + 1);
    } else if (c === 39) {
      // a character literal
      let j = i + 1;
      while (j < n && src[j] !== "'" && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      out.push({ t: "op", start: i, end: j + 1, value: "'" });
      i = j + 1;
    } else if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNamePart(src.charCodeAt(j))) j++;
      const word = src.slice(i, j);
      if (src.charCodeAt(j) === 34 && ENCODING_PREFIX.test(word)) {
        const s = scanString(src, i, j, word.endsWith("R"));
        out.push({ t: "str", start: i, end: s.end, s });
        i = Math.max(s.end, j + 1);
      } else {
        out.push({ t: "name", start: i, end: j, value: word });
        i = j;
      }
    } else if (c >= 48 && c <= 57) {
      // numbers, with digit separators (1'000) and suffixes
      let j = i + 1;
      while (j < n && (isNamePart(src.charCodeAt(j)) || src[j] === "." || (src[j] === "'" && isNamePart(src.charCodeAt(j + 1))))) j++;
      out.push({ t: "num", start: i, end: j, value: src.slice(i, j) });
      i = j;
    } else {
      const two = src.slice(i, i + 2);
      const value = two === "::" || two === "->" || two === "==" ? two : src[i]!;
      out.push({ t: "op", start: i, end: i + value.length, value });
      i += value.length;
    }
  }
  return out;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  '"': '"',
  "'": "'",
  "?": "?",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

function decode(src: string, parts: readonly CppString[]): ReturnType<MapBuilder["finish"]> {
  const out = new MapBuilder();
  for (const p of parts) {
    if (p.delimiter !== undefined) {
      out.copy(src, p.contentStart, p.contentEnd);
      continue;
    }
    let run = p.contentStart;
    for (let i = run; i < p.contentEnd; i++) {
      if (src[i] !== "\\") continue;
      out.copy(src, run, i);
      const e = src[i + 1] ?? "";
      let len = 2;
      let decoded = ESCAPES[e];
      if (e === "\n") decoded = "";
      else if (e === "x") {
        const m = /^[0-9a-fA-F]+/.exec(src.slice(i + 2, i + 10));
        if (m) {
          decoded = String.fromCharCode(Number.parseInt(m[0], 16) & 0xff);
          len = 2 + m[0].length;
        }
      }
      out.escape(decoded ?? src.slice(i, i + 2), i, i + len);
      i += len - 1;
      run = i + 1;
    }
    out.copy(src, run, p.contentEnd);
  }
  return out.finish(parts[0]!.contentStart);
}

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.value === v;
const isName = (t: Token | undefined, v?: string): boolean => t?.t === "name" && (v === undefined || t.value === v);

interface Literal {
  readonly parts: readonly CppString[];
  readonly next: number;
  readonly skip?: string;
}

/** Adjacent string literals at token `i` (joined by the compiler). */
function literalAt(toks: readonly Token[], i: number): Literal | undefined {
  const parts: CppString[] = [];
  let k = i;
  while (toks[k]?.t === "str") {
    parts.push((toks[k] as { s: CppString }).s);
    k++;
  }
  if (parts.length === 0) return undefined;
  const skip = parts.some((p) => !p.terminated) ? "the string is not terminated" : isOp(toks[k], "+") ? "the string is concatenated at run time" : undefined;
  return { parts, next: k, ...(skip && { skip }) };
}

/** The text must look like a node to be one: `outputs = Op (...)`. */
const NODE_LIKE = /=\s*[A-Za-z_][\w.]*(?::\w+)?\s*[<(]/;

const SCHEMA_MACRO = /^ONNX_(?:PREVIEW_)?OPERATOR_SET_SCHEMA(?:_EX)?$/;

export function findCppRegions(src: string): HostScan {
  if (!TRIGGERS.some((w) => src.includes(w))) return { language: "cpp", regions: [], skipped: [] };
  const toks = tokenize(src);
  const schemas = schemaVersions(toks);
  const drafts: RegionDraft[] = [];
  const skipped: SkippedRegion[] = [];
  const seen = new Set<number>();
  const take = (lit: Literal, kindOf: (text: string) => EmbeddedKind | undefined, kindSource: KindSource, origin: string, context: EmbeddedContext) => {
    const first = lit.parts[0]!;
    if (seen.has(first.start)) return;
    const last = lit.parts[lit.parts.length - 1]!;
    const span = { start: first.start, end: last.end };
    if (lit.skip) {
      seen.add(first.start);
      skipped.push({ language: "cpp", span, reason: lit.skip });
      return;
    }
    const { text, map } = decode(src, lit.parts);
    const kind = kindOf(text);
    if (!kind) return;
    seen.add(first.start);
    const single = lit.parts.length === 1 ? first : undefined;
    const raw = single?.delimiter !== undefined;
    drafts.push({
      language: "cpp",
      kind,
      kindSource,
      text,
      map,
      literal: {
        span,
        content: { start: first.contentStart, end: last.contentEnd },
        verbatim: single !== undefined && src.slice(single.contentStart, single.contentEnd) === text,
        multiline: raw,
        forbidden: raw ? [`)${single!.delimiter}"`] : ['"', "\\", "\n"],
      },
      context,
      origin,
    });
  };
  const sniffed = (text: string) => sniffKind(text);
  /** A text whose reader's type is known: read as that kind, or skipped when it is not one onnxtxt reads. */
  const takeTyped = (lit: Literal, type: string | undefined, origin: string) => {
    const kind = type === undefined ? undefined : PROTO_KINDS[type];
    if (type !== undefined && kind === undefined) {
      const first = lit.parts[0]!;
      if (seen.has(first.start)) return;
      seen.add(first.start);
      skipped.push({
        language: "cpp",
        span: { start: first.start, end: lit.parts[lit.parts.length - 1]!.end },
        reason: `parsed into ${type}, not a model, graph, function or node list`,
      });
      return;
    }
    take(lit, kind ? () => kind : sniffed, kind ? "call" : "content", origin, {});
  };
  /** The literal at token `k`, or the one the variable there was initialised with. */
  const argumentLiteral = (toks: readonly Token[], k: number): Literal | undefined =>
    literalAt(toks, k) ?? (isName(toks[k]) ? initialiser(toks, (toks[k] as { value: string }).value, toks[k]!.start) : undefined);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.t === "comment") {
      const kind = markerKind(t.value);
      if (!kind) continue;
      for (let k = i + 1; k < toks.length && k < i + 12; k++) {
        const lit = literalAt(toks, k);
        if (lit) {
          take(lit, () => kind, "marker", `// onnxtxt: ${kind}`, {});
          break;
        }
      }
    } else if (isName(t, "FunctionBody") && isOp(toks[i - 1], ".") && isOp(toks[i + 1], "(")) {
      const lit = literalAt(toks, i + 2);
      if (!lit) continue;
      const explicit =
        isOp(toks[lit.next], ",") && toks[lit.next + 1]?.t === "num" ? Number.parseInt((toks[lit.next + 1] as { value: string }).value, 10) : undefined;
      const opset = explicit ?? versionAt(schemas, t.start);
      take(lit, () => "nodes", "call", "FunctionBody", opset === undefined ? {} : { opset });
    } else if (isName(t, "Add") && isOp(toks[i - 1], ".") && isOp(toks[i + 1], "(")) {
      const lit = literalAt(toks, i + 2);
      if (!lit) continue;
      const more = isOp(toks[lit.next], ",");
      const opset = versionAt(schemas, t.start);
      take(lit, (text) => (NODE_LIKE.test(text) ? "nodes" : undefined), "call", "FunctionBuilder.Add", {
        ...(opset !== undefined && { opset }),
        ...(more && { attributesFromOutside: true }),
      });
    } else if (isName(t, "OnnxParser") && isName(toks[i + 1]) && isOp(toks[i + 2], "(")) {
      // OnnxParser parser(ARG); ... parser.Parse(X): X's type says what ARG is
      const lit = argumentLiteral(toks, i + 3);
      if (!lit) continue;
      const reader = (toks[i + 1] as { value: string }).value;
      const target = parseTargetOf(toks, reader, i + 3);
      takeTyped(lit, target, "OnnxParser");
    } else if (isName(t, "Parse") && isOp(toks[i + 1], "(") && isName(toks[i + 2]) && isOp(toks[i + 3], ",")) {
      // OnnxParser::Parse(X, ARG), or a test's Parse(X, ARG) helper
      const type = declaredType(toks, (toks[i + 2] as { value: string }).value, i);
      const onnxParser = isOp(toks[i - 1], "::") && isName(toks[i - 2], "OnnxParser");
      // another library's Parse(x, "...") is none of ours unless x's type says so
      if (type === undefined && !onnxParser) continue;
      const lit = argumentLiteral(toks, i + 4);
      if (lit) takeTyped(lit, type, onnxParser ? "OnnxParser" : "Parse");
    } else if (t.t === "str" && (t.s.delimiter === "ONNX" || t.s.delimiter === "onnx")) {
      const lit = literalAt(toks, i);
      // `code = R"ONNX(...)ONNX"; ... Parse(x, code)`: x's type says what the text is
      const variable = isOp(toks[i - 1], "=") && isName(toks[i - 2]) ? (toks[i - 2] as { value: string }).value : undefined;
      const type = variable === undefined ? undefined : readerTypeOf(toks, variable, i);
      if (lit) takeTyped(lit, type, `R"${t.s.delimiter}(`);
    }
  }
  return { language: "cpp", regions: finishRegions(drafts), skipped };
}

/** What each proto type a test parses into is, as a kind; other types are not texts onnxtxt reads. */
const PROTO_KINDS: Readonly<Record<string, EmbeddedKind | undefined>> = {
  ModelProto: "model",
  GraphProto: "graph",
  FunctionProto: "function",
  NodeProto: "node",
  NodeList: "nodes",
};

/** The type `name` was declared with before token `before` (`ModelProto model;`, `onnx::GraphProto& g`). */
function declaredType(toks: readonly Token[], name: string, before: number): string | undefined {
  for (let k = before - 1; k > 0; k--) {
    if (!isName(toks[k], name)) continue;
    let typeAt = k - 1;
    if (isOp(toks[typeAt], "&") || isOp(toks[typeAt], "*")) typeAt--;
    const next = toks[k + 1];
    if (isName(toks[typeAt]) && (isOp(next, ";") || isOp(next, ",") || isOp(next, ")") || isOp(next, "=") || isOp(next, "{") || isOp(next, "("))) {
      const type = (toks[typeAt] as { value: string }).value;
      if (type !== "return" && type !== "auto" && type !== "const") return type;
    }
  }
  return undefined;
}

/** The type of what `reader.Parse(X)` (or `reader.ParserBase::Parse(X)`) fills, after token `from`. */
function parseTargetOf(toks: readonly Token[], reader: string, from: number): string | undefined {
  for (let k = from; k + 4 < toks.length && k < from + 400; k++) {
    if (!isName(toks[k], reader) || !isOp(toks[k + 1], ".")) continue;
    let m = k + 2;
    if (isName(toks[m], "ParserBase") && isOp(toks[m + 1], "::")) m += 2;
    if (isName(toks[m], "Parse") && isOp(toks[m + 1], "(") && isName(toks[m + 2])) return declaredType(toks, (toks[m + 2] as { value: string }).value, m);
  }
  return undefined;
}

/** The type of what a later `Parse(x, variable)` or `OnnxParser p(variable); p.Parse(x)` fills. */
function readerTypeOf(toks: readonly Token[], variable: string, from: number): string | undefined {
  for (let k = from; k + 4 < toks.length && k < from + 400; k++) {
    // the variable given a new text (the next test's `code = ...`) ends the search
    if (isName(toks[k], variable) && isOp(toks[k + 1], "=")) return undefined;
    // Parse(*graph.mutable_node(), code): a node list
    if (isName(toks[k], "Parse") && isOp(toks[k + 1], "(") && isOp(toks[k + 2], "*") && isName(toks[k + 5], "mutable_node") && isName(toks[k + 9], variable))
      return "NodeList";
    if (isName(toks[k], "Parse") && isOp(toks[k + 1], "(") && isName(toks[k + 2]) && isOp(toks[k + 3], ",") && isName(toks[k + 4], variable))
      return declaredType(toks, (toks[k + 2] as { value: string }).value, k);
    if (isName(toks[k], "OnnxParser") && isName(toks[k + 1]) && isOp(toks[k + 2], "(") && isName(toks[k + 3], variable))
      return parseTargetOf(toks, (toks[k + 1] as { value: string }).value, k + 3);
  }
  return undefined;
}

/** The string a variable is initialised with: `NAME = "..."`, `NAME[] = "..."`, `NAME("...")`, `NAME{"..."}`, the last before `at`. */
function initialiser(toks: readonly Token[], name: string, at: number): Literal | undefined {
  let found: Literal | undefined;
  for (let i = 0; i < toks.length && toks[i]!.start < at; i++) {
    if (!isName(toks[i], name)) continue;
    let k = i + 1;
    if (isOp(toks[k], "[") && isOp(toks[k + 1], "]")) k += 2;
    if (isOp(toks[k], "=") || isOp(toks[k], "(") || isOp(toks[k], "{")) {
      const lit = literalAt(toks, k + 1);
      if (lit) found = lit;
    }
  }
  return found;
}

interface SchemaSpan {
  readonly start: number;
  readonly end: number;
  readonly version: number;
}

/**
 * The stretches of text an opset version holds for: ONNX_OPERATOR_SET_SCHEMA(Name, Version, ...)
 * calls, and SetContextDependentFunctionBodyBuilder(builder, Version) calls inside them (the
 * builder's nodes are read at that version).
 */
function schemaVersions(toks: readonly Token[]): SchemaSpan[] {
  const out: SchemaSpan[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.t !== "name" || !isOp(toks[i + 1], "(")) continue;
    const macro = SCHEMA_MACRO.test(t.value);
    if (!macro && t.value !== "SetContextDependentFunctionBodyBuilder") continue;
    const close = matchingParen(toks, i + 1);
    const versionToken = macro
      ? isName(toks[i + 2]) && isOp(toks[i + 3], ",")
        ? toks[i + 4]
        : undefined
      : isOp(toks[close - 2], ",")
        ? toks[close - 1]
        : undefined;
    if (versionToken?.t !== "num") continue;
    out.push({ start: t.start, end: toks[close]?.end ?? Number.MAX_SAFE_INTEGER, version: Number.parseInt(versionToken.value, 10) });
  }
  return out;
}

/** The index of the `)` closing the `(` at token `open` (the last token when it is not closed). */
function matchingParen(toks: readonly Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++;
    else if (isOp(toks[k], ")") && --depth === 0) return k;
  }
  return toks.length - 1;
}

/** The version of the innermost stretch holding `at`. */
function versionAt(spans: readonly SchemaSpan[], at: number): number | undefined {
  let found: SchemaSpan | undefined;
  for (const s of spans) if (s.start <= at && at < s.end && (!found || s.start >= found.start)) found = s;
  return found?.version;
}
