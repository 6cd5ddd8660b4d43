// The grammar of the text syntax as a Chevrotain parser (EmbeddedActionsParser): every production
// is a RULE, every token a CONSUME of a token type from the table in tokens.ts, and the rules
// build the ast.ts nodes (with spans) directly. Chevrotain records the productions once per
// process (docs/grammar/ holds the railroad diagrams drawn from them).
//
// Tokens come from the fast scanner (scanner.ts) as typed arrays: LA() hands Chevrotain one shared
// token object per kind, and the rules read offsets by token index, so a large document costs no
// token objects (Chevrotain's lexer adapter is meant to be overridden this way).
//
// Decisions: where one token tells the way, Chevrotain's own lookahead decides (OPTION, MANY).
// Where the meaning depends on an identifier's text (type keyword or not, inf/nan or a graph
// name, which header key; syntax doc §2.7) or where the reference parser tries a production on
// any token but one, the rule decides itself (`optionIf`, `unless`, `choose`); those are recorded
// as OPTION / OR so that the grammar Chevrotain knows is the whole syntax.
//
// Error handling: the first error in a statement is reported ("expected X, found Y") and the
// parser enters "panic": LA() then returns a token that matches nothing, so every option and
// repetition stops and the statement's node is returned with holes. The enclosing statement
// loop skips to the next statement (a line that starts like a node, or the closing `}`) and
// leaves panic. So each broken statement gives one message, and nothing cascades.
import type * as A from "./ast.js";
import { EmbeddedActionsParser, EOF, createToken, Lexer, type IToken, type TokenType } from "./chevrotain.js";
import type { Diagnostic } from "./diagnostics.js";
import { ATTRIBUTE_TYPES, FUNCTION_HEADER_KEYS, INT_HEADER_KEYS, isElementType, isFloatWord, isTypeStart, MODEL_HEADER_KEYS } from "./keywords.js";
import { lazyLookahead } from "./lazy-lookahead.js";
import { numberValue } from "./number-scan.js";
import { Tok, type TokenStream } from "./scanner.js";
import type { Span } from "./span.js";
import * as T from "./tokens.js";

/**
 * Deeper nesting (types, subgraphs, lists) is refused with a clear message, never a stack overflow.
 * A subgraph level costs ~32 stack frames through Chevrotain's rule calls; a fresh process (code
 * not yet optimized, large frames) overflows Node's default stack at ~200 levels, so 128.
 */
export const MAX_NESTING = 128;

/** The token type of each scanner kind (the scanner's kinds are named after the token table). */
const TYPE_OF_KIND: TokenType[] = [];
for (const [name, kind] of Object.entries(Tok)) {
  const type = name === "End" ? EOF : T.TOKENS.find((t) => t.name === name);
  if (!type) throw new Error(`scanner kind ${name} has no token type`);
  TYPE_OF_KIND[kind] = type;
}

/** What LA() returns in panic: a token of a type no production expects. */
const Panic = createToken({ name: "Panic", pattern: Lexer.NA });

function sharedToken(tokenType: TokenType): IToken {
  return { image: "", startOffset: -1, tokenType, tokenTypeIdx: tokenType.tokenTypeIdx! };
}

/**
 * A copy without the spare capacity `push` leaves (an array grown from empty keeps room for 17):
 * small lists are most of a big graph's AST, so this roughly halves its memory.
 */
function exact<T>(items: T[]): T[] {
  return items.length < 17 ? items.slice() : items;
}

const NO_NAMES: readonly A.Name[] = Object.freeze([]);

/** Nodes are built field by field: optional fields stay absent, without temporary objects. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EMPTY_STREAM: TokenStream = {
  count: 0, kinds: new Uint8Array(1), starts: new Int32Array(1), ends: new Int32Array(1), isFloat: new Uint8Array(1), lists: new Map(),
};

/** A way of a decision the parser takes itself: `when` is tested at run time, in order. */
interface Way<R> {
  readonly when: () => boolean;
  readonly then: () => R;
}

export class OnnxTextParser extends EmbeddedActionsParser {
  private src = "";
  private toks: TokenStream = EMPTY_STREAM;
  private kinds: Uint8Array = EMPTY_STREAM.kinds;
  private starts: Int32Array = EMPTY_STREAM.starts;
  private ends: Int32Array = EMPTY_STREAM.ends;
  private panic = false;
  private depth = 0;
  private lastEnd = 0;
  private silenced = false;
  diagnostics: Diagnostic[] = [];
  private opWords = new Map<string, string>();
  private readonly byKind: IToken[] = TYPE_OF_KIND.map(sharedToken);
  private readonly panicToken = sharedToken(Panic);

  /** `validate` runs Chevrotain's grammar checks (tests); production skips them for start-up. */
  constructor(validate: boolean) {
    super([...T.TOKENS], { recoveryEnabled: false, maxLookahead: 1, skipValidations: !validate, lookaheadStrategy: lazyLookahead(1) });
    this.performSelfAnalysis();
  }

  /** Prepares a parse of `text` (tokens from the scanner); the rules are then called as entry points. */
  begin(text: string, toks: TokenStream): void {
    this.input = [];
    this.src = text;
    this.toks = toks;
    this.kinds = toks.kinds;
    this.starts = toks.starts;
    this.ends = toks.ends;
    this.panic = false;
    this.depth = 0;
    this.lastEnd = 0;
    this.silenced = false;
    this.diagnostics = [];
    this.opWords = new Map();
  }

  /** Drops the text and tokens of the last parse, so they are not kept alive by the shared instance. */
  end(): void {
    this.src = "";
    this.toks = EMPTY_STREAM;
    this.kinds = EMPTY_STREAM.kinds;
    this.starts = EMPTY_STREAM.starts;
    this.ends = EMPTY_STREAM.ends;
    this.opWords = new Map();
  }

  /** Errors Chevrotain recorded itself: none when the rules are right (a guard, never expected). */
  get engineErrors(): readonly { message: string }[] {
    return this.errors;
  }

  // ---- the token source: Chevrotain reads token kinds, the rules read offsets -------------

  protected override LA(howMuch: number): IToken {
    if (this.panic) return this.panicToken;
    const k = this.currIdx + howMuch;
    return k >= this.toks.count || k < 0 ? this.byKind[Tok.End]! : this.byKind[this.kinds[k]!]!;
  }

  protected override LA_FAST(howMuch: number): IToken {
    if (this.panic) return this.panicToken;
    const k = this.currIdx + howMuch;
    return k >= this.toks.count || k < 0 ? this.byKind[Tok.End]! : this.byKind[this.kinds[k]!]!;
  }

  /** Chevrotain's position: the index of the last consumed token (the lexer adapter's field). */
  declare protected currIdx: number;

  /** Chevrotain's lexer adapter calls this for every CONSUME. */
  protected consumeToken(): void {
    this.lastEnd = this.ends[++this.currIdx]!;
  }

  // The entry points pad and check the input themselves: no sentinels, and leftovers are reported by expectEnd.
  protected onBeforeParse(): void {}
  protected onAfterParse(): void {}

  // ---- token access: a token is its index in the stream; index `count` is the End sentinel ----

  private get cur(): number {
    return this.currIdx + 1;
  }

  private kind(t: number): Tok {
    return this.kinds[t] as Tok;
  }

  private image(t: number): string {
    return this.src.slice(this.starts[t]!, this.ends[t]!);
  }

  private spanOf(t: number): Span {
    return { start: this.starts[t]!, end: this.ends[t]! };
  }

  private at(tt: Tok): boolean {
    return !this.panic && this.kinds[this.currIdx + 1] === tt;
  }

  private atWord(pred: (w: string) => boolean): boolean {
    return !this.panic && this.kinds[this.currIdx + 1] === Tok.Identifier && pred(this.image(this.currIdx + 1));
  }

  private atQid(): boolean {
    return this.at(Tok.Identifier) || this.at(Tok.String);
  }

  private atInt(): boolean {
    return this.at(Tok.Number) && this.toks.isFloat[this.currIdx + 1] === 0;
  }

  private get start(): number {
    return this.starts[this.currIdx + 1] ?? 0;
  }

  private spanFrom(start: number): Span {
    return { start, end: Math.max(start, this.lastEnd) };
  }

  get atEnd(): boolean {
    return this.currIdx + 1 >= this.toks.count;
  }

  /** Skips the current token outside the grammar (recovery); never past the End sentinel. */
  private skip(): void {
    const t = this.currIdx + 1;
    if (t < this.toks.count) this.currIdx++;
    this.lastEnd = this.ends[t]!;
  }

  // ---- DSL helpers ------------------------------------------------------------------------

  /**
   * CONSUMEs a `type` token if it is next (and `cond` holds), returning its index; otherwise
   * reports `expected WHAT` and returns -1. Recorded as a plain CONSUME.
   */
  private token(idx: number, type: TokenType, what: string | (() => string), cond?: () => boolean): number {
    const t = this.currIdx + 1;
    if (this.RECORDING_PHASE || (!this.panic && this.byKind[this.kinds[t]!]!.tokenType === type && t < this.toks.count && (cond === undefined || cond()))) {
      this.consume(idx, type);
      return t;
    }
    this.fail(typeof what === "string" ? what : what());
    return -1;
  }

  /** An identifier or quoted string, recorded as an OR of the two. */
  private qid(idx: number, what: string): A.Name | undefined {
    if (this.RECORDING_PHASE) {
      this.or(idx, [{ ALT: () => this.consume(idx, T.Identifier) }, { ALT: () => this.consume(idx, T.StringLit) }]);
      return undefined;
    }
    const t = this.currIdx + 1;
    if (this.at(Tok.Identifier)) this.consume(idx, T.Identifier);
    else if (this.at(Tok.String)) this.consume(idx, T.StringLit);
    else {
      this.fail(what);
      return undefined;
    }
    return this.name(t);
  }

  /** An optional part the rule decides on itself; recorded as an OPTION. */
  private optionIf<R>(idx: number, when: () => boolean, then: () => R): R | undefined {
    if (this.RECORDING_PHASE) {
      this.option(idx, then);
      return undefined;
    }
    return when() ? then() : undefined;
  }

  /** A part taken on any token but the one `stop` sees (the reference parser's empty lists); an OPTION. */
  private unless(idx: number, stop: () => boolean, then: () => void): void {
    if (this.RECORDING_PHASE) this.option(idx, then);
    else if (!stop()) then();
  }

  /** The first way whose `when` holds; recorded as an OR of all ways. */
  private choose<R>(idx: number, ways: readonly Way<R>[]): R | undefined {
    if (this.RECORDING_PHASE) {
      this.or(idx, ways.map((w) => ({ ALT: w.then, IGNORE_AMBIGUITIES: true })));
      return undefined;
    }
    for (const w of ways) if (w.when()) return w.then();
    return undefined;
  }

  // ---- messages and recovery --------------------------------------------------------------

  private describe(t: number): string {
    const image = this.image(t);
    switch (this.kind(t)) {
      case Tok.End:
        return "the end of the input";
      case Tok.Identifier:
        return `'${image}'`;
      case Tok.Number:
        return `the number ${image}`;
      case Tok.NumberList:
        return "a list of numbers";
      case Tok.String:
        // Line breaks written as \n, so the message stays on one line.
        return `the string ${(image.length > 24 ? image.slice(0, 20) + "...\"" : image).replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n")}`;
      case Tok.UnterminatedString:
        return "a string with no closing quote";
      default:
        return `'${image}'`;
    }
  }

  /** Reports `expected WHAT, found X` (once per statement) and enters panic. */
  fail(what: string): void {
    if (this.panic || this.RECORDING_PHASE) return;
    const t = this.cur;
    let span: Span;
    let found = this.describe(t);
    const kind = this.kind(t);
    if (kind === Tok.End) {
      span = { start: this.lastEnd, end: this.lastEnd };
    } else if (t > 0 && /[\n\r]/.test(this.src.slice(this.lastEnd, this.starts[t]))) {
      // The thing is missing at the end of a line: point there, not at the next line.
      span = { start: this.lastEnd, end: this.lastEnd };
      found += ` on line ${lineOf(this.src, this.starts[t]!)}`;
    } else {
      span = { start: this.starts[t]!, end: Math.max(this.starts[t]! + 1, this.ends[t]!) };
    }
    let message = `expected ${what}, found ${found}`;
    if (kind === Tok.UnterminatedString) message = "this string has no closing quote";
    this.report(message, span);
    // An open string runs to the end of the input: whatever follows would only echo it.
    if (kind === Tok.UnterminatedString) this.silenced = true;
    this.panic = true;
  }

  private report(message: string, span: Span, code = "syntax"): void {
    if (this.silenced || this.RECORDING_PHASE) return;
    this.diagnostics.push({ severity: "error", code, message, span });
  }

  private enter(): boolean {
    if (++this.depth > MAX_NESTING) {
      if (!this.panic) {
        this.report(`nesting is deeper than ${MAX_NESTING} levels`, this.tokSpan());
        this.panic = true;
      }
      this.depth--;
      return false;
    }
    return true;
  }

  private leave(): void {
    this.depth--;
  }

  private tokSpan(): Span {
    return this.kind(this.cur) === Tok.End ? { start: this.lastEnd, end: this.lastEnd } : this.spanOf(this.cur);
  }

  /** True if a line break separates token `k` from the one before it. */
  private startsLine(k: number): boolean {
    if (k === 0) return true;
    for (let p = this.ends[k - 1]!, end = this.starts[k]!; p < end; p++) {
      const c = this.src.charCodeAt(p);
      if (c === 10 || c === 13) return true;
    }
    return false;
  }

  /**
   * Leaves panic and skips to where the next statement can start: a line beginning with
   * something a node can begin with, or the `}` closing the current block.
   */
  private recoverToStatement(from: number): void {
    this.panic = false;
    let depth = 0;
    const count = this.toks.count;
    if (this.cur === from && this.cur < count && this.kind(this.cur) !== Tok.RBrace) this.skip();
    while (this.cur < count) {
      const tt = this.kind(this.cur);
      if (depth === 0) {
        if (tt === Tok.RBrace) return;
        if (this.startsLine(this.cur) && (tt === Tok.Identifier || tt === Tok.String || tt === Tok.LBracket || tt === Tok.Comma)) return;
      }
      if (tt === Tok.LBrace) depth++;
      else if (tt === Tok.RBrace) depth--;
      this.skip();
    }
  }

  /**
   * Skips to the next `{` (a body whose signature was broken) and leaves panic there; with no
   * `{` left, stays in panic so that nothing more is reported.
   */
  private recoverToBody(): void {
    while (this.cur < this.toks.count && this.kind(this.cur) !== Tok.LBrace) this.skip();
    if (this.cur < this.toks.count) this.panic = false;
  }

  /** Skips past the `>` that closes a broken header, stopping early at a `{`. */
  private recoverHeader(): void {
    while (this.cur < this.toks.count) {
      const tt = this.kind(this.cur);
      if (tt === Tok.LBrace) break;
      this.skip();
      if (tt === Tok.RAngle) break;
    }
    this.panic = false;
  }

  /** Leaves panic and skips to a line that starts a new top-level definition. */
  private recoverToTopLevel(from: number): void {
    this.panic = false;
    let depth = 0;
    if (this.cur === from && this.cur < this.toks.count) this.skip();
    while (this.cur < this.toks.count) {
      const tt = this.kind(this.cur);
      if (depth === 0 && this.startsLine(this.cur) && (tt === Tok.LAngle || tt === Tok.Identifier || tt === Tok.String)) return;
      if (tt === Tok.LBrace) depth++;
      else if (tt === Tok.RBrace) depth = Math.max(0, depth - 1);
      this.skip();
    }
  }

  /** Reports leftover tokens after a complete entry point. */
  expectEnd(what: string): void {
    if (!this.atEnd && !this.panic) this.fail(`the end of the input after the ${what}`);
  }

  // ---- names and literals -----------------------------------------------------------------

  private name(t: number): A.Name {
    const quoted = this.kind(t) === Tok.String;
    const image = this.image(t);
    return { kind: "Name", span: this.spanOf(t), value: quoted ? unquote(image) : image, quoted };
  }

  /**
   * An operator or domain name, its text shared with earlier uses: a big graph repeats a few
   * operator names thousands of times, and one copy of each is what stays in memory.
   */
  private opWord(t: number): A.Name {
    const image = this.image(t);
    let value = this.opWords.get(image);
    if (value === undefined) this.opWords.set(image, (value = image));
    return { kind: "Name", span: this.spanOf(t), value, quoted: false };
  }

  private keyword(t: number): A.Keyword {
    return { kind: "Keyword", span: this.spanOf(t), text: this.image(t) };
  }

  private str(t: number): A.StrLit {
    return { kind: "Str", span: this.spanOf(t), value: unquote(this.image(t)) };
  }

  private numberLit(t: number): A.IntLit | A.FloatLit {
    const text = this.image(t);
    if (this.toks.isFloat[t] === 1) return { kind: "Float", span: this.spanOf(t), text, value: numberValue(text) };
    return { kind: "Int", span: this.spanOf(t), text, value: this.RECORDING_PHASE ? 0n : BigInt(text) };
  }

  private wordFloat(t: number): A.FloatLit {
    const text = this.image(t);
    return { kind: "Float", span: this.spanOf(t), text, value: numberValue(text) };
  }

  private intLit(idx: number, what: string): A.IntLit | undefined {
    const t = this.token(idx, T.NumberLit, what, () => this.toks.isFloat[this.cur] === 0);
    return t < 0 ? undefined : (this.numberLit(t) as A.IntLit);
  }

  private strLit(idx: number, what: string): A.StrLit | undefined {
    const t = this.token(idx, T.StringLit, what);
    return t < 0 ? undefined : this.str(t);
  }

  // ---- model, headers, functions ----------------------------------------------------------

  model = this.RULE("model", (): A.Model => {
    const start = this.start;
    const header = this.OPTION(() => {
      const h = this.SUBRULE(this.header, { ARGS: [MODEL_HEADER_KEYS, "model"] });
      if (this.panic) this.recoverHeader();
      return h;
    });
    const graph = this.SUBRULE(this.graph, { ARGS: [true] });
    const functions: A.FunctionDef[] = [];
    for (;;) {
      this.MANY(() => {
        const from = this.cur;
        functions.push(this.SUBRULE(this.functionDef));
        if (this.panic) this.recoverToTopLevel(from);
      });
      if (this.RECORDING_PHASE || this.atEnd) break;
      const from = this.cur;
      this.fail("a function definition or the end of the input after the main graph");
      this.recoverToTopLevel(from);
    }
    return { kind: "Model", span: this.spanFrom(start), ...(header && { header }), ...(graph && { graph }), functions };
  });

  header = this.RULE("header", (keys: readonly string[], owner: string): A.Header => {
    const start = this.start;
    this.CONSUME(T.LAngle);
    const entries: A.HeaderEntry[] = [];
    const first = this.SUBRULE1(this.headerEntry, { ARGS: [keys, owner] });
    if (first) entries.push(first);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      const e = this.SUBRULE2(this.headerEntry, { ARGS: [keys, owner] });
      if (e) entries.push(e);
    });
    this.token(1, T.RAngle, `',' or '>' after a ${owner} header entry`);
    return { kind: "Header", span: this.spanFrom(start), entries: exact(entries) };
  });

  headerEntry = this.RULE("headerEntry", (keys: readonly string[], owner: string): A.HeaderEntry | undefined => {
    const start = this.start;
    const t = this.token(1, T.Identifier, () => `a ${owner} header key (${keys.join(", ")})`, () => keys.includes(this.image(this.cur)));
    if (t < 0) return undefined;
    const key = this.keyword(t);
    const k = key.text;
    this.token(1, T.Colon, `':' after '${k}'`);
    const value = this.choose<A.HeaderEntry["value"]>(1, [
      { when: () => k === "opset_import", then: () => this.SUBRULE(this.opsetList) },
      { when: () => k === "metadata_props", then: () => this.SUBRULE(this.propList, { ARGS: ["metadata_props", true] }) },
      { when: () => INT_HEADER_KEYS.includes(k), then: () => this.intLit(2, `an integer for '${k}'`) },
      { when: () => true, then: () => this.strLit(2, `a quoted string for '${k}'`) },
    ]);
    return { kind: "HeaderEntry", span: this.spanFrom(start), key, ...(value && { value }) };
  });

  opsetList = this.RULE("opsetList", (): A.OpsetList | undefined => {
    const start = this.start;
    if (this.token(1, T.LBracket, "'[' to start the opset list") < 0) return undefined;
    const items: A.OpsetEntry[] = [];
    this.unless(1, () => this.at(Tok.RBracket), () => {
      items.push(this.SUBRULE1(this.opsetEntry));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        items.push(this.SUBRULE2(this.opsetEntry));
      });
    });
    this.token(1, T.RBracket, "',' or ']' in the opset list");
    return { kind: "OpsetList", span: this.spanFrom(start), items: exact(items) };
  });

  opsetEntry = this.RULE("opsetEntry", (): A.OpsetEntry => {
    const s = this.start;
    const domain = this.strLit(1, "an opset domain in quotes (e.g. \"\" : 21)");
    this.token(1, T.Colon, "':' between the opset domain and its version");
    const version = this.intLit(1, "an opset version (an integer)");
    return { kind: "OpsetEntry", span: this.spanFrom(s), ...(domain && { domain }), ...(version && { version }) };
  });

  propList = this.RULE("propList", (what: string, allowEmpty: boolean): A.PropList | undefined => {
    const start = this.start;
    if (this.token(1, T.LBracket, `'[' to start the ${what} list`) < 0) return undefined;
    const items: A.PropEntry[] = [];
    this.unless(1, () => this.at(Tok.RBracket) && allowEmpty, () => {
      items.push(this.SUBRULE1(this.propEntry, { ARGS: [what] }));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        items.push(this.SUBRULE2(this.propEntry, { ARGS: [what] }));
      });
    });
    this.token(1, T.RBracket, `',' or ']' in the ${what} list`);
    return { kind: "PropList", span: this.spanFrom(start), items: exact(items) };
  });

  propEntry = this.RULE("propEntry", (what: string): A.PropEntry => {
    const s = this.start;
    const key = this.strLit(1, `a quoted key in the ${what} list`);
    this.token(1, T.Colon, "':' between a key and its value");
    const value = this.strLit(2, "a quoted value after ':'");
    return { kind: "PropEntry", span: this.spanFrom(s), ...(key && { key }), ...(value && { value }) };
  });

  functionDef = this.RULE("functionDef", (): A.FunctionDef => {
    const start = this.start;
    const header = this.OPTION(() => {
      const h = this.SUBRULE(this.header, { ARGS: [FUNCTION_HEADER_KEYS, "function"] });
      if (this.panic) this.recoverHeader();
      return h;
    });
    const name = this.qid(1, "a function name");
    const params = this.OPTION2(() => this.SUBRULE(this.paramList));
    const inputs = this.SUBRULE1(this.parenDecls, { ARGS: ["function input", false] });
    this.token(1, T.Arrow, "'=>' between the function inputs and outputs");
    const outputs = this.SUBRULE2(this.parenDecls, { ARGS: ["function output", false] });
    const valueInfos = this.OPTION3(() => this.SUBRULE(this.angleDecls, { ARGS: ["value info", false] }));
    if (this.panic) this.recoverToBody();
    const body = this.SUBRULE(this.nodeBlock, { ARGS: ["function body"] });
    return {
      kind: "Function", span: this.spanFrom(start), ...(header && { header }), ...(name && { name }), ...(params && { params }),
      ...(inputs && { inputs }), ...(outputs && { outputs }), ...(valueInfos && { valueInfos }), ...(body && { body }),
    };
  });

  paramList = this.RULE("paramList", (): A.ParamList => {
    const start = this.start;
    this.CONSUME(T.LAngle);
    const items: (A.Name | A.Attribute)[] = [];
    const first = this.SUBRULE1(this.param);
    if (first) items.push(first);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      const p = this.SUBRULE2(this.param);
      if (p) items.push(p);
    });
    this.token(1, T.RAngle, "',' or '>' in the function's attribute list");
    return { kind: "ParamList", span: this.spanFrom(start), items: exact(items) };
  });

  /** A function attribute: a name, or a name with a type and/or default value. */
  param = this.RULE("param", (): A.Name | A.Attribute | undefined => {
    const s = this.start;
    const name = this.qid(1, "a function attribute name");
    if (!name && !this.RECORDING_PHASE) return undefined;
    return this.OPTION(() => this.SUBRULE(this.attributeRest, { ARGS: [s, name!] })) ?? name;
  });

  // ---- graphs -----------------------------------------------------------------------------

  /** `name (inputs)? => (outputs) <values>? { nodes }`; `topLevel` recovers into the body. */
  graph = this.RULE("graph", (topLevel: boolean): A.Graph | undefined => {
    if (!this.enter()) return undefined;
    const start = this.start;
    const name = this.qid(1, "a graph name");
    const inputs = this.OPTION(() => this.SUBRULE1(this.parenDecls, { ARGS: ["graph input", true] }));
    this.token(1, T.Arrow, inputs ? "'=>' after the graph inputs" : "'(' and the graph inputs, or '=>'");
    const outputs = this.SUBRULE2(this.parenDecls, { ARGS: ["graph output", false] });
    const valueInfos = this.OPTION2(() => this.SUBRULE(this.angleDecls, { ARGS: ["value info or initializer", true] }));
    if (topLevel && this.panic) this.recoverToBody();
    const body = this.SUBRULE(this.nodeBlock, { ARGS: ["graph body"] });
    this.leave();
    return {
      kind: "Graph", span: this.spanFrom(start), ...(name && { name }), ...(inputs && { inputs }),
      ...(outputs && { outputs }), ...(valueInfos && { valueInfos }), ...(body && { body }),
    };
  });

  parenDecls = this.RULE("parenDecls", (what: string, allowInit: boolean): A.ValueDeclList | undefined =>
    this.declList(T.LParen, T.RParen, what, allowInit),
  );

  angleDecls = this.RULE("angleDecls", (what: string, allowInit: boolean): A.ValueDeclList | undefined =>
    this.declList(T.LAngle, T.RAngle, what, allowInit),
  );

  /** The body of parenDecls and angleDecls, which differ only in their brackets. */
  private declList(open: TokenType, close: TokenType, what: string, allowInit: boolean): A.ValueDeclList | undefined {
    const start = this.start;
    const closeKind = close === T.RParen ? Tok.RParen : Tok.RAngle;
    if (this.token(1, open, () => `'${open === T.LParen ? "(" : "<"}' to start the ${what} list`) < 0) return undefined;
    const items: A.ValueDecl[] = [];
    const closeText = close === T.RParen ? ")" : ">";
    this.unless(1, () => this.at(closeKind), () => {
      const d = this.SUBRULE1(this.valueDecl, { ARGS: [what, allowInit] });
      if (d) items.push(d);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        const e = this.SUBRULE2(this.valueDecl, { ARGS: [what, allowInit] });
        if (e) items.push(e);
      });
      if (!this.panic && !this.at(closeKind)) this.fail(`',' or '${closeText}' after a ${what}`);
    });
    this.token(2, close, () => `'${closeText}' to close the ${what} list`);
    return { kind: "ValueDeclList", span: this.spanFrom(start), items: exact(items) };
  }

  valueDecl = this.RULE("valueDecl", (what: string, allowInit: boolean): A.ValueDecl | undefined => {
    const start = this.start;
    const type = this.OPTION({ GATE: () => this.atWord(isTypeStart), DEF: () => this.SUBRULE(this.typeExpr) });
    const name = this.qid(1, type ? `a name after the type of a ${what}` : `a ${what} (a type and a name, or a name)`);
    const init = this.OPTION2(() => {
      if (!allowInit) this.report(`a ${what} cannot have a value`, this.tokSpan());
      this.CONSUME(T.Equals);
      return this.SUBRULE(this.tensorData, { ARGS: [true] });
    });
    if (!type && !name && !init) return undefined;
    const d: Mutable<A.ValueDecl> = { kind: "ValueDecl", span: this.spanFrom(start) };
    if (type) d.type = type;
    if (name) d.name = name;
    if (init) d.init = init;
    return d;
  });

  nodeBlock = this.RULE("nodeBlock", (what: string): A.NodeBlock | undefined => {
    const start = this.start;
    const open = this.cur;
    if (this.token(1, T.LBrace, () => `'{' to start the ${what}`) < 0) return undefined;
    const nodes: A.OpNode[] = [];
    const statement = (): void => {
      const from = this.cur;
      const n = this.SUBRULE(this.node);
      if (n) nodes.push(n);
      if (this.panic) this.recoverToStatement(from);
    };
    for (;;) {
      // MANY, with its lookahead (the tokens a node starts with) tested here: subgraphs nest
      // through this loop, and Chevrotain's MANY would add five stack frames per level.
      if (this.RECORDING_PHASE) this.MANY(statement);
      else while (this.atStatementStart()) statement();
      if (this.RECORDING_PHASE || this.atEnd || this.kind(this.cur) === Tok.RBrace) break;
      // A token no statement starts with.
      const from = this.cur;
      this.fail("a node (outputs = Op (inputs)) or '}'");
      this.recoverToStatement(from);
    }
    this.token(2, T.RBrace, () => `'}' to close the ${what} opened on line ${lineOf(this.src, this.starts[open]!)}`);
    return { kind: "NodeBlock", span: this.spanFrom(start), nodes };
  });

  // ---- nodes ------------------------------------------------------------------------------

  /** The tokens a node can start with (the first set Chevrotain computes for `node`). */
  private atStatementStart(): boolean {
    if (this.panic) return false;
    const k = this.kinds[this.currIdx + 1];
    return this.currIdx + 1 < this.toks.count && (k === Tok.Identifier || k === Tok.String || k === Tok.LBracket || k === Tok.Comma || k === Tok.Equals);
  }

  // The rules of a node run once per statement of a big graph: their options take functions made
  // once per parser (these fields), so a statement allocates nothing but its AST.
  private readonly labelPart = (): A.Label => {
    const s = this.start;
    this.CONSUME(T.LBracket);
    const name = this.OPTION2(this.labelName);
    this.token(1, T.RBracket, name ? "']' after the node label" : "a node label or ']'");
    return { kind: "Label", span: this.spanFrom(s), ...(name && { name }) };
  };
  private readonly labelName = (): A.Name | undefined => this.qid(1, "a node label");
  private readonly attributesBefore = (): A.AttributeList => this.SUBRULE1(this.attributeList);
  private readonly attributesAfter = (): A.AttributeList => this.SUBRULE2(this.attributeList);
  private readonly outputId = (): A.Name | undefined => this.qid(11, "a name");
  private readonly inputId = (): A.Name | undefined => this.qid(12, "a name");
  private readonly opTypeWord = (): A.Name => this.opWord(this.token(31, T.Identifier, ""));

  node = this.RULE("node", (): A.OpNode | undefined => {
    const start = this.start;
    const k = this.kind(this.cur);
    if (!this.RECORDING_PHASE && !(k === Tok.Identifier || k === Tok.String || k === Tok.LBracket || k === Tok.Comma || k === Tok.Equals)) {
      this.fail("a node (outputs = Op (inputs)) or '}'");
      return undefined;
    }
    // Options of the hot path written out (optionIf's calls, inline): `OPTION` only while recording.
    const label = this.RECORDING_PHASE ? this.OPTION(this.labelPart) : this.at(Tok.LBracket) ? this.labelPart() : undefined;
    const outputs = this.idList(1);
    const lastOut = this.RECORDING_PHASE ? undefined : outputs.items[outputs.items.length - 1];
    this.token(1, T.Equals, lastOut?.kind === "Name" ? "',' or '=' after an output name" : "'=' after the node outputs");
    const op = this.opName();
    let attributes = this.RECORDING_PHASE ? this.OPTION3(this.attributesBefore) : this.at(Tok.LAngle) ? this.attributesBefore() : undefined;
    let inputs: A.IdList | undefined;
    if (this.token(1, T.LParen, attributes ? "'(' and the node inputs after the attributes" : "'(' and the node inputs after the operator name") >= 0) {
      inputs = this.idList(2);
      const lastIn = this.RECORDING_PHASE ? undefined : inputs.items[inputs.items.length - 1];
      this.token(1, T.RParen, lastIn?.kind === "Name" ? "',' or ')' after an input name" : "an input name or ')'");
    }
    let after = false;
    if (this.RECORDING_PHASE || !attributes) {
      attributes = this.RECORDING_PHASE ? this.OPTION4(this.attributesAfter) : this.at(Tok.LAngle) ? this.SUBRULE2(this.attributeList) : undefined;
      after = attributes !== undefined;
    }
    const span = this.spanFrom(start);
    // The usual node as one literal: fields added afterwards would go to a separate property store.
    if (!label && !attributes && op && inputs) return { kind: "Node", span, outputs, op, inputs, attributesAfterInputs: after };
    const n: Mutable<A.OpNode> = { kind: "Node", span, outputs, attributesAfterInputs: after };
    if (label) n.label = label;
    if (op) n.op = op;
    if (attributes) n.attributes = attributes;
    if (inputs) n.inputs = inputs;
    return n;
  });

  /**
   * Id lists with the empty-entry rule of syntax doc §2.5: the outputs (`which` 1) and the inputs
   * (2) of a node. A helper rather than a rule: two rule calls fewer per statement of a big graph.
   */
  private idList(which: 1 | 2): A.IdList {
    const start = this.start;
    const id = which === 1 ? this.outputId : this.inputId;
    const first = this.RECORDING_PHASE ? this.option(10 + which, id) : this.atQid() ? id() : undefined;
    // The common list of one name shares the name's span: big graphs are mostly such lists.
    if (first && !this.RECORDING_PHASE && !this.at(Tok.Comma)) return { kind: "IdList", span: first.span, items: [first] };
    return this.idListRest(which, start, this.RECORDING_PHASE ? undefined : first);
  }

  /** The rest of an id list whose first slot (a name or empty) is followed by a comma. */
  private idListRest(which: 1 | 2, start: number, first: A.Name | undefined): A.IdList {
    const items: (A.Name | A.Empty)[] = [];
    let slot = first;
    let slotAt = slot ? slot.span.start : start;
    this.many(10 + which, () => {
      items.push(slot ?? { kind: "Empty", span: { start: slotAt, end: slotAt } });
      this.consume(10 + which, T.Comma);
      slotAt = this.start;
      slot = this.option(20 + which, () => this.qid(20 + which, "a name"));
    });
    if (slot) items.push(slot);
    return { kind: "IdList", span: items.length ? this.spanFrom(start) : { start, end: start }, items: exact(items) };
  }

  /** `domain.parts.OpType:overload` (a helper of node, not a rule: one rule call fewer per statement). */
  private opName(): A.OpName | undefined {
    const start = this.start;
    const last = this.RECORDING_PHASE ? this.option(31, this.opTypeWord) : this.at(Tok.Identifier) ? this.opTypeWord() : undefined;
    if (!this.RECORDING_PHASE && last === undefined && !this.at(Tok.Dot) && !this.at(Tok.LParen)) {
      this.fail("an operator name after '='");
      return undefined;
    }
    if (last && !this.RECORDING_PHASE && !this.at(Tok.Dot) && !this.at(Tok.Colon)) return { kind: "OpName", span: last.span, domain: NO_NAMES, opType: last };
    return this.opNameRest(start, last);
  }

  /** Domain parts and an overload after the first word of an operator name. */
  private opNameRest(start: number, first: A.Name | undefined): A.OpName {
    // The last name read is the op type; the array of domain parts exists only when there is one.
    let last = this.RECORDING_PHASE ? undefined : first;
    let parts: A.Name[] | undefined;
    this.many(31, () => {
      this.consume(31, T.Dot);
      const t = this.token(32, T.Identifier, "an operator or domain name after '.'");
      if (t >= 0) {
        if (last) (parts ??= []).push(last);
        last = this.opWord(t);
      }
    });
    const overload = this.option(33, () => {
      this.consume(33, T.Colon);
      const t = this.token(33, T.Identifier, "an overload name after ':'");
      return t < 0 ? undefined : this.name(t);
    });
    const opType = last;
    if (opType && !parts && !overload) return { kind: "OpName", span: opType.span, domain: NO_NAMES, opType };
    const n: Mutable<A.OpName> = { kind: "OpName", span: this.spanFrom(start), domain: parts === undefined ? NO_NAMES : exact(parts) };
    if (opType) n.opType = opType;
    if (overload) n.overload = overload;
    return n;
  }

  // ---- attributes -------------------------------------------------------------------------

  attributeList = this.RULE("attributeList", (): A.AttributeList => {
    const start = this.start;
    this.CONSUME(T.LAngle);
    const items: A.Attribute[] = [];
    const first = this.attribute(1);
    if (first) items.push(first);
    this.MANY(() => {
      this.CONSUME(T.Comma);
      const a = this.attribute(2);
      if (a) items.push(a);
    });
    this.token(1, T.RAngle, "',' or '>' after an attribute");
    return { kind: "AttributeList", span: this.spanFrom(start), items: exact(items) };
  });

  /** `name (: type)? = value`, the `idx`-th occurrence in attributeList (a helper, not a rule: subgraphs nest through it). */
  private attribute(idx: number): A.Attribute | undefined {
    const s = this.start;
    const t = this.token(idx, T.Identifier, "an attribute name");
    if (t < 0) return undefined;
    return this.subrule(idx, this.attributeRest, { ARGS: [s, this.name(t)] });
  }

  /** After the attribute name: `(: type)? = value`. */
  attributeRest = this.RULE("attributeRest", (start: number, name: A.Name): A.Attribute => {
    const annotation = this.OPTION(() => {
      this.CONSUME(T.Colon);
      const t = this.token(1, T.Identifier, () => `an attribute type (${Object.keys(ATTRIBUTE_TYPES).join(", ")}) after ':'`, () => this.image(this.cur) in ATTRIBUTE_TYPES);
      return t < 0 ? undefined : this.keyword(t);
    });
    this.token(1, T.Equals, () => (annotation ? `'=' after the attribute type` : `':' or '=' after the attribute name '${name.value}'`));
    const value = this.panic ? undefined : this.attrValue();
    const a: Mutable<A.Attribute> = { kind: "Attribute", span: this.spanFrom(start), name };
    if (annotation) a.annotation = annotation;
    if (value) a.value = value;
    return a;
  });

  /** A value, or a `[...]` list of values (a helper of attributeRest, which subgraphs nest through). */
  private attrValue(): A.AttrValue | undefined {
    return this.choose<A.AttrValue | undefined>(1, [
      { when: () => !this.at(Tok.LBracket), then: () => this.SUBRULE1(this.singleValue, { ARGS: [true] }) },
      { when: () => true, then: () => this.SUBRULE(this.listValue) },
    ]);
  }

  listValue = this.RULE("listValue", (): A.ListValue | undefined => {
    if (!this.enter()) return undefined;
    const start = this.start;
    this.CONSUME(T.LBracket);
    const items: A.AttrValue[] = [];
    this.unless(1, () => this.at(Tok.RBracket), () => {
      const v = this.SUBRULE1(this.singleValue, { ARGS: [false] });
      if (v) items.push(v);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        const w = this.SUBRULE2(this.singleValue, { ARGS: [false] });
        if (w) items.push(w);
      });
    });
    this.token(1, T.RBracket, "',' or ']' in the list value");
    this.leave();
    return { kind: "List", span: this.spanFrom(start), items: exact(items) };
  });

  singleValue = this.RULE("singleValue", (topLevel: boolean): A.AttrValue | undefined =>
    this.choose<A.AttrValue | undefined>(1, [
      { when: () => this.at(Tok.Number), then: () => this.numberLit(this.token(1, T.NumberLit, "")) },
      { when: () => this.at(Tok.String), then: () => this.str(this.token(1, T.StringLit, "")) },
      {
        when: () => this.at(Tok.At),
        then: () => {
          const s = this.start;
          this.CONSUME(T.At);
          const name = this.qid(2, "an attribute name after '@'");
          return { kind: "Ref", span: this.spanFrom(s), ...(name && { name }) } as A.RefValue;
        },
      },
      { when: () => this.atWord(isTypeStart), then: () => this.SUBRULE(this.typeOrTensorValue) },
      { when: () => this.atWord(isFloatWord), then: () => this.wordFloat(this.token(1, T.Identifier, "")) },
      { when: () => this.at(Tok.Identifier), then: () => this.SUBRULE(this.graph, { ARGS: [false] }) },
      {
        when: () => true,
        then: () => {
          const kind = this.kind(this.cur);
          if (kind === Tok.LBrace || kind === Tok.NumberList) this.fail("an attribute value; tensor data needs its type first, e.g. float[2] {1, 2}");
          else this.fail(topLevel ? "an attribute value (a number, a string, a type, a tensor, a graph, '@name' or a '[...]' list)" : "a list element (a number, a string, a type, a tensor, a graph or '@name')");
          return undefined;
        },
      },
    ]),
  );

  typeOrTensorValue = this.RULE("typeOrTensorValue", (): A.TensorValue | A.TypeValue | undefined => {
    const start = this.start;
    const type = this.SUBRULE(this.typeExpr);
    if (!type) return undefined;
    const tensor = this.optionIf(1, () => this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.Equals) || this.at(Tok.Identifier), () => {
      const name = this.OPTION(() => this.name(this.token(1, T.Identifier, "")));
      this.OPTION2(() => this.CONSUME(T.Equals));
      const data = this.optionIf(3, () => this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.LBracket), () => this.SUBRULE(this.tensorData, { ARGS: [false] }));
      return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) } as A.TensorValue;
    });
    return tensor ?? { kind: "TypeValue", span: this.spanFrom(start), type };
  });

  /** `float[2] {1, 2}` or `float[2] name = {1, 2}`: a tensor constant alone. */
  tensorConstant = this.RULE("tensorConstant", (): A.TensorValue | undefined => {
    const start = this.start;
    if (!this.RECORDING_PHASE && !this.atWord(isElementType)) {
      this.fail("a tensor type (e.g. float[2])");
      return undefined;
    }
    const type = this.SUBRULE(this.typeExpr);
    if (!type) return undefined;
    const name = this.OPTION(() => this.qid(1, "a name"));
    this.OPTION2(() => this.CONSUME(T.Equals));
    const data = this.SUBRULE(this.tensorData, { ARGS: [true] });
    return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) };
  });

  // ---- tensor data ------------------------------------------------------------------------

  tensorData = this.RULE("tensorData", (required: boolean): A.TensorData | undefined => {
    const start = this.start;
    return this.choose<A.TensorData | undefined>(1, [
      {
        when: () => this.at(Tok.NumberList),
        then: () => {
          const t = this.token(1, T.NumberList, "");
          const p = this.toks.lists.get(t);
          if (!p) return undefined; // only while Chevrotain records the grammar
          const span = this.spanOf(t);
          return { kind: "InlineData", span, elements: { kind: "PackedNumbers", span, values: p.values, allIntegers: p.allIntegers } };
        },
      },
      {
        when: () => this.at(Tok.LBrace),
        then: () => {
          this.CONSUME(T.LBrace);
          const elements: A.Literal[] = [];
          this.unless(1, () => this.at(Tok.RBrace), () => {
            const e = this.SUBRULE1(this.dataElement);
            if (e) elements.push(e);
            this.MANY(() => {
              this.CONSUME(T.Comma);
              const f = this.SUBRULE2(this.dataElement);
              if (f) elements.push(f);
            });
          });
          this.token(1, T.RBrace, "',' or '}' in the tensor data");
          return { kind: "InlineData", span: this.spanFrom(start), elements };
        },
      },
      {
        when: () => this.at(Tok.LBracket),
        then: () => {
          const props = this.SUBRULE(this.propList, { ARGS: ["external data", false] });
          if (!props) return undefined;
          return { kind: "ExternalData", span: this.spanFrom(start), props };
        },
      },
      {
        when: () => true,
        then: () => {
          if (required) this.fail("tensor data: '{' with the values, or '[' with external data");
          return undefined;
        },
      },
    ]);
  });

  dataElement = this.RULE("dataElement", (): A.Literal | undefined =>
    this.choose<A.Literal | undefined>(1, [
      { when: () => this.at(Tok.Number), then: () => this.numberLit(this.token(1, T.NumberLit, "")) },
      { when: () => this.at(Tok.String), then: () => this.str(this.token(1, T.StringLit, "")) },
      { when: () => this.atWord(isFloatWord), then: () => this.wordFloat(this.token(1, T.Identifier, "")) },
      {
        when: () => true,
        then: () => {
          this.fail(this.kind(this.cur) === Tok.Minus ? "a number right after '-' (write -5, not - 5)" : "a number or a quoted string in the tensor data");
          return undefined;
        },
      },
    ]),
  );

  // ---- types ------------------------------------------------------------------------------

  typeExpr = this.RULE("typeExpr", (): A.TypeExpr | undefined => {
    if (!this.RECORDING_PHASE && !this.atWord(isTypeStart)) {
      this.fail("a type (an element type such as float, or seq, map, optional, sparse_tensor, opaque)");
      return undefined;
    }
    if (!this.enter()) return undefined;
    const start = this.start;
    const t = this.token(1, T.Identifier, "");
    const word = this.image(t);
    const result = this.choose<A.TypeExpr | undefined>(1, [
      {
        when: () => word === "seq" || word === "optional",
        then: () => {
          this.token(1, T.LParen, `'(' after '${word}'`);
          const elem = this.SUBRULE1(this.typeExpr);
          this.token(1, T.RParen, `')' to close '${word}('`);
          return word === "seq" ? { kind: "SeqType", span: this.spanFrom(start), ...(elem && { elem }) } : { kind: "OptionalType", span: this.spanFrom(start), ...(elem && { elem }) };
        },
      },
      {
        when: () => word === "map",
        then: () => {
          this.token(2, T.LParen, "'(' after 'map'");
          const k = this.token(2, T.Identifier, "a key element type (e.g. int64 or string) in 'map('", () => isElementType(this.image(this.cur)));
          const key = k < 0 ? undefined : this.keyword(k);
          this.token(1, T.Comma, "',' after the map key type");
          const value = this.SUBRULE2(this.typeExpr);
          this.token(2, T.RParen, "')' to close 'map('");
          return { kind: "MapType", span: this.spanFrom(start), ...(key && { key }), ...(value && { value }) };
        },
      },
      {
        when: () => word === "sparse_tensor",
        then: () => {
          this.token(3, T.LParen, "'(' after 'sparse_tensor'");
          const e = this.token(3, T.Identifier, "an element type (e.g. float[N]) in 'sparse_tensor('", () => isElementType(this.image(this.cur)));
          const elem = e < 0 ? undefined : this.SUBRULE1(this.tensorType, { ARGS: [e] });
          this.token(3, T.RParen, "')' to close 'sparse_tensor('");
          return { kind: "SparseTensorType", span: this.spanFrom(start), ...(elem && { elem }) };
        },
      },
      {
        when: () => word === "opaque",
        then: () => {
          this.token(4, T.LParen, "'(' after 'opaque'");
          let first: A.Name[] | undefined;
          let second: A.Name | undefined;
          this.OPTION(() => {
            first = [this.name(this.token(4, T.Identifier, ""))];
            this.MANY(() => {
              this.CONSUME(T.Dot);
              const p = this.token(5, T.Identifier, "a name after '.'");
              if (p >= 0) first!.push(this.name(p));
            });
            this.OPTION2(() => {
              this.CONSUME2(T.Comma);
              const s = this.token(6, T.Identifier, "the opaque type name after ','");
              if (s >= 0) second = this.name(s);
            });
          });
          this.token(4, T.RParen, first ? "',' or ')' in 'opaque('" : "a name or ')' in 'opaque('");
          return { kind: "OpaqueType", span: this.spanFrom(start), ...(first && { first }), ...(second && { second }) };
        },
      },
      { when: () => true, then: () => this.SUBRULE2(this.tensorType, { ARGS: [t] }) },
    ]);
    this.leave();
    return result;
  });

  /** An element type (already read, token `elemTok`) and its optional shape. */
  tensorType = this.RULE("tensorType", (elemTok: number): A.TensorType => {
    const start = this.starts[elemTok] ?? 0;
    const elem = this.keyword(elemTok);
    const shape = this.OPTION(() => {
      const s = this.start;
      this.CONSUME(T.LBracket);
      const dims: A.Dim[] = [];
      this.unless(1, () => this.at(Tok.RBracket), () => {
        const d = this.SUBRULE1(this.dim);
        if (d) dims.push(d);
        this.MANY(() => {
          this.CONSUME(T.Comma);
          const e = this.SUBRULE2(this.dim);
          if (e) dims.push(e);
        });
      });
      this.token(1, T.RBracket, "',' or ']' in the shape");
      return { kind: "Shape", span: this.spanFrom(s), dims: exact(dims) } as A.Shape;
    });
    const t: Mutable<A.TensorType> = { kind: "TensorType", span: this.spanFrom(start), elem };
    if (shape) t.shape = shape;
    return t;
  });

  dim = this.RULE("dim", (): A.Dim | undefined => {
    const span = this.tokSpan();
    return this.choose<A.Dim | undefined>(1, [
      {
        when: () => this.at(Tok.Question),
        then: () => {
          this.CONSUME(T.Question);
          return { kind: "Dim", span, value: { kind: "Unknown", span } };
        },
      },
      { when: () => this.atQid(), then: () => ({ kind: "Dim", span, value: this.qid(2, "")! }) },
      { when: () => this.atInt(), then: () => ({ kind: "Dim", span, value: this.numberLit(this.token(1, T.NumberLit, "")) as A.IntLit }) },
      {
        when: () => true,
        then: () => {
          this.fail("a dimension (an integer, a name or '?')");
          return undefined;
        },
      },
    ]);
  });
}

/** The content of a quoted string: a backslash takes the next character literally. */
export function unquote(image: string): string {
  const inner = image.slice(1, -1);
  if (!inner.includes("\\")) return inner;
  let out = "";
  for (let k = 0; k < inner.length; k++) {
    const c = inner[k]!;
    if (c === "\\" && k + 1 < inner.length) {
      out += inner[++k];
    } else out += c;
  }
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}
