// The grammar package's public entry points. Each parse returns the AST (with holes where the
// text is broken), the comments beside it, and every syntax diagnostic; none of them throws.
import type * as A from "./ast.js";
import type { Diagnostic } from "./diagnostics.js";
import { tokenize } from "./scanner.js";
import { OnnxTextParser, type BodyPlace, type DeferredBody, type GraphStatementSink } from "./parser.js";
import { TOKENS_PER_STEP } from "./steps.js";

export type * from "./ast.js";
export type { Diagnostic, Severity } from "./diagnostics.js";
export { hasErrors } from "./diagnostics.js";
export { LineIndex, type Position } from "./line-index.js";
export type { Span } from "./span.js";
export {
  ALL_KEYWORDS,
  ATTRIBUTE_TYPES,
  ELEMENT_TYPES,
  FUNCTION_HEADER_KEYS,
  MODEL_HEADER_KEYS,
  TYPE_CONSTRUCTORS,
  isTypeStart,
  isElementType,
} from "./keywords.js";
export { tokenize, Tok, type TokenStream } from "./scanner.js";
export { MAX_NESTING, type GraphStatementSink } from "./parser.js";

export interface ParseResult<T> {
  readonly ast?: T;
  readonly comments: A.Comment[];
  readonly diagnostics: Diagnostic[];
}

let shared: OnnxTextParser | undefined;

/**
 * The process's one parser: Chevrotain analyses the grammar when it is built (a few ms), so it
 * is built on first use and reused. Tests build their own with Chevrotain's validations on.
 */
function parser(): OnnxTextParser {
  return (shared ??= new OnnxTextParser(false));
}

function run<T>(text: string, what: string, fn: (p: OnnxTextParser) => T | undefined, lexed = tokenize(text)): ParseResult<T> {
  const p = parser();
  p.begin(text, lexed.tokens);
  let ast: T | undefined;
  try {
    ast = fn(p);
    p.expectEnd(what);
    // Chevrotain records an error only if a rule took a way its lookahead did not allow: a bug.
    const engine = p.engineErrors[0];
    if (engine) throw new Error(engine.message);
  } catch (e) {
    // A parse must never throw; this is a last line of defence that keeps the promise.
    p.diagnostics.push({
      severity: "error",
      code: "internal",
      message: `internal parser error: ${e instanceof Error ? e.message : String(e)}`,
      span: { start: 0, end: 0 },
    });
  }
  const parsed = p.diagnostics;
  p.end();
  const diagnostics = mergeByOffset(lexed.diagnostics, withoutLexerEchoes(text, lexed.diagnostics, parsed));
  return { ...(ast !== undefined && { ast }), comments: lexed.comments, diagnostics };
}

/**
 * Drops parser errors that merely echo a lexer error earlier on the same line (an unknown
 * character usually breaks the statement it sits in): one cause, one message.
 */
function withoutLexerEchoes(text: string, lexer: readonly Diagnostic[], parser: Diagnostic[]): Diagnostic[] {
  if (lexer.length === 0) return parser;
  // A leading byte order mark is not text: a parser position on it is the text's start.
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return parser.filter((p) => {
    const at = Math.max(p.span?.start ?? 0, start);
    return !lexer.some((l) => {
      const from = l.span?.start ?? 0;
      return from <= at && !/[\n\r]/.test(text.slice(from, at));
    });
  });
}

function mergeByOffset(a: Diagnostic[], b: Diagnostic[]): Diagnostic[] {
  if (a.length === 0) return b;
  return [...a, ...b].sort((x, y) => (x.span?.start ?? 0) - (y.span?.start ?? 0));
}

export function parseModel(text: string): ParseResult<A.Model> {
  return run(text, "model", (p) => p.model());
}

/**
 * parseModel for a caller that uses each statement of the main graph as it is read (core's
 * text.ts lowers it there): they go to `sink` in order and not into the tree, whose main graph
 * has an empty node list. So the statements of a big graph die young rather than living, and
 * being copied by the collector, until the parse ends; a plain one is never a tree at all.
 */
export function parseModelStreaming(text: string, sink: GraphStatementSink): ParseResult<A.Model> {
  return run(text, "model", (p) => {
    p.graphNodeSink = sink;
    try {
      return p.model();
    } finally {
      p.graphNodeSink = undefined;
    }
  });
}

/**
 * parseModel in steps: it pauses after the scan and every `tokensPerStep` tokens of the main
 * graph's body (a language server answers requests between), and gives what parseModel gives.
 * The body is read last: the rest of the text is parsed first with the body skipped to the
 * `}` that balances its `{`. Where the body's statements do not end at that `}` (braces out of
 * balance in a broken text), the text is parsed again at once, after a pause; where the scanner
 * reported an error, it is parsed at once.
 */
export function* parseModelSteps(text: string, tokensPerStep = TOKENS_PER_STEP): Generator<undefined, ParseResult<A.Model>, void> {
  const lexed = tokenize(text);
  const whole = (): ParseResult<A.Model> => run(text, "model", (p) => p.model(), lexed);
  if (lexed.diagnostics.length > 0) return whole();
  yield;
  let body: DeferredBody | undefined;
  const outline = run(
    text,
    "model",
    (p) => {
      p.deferBody = true;
      try {
        return p.model();
      } finally {
        p.deferBody = false;
        body = p.deferredBody;
        p.deferredBody = undefined;
      }
    },
    lexed,
  );
  if (!body) return outline;
  const found: Diagnostic[] = [];
  let place: BodyPlace | undefined;
  for (;;) {
    yield;
    const stop = Math.min((place?.last ?? body.open) + tokensPerStep, lexed.tokens.count);
    const p = parser();
    p.begin(text, lexed.tokens);
    try {
      place = p.bodySlice(body, place, stop);
      if (p.engineErrors[0]) place = undefined;
    } catch {
      place = undefined;
    }
    for (const d of p.diagnostics) found.push(d);
    p.end();
    // Done when the statements stopped on their own (at a `}` or the end), not at `stop`.
    if (!place || place.last + 1 < stop || place.last + 1 >= body.close) break;
  }
  // They must end right before the `}` the outline went on from, as in a parse at once.
  if (place?.last !== body.close - 1) {
    yield;
    return whole();
  }
  const { diagnostics } = outline;
  const at = body.diagnosticsBefore;
  return { ...outline, diagnostics: [...diagnostics.slice(0, at), ...found, ...diagnostics.slice(at)] };
}

export function parseGraph(text: string): ParseResult<A.Graph> {
  return run(text, "graph", (p) => p.graph(true));
}

export function parseFunction(text: string): ParseResult<A.FunctionDef> {
  return run(text, "function", (p) => p.functionDef());
}

export function parseNode(text: string): ParseResult<A.OpNode> {
  return run(text, "node", (p) => p.node());
}

/**
 * The statements of the main graph's body between the token starting at `from` (the body's `{`
 * or the last token of the statement before) and the token starting at `until` (the first of
 * the statement after, or the body's `}`), read from `text` as parseModel reads them there: the
 * same nodes, the comments in between and the same diagnostics, provided the text before `from`
 * lexes and parses as it did when that token ended a statement (or opened the body) cleanly.
 * Undefined when the part does not line up (no such tokens) or the statements run past `until`.
 */
export function parseStatementsBetween(text: string, from: number, until: number): ParseResult<A.OpNode[]> | undefined {
  const lexed = tokenize(text, from, until);
  const toks = lexed.tokens;
  const last = toks.count - 1;
  if (last < 1 || toks.starts[0] !== from || toks.ends[0] !== from + 1 || toks.starts[last] !== until) return undefined;
  const p = parser();
  p.begin(text, toks);
  let nodes: A.OpNode[] | undefined;
  try {
    // Nesting 1: inside the main graph (model, then graph, which counts a level).
    nodes = p.statementsBetween(1);
    if (p.engineErrors[0]) nodes = undefined;
  } catch {
    nodes = undefined;
  }
  const parsed = p.diagnostics;
  p.end();
  if (!nodes) return undefined;
  const diagnostics = mergeByOffset(lexed.diagnostics, withoutLexerEchoes(text, lexed.diagnostics, parsed));
  return { ast: nodes, comments: lexed.comments, diagnostics };
}

export function parseTypeExpr(text: string): ParseResult<A.TypeExpr> {
  return run(text, "type", (p) => p.typeExpr());
}

export function parseTensorConstant(text: string): ParseResult<A.TensorValue> {
  return run(text, "tensor", (p) => p.tensorConstant());
}
