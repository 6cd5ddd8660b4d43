// The parser's machinery under the grammar rules of parser.ts: the token source Chevrotain reads
// (the scanner's typed arrays, one shared token object per kind), token access by index, the
// DSL helpers for decisions the rules take themselves, the messages, and the panic-mode recovery.
import type * as A from "./ast.js";
import { EmbeddedActionsParser, EOF, createToken, Lexer, type IToken, type TokenType } from "./chevrotain.js";
import type { Diagnostic } from "./diagnostics.js";
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
export function exact<T>(items: T[]): T[] {
  return items.length < 17 ? items.slice() : items;
}

export const NO_NAMES: readonly A.Name[] = Object.freeze([]);

/** Nodes are built field by field: optional fields stay absent, without temporary objects. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EMPTY_STREAM: TokenStream = {
  count: 0,
  kinds: new Uint8Array(1),
  starts: new Int32Array(1),
  ends: new Int32Array(1),
  isFloat: new Uint8Array(1),
  lists: new Map(),
};

/** A way of a decision the parser takes itself: `when` is tested at run time, in order. */
export interface Way<R> {
  readonly when: () => boolean;
  readonly take: () => R;
}

export abstract class ParserBase extends EmbeddedActionsParser {
  protected src = "";
  protected toks: TokenStream = EMPTY_STREAM;
  protected kinds: Uint8Array = EMPTY_STREAM.kinds;
  protected starts: Int32Array = EMPTY_STREAM.starts;
  protected ends: Int32Array = EMPTY_STREAM.ends;
  protected panic = false;
  protected depth = 0;
  protected lastEnd = 0;
  protected silenced = false;
  diagnostics: Diagnostic[] = [];
  protected opWords = new Map<string, string>();
  private readonly byKind: IToken[] = TYPE_OF_KIND.map(sharedToken);
  private readonly panicToken = sharedToken(Panic);

  /** Subclasses define their RULEs as fields, then call performSelfAnalysis. */
  constructor(validate: boolean) {
    super([...T.TOKENS], { recoveryEnabled: false, maxLookahead: 1, skipValidations: !validate, lookaheadStrategy: lazyLookahead(1) });
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

  protected get cur(): number {
    return this.currIdx + 1;
  }

  protected kind(t: number): Tok {
    return this.kinds[t] as Tok;
  }

  protected image(t: number): string {
    return this.src.slice(this.starts[t]!, this.ends[t]!);
  }

  protected spanOf(t: number): Span {
    return { start: this.starts[t]!, end: this.ends[t]! };
  }

  protected at(tt: Tok): boolean {
    return !this.panic && this.kinds[this.currIdx + 1] === tt;
  }

  protected atWord(pred: (w: string) => boolean): boolean {
    return !this.panic && this.kinds[this.currIdx + 1] === Tok.Identifier && pred(this.image(this.currIdx + 1));
  }

  protected atQid(): boolean {
    return this.at(Tok.Identifier) || this.at(Tok.String);
  }

  protected atInt(): boolean {
    return this.at(Tok.Number) && this.toks.isFloat[this.currIdx + 1] === 0;
  }

  protected get start(): number {
    return this.starts[this.currIdx + 1] ?? 0;
  }

  protected spanFrom(start: number): Span {
    return { start, end: Math.max(start, this.lastEnd) };
  }

  get atEnd(): boolean {
    return this.currIdx + 1 >= this.toks.count;
  }

  /** Skips the current token outside the grammar (recovery); never past the End sentinel. */
  protected skip(): void {
    const t = this.currIdx + 1;
    if (t < this.toks.count) this.currIdx++;
    this.lastEnd = this.ends[t]!;
  }

  // ---- DSL helpers ------------------------------------------------------------------------

  /**
   * CONSUMEs a `type` token if it is next (and `cond` holds), returning its index; otherwise
   * reports `expected WHAT` and returns -1. Recorded as a plain CONSUME.
   */
  protected token(idx: number, type: TokenType, what: string | (() => string), cond?: () => boolean): number {
    const t = this.currIdx + 1;
    if (this.RECORDING_PHASE || (!this.panic && this.byKind[this.kinds[t]!]!.tokenType === type && t < this.toks.count && (cond === undefined || cond()))) {
      this.consume(idx, type);
      return t;
    }
    this.fail(typeof what === "string" ? what : what());
    return -1;
  }

  /** An identifier or quoted string, recorded as an OR of the two. */
  protected qid(idx: number, what: string): A.Name | undefined {
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
  protected optionIf<R>(idx: number, when: () => boolean, then: () => R): R | undefined {
    if (this.RECORDING_PHASE) {
      this.option(idx, then);
      return undefined;
    }
    return when() ? then() : undefined;
  }

  /** A part taken on any token but the one `stop` sees (the reference parser's empty lists); an OPTION. */
  protected unless(idx: number, stop: () => boolean, then: () => void): void {
    if (this.RECORDING_PHASE) this.option(idx, then);
    else if (!stop()) then();
  }

  /** The first way whose `when` holds; recorded as an OR of all ways. */
  protected choose<R>(idx: number, ways: readonly Way<R>[]): R | undefined {
    if (this.RECORDING_PHASE) {
      this.or(
        idx,
        ways.map((w) => ({ ALT: w.take, IGNORE_AMBIGUITIES: true })),
      );
      return undefined;
    }
    for (const w of ways) if (w.when()) return w.take();
    return undefined;
  }

  // ---- messages and recovery --------------------------------------------------------------

  protected describe(t: number): string {
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
        return `the string ${(image.length > 24 ? image.slice(0, 20) + '..."' : image).replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n")}`;
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

  protected report(message: string, span: Span, code = "syntax"): void {
    if (this.silenced || this.RECORDING_PHASE) return;
    this.diagnostics.push({ severity: "error", code, message, span });
  }

  protected enter(): boolean {
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

  protected leave(): void {
    this.depth--;
  }

  protected tokSpan(): Span {
    return this.kind(this.cur) === Tok.End ? { start: this.lastEnd, end: this.lastEnd } : this.spanOf(this.cur);
  }

  /** True if a line break separates token `k` from the one before it. */
  protected startsLine(k: number): boolean {
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
  protected recoverToStatement(from: number): void {
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
  protected recoverToBody(): void {
    while (this.cur < this.toks.count && this.kind(this.cur) !== Tok.LBrace) this.skip();
    if (this.cur < this.toks.count) this.panic = false;
  }

  /** Skips past the `>` that closes a broken header, stopping early at a `{`. */
  protected recoverHeader(): void {
    while (this.cur < this.toks.count) {
      const tt = this.kind(this.cur);
      if (tt === Tok.LBrace) break;
      this.skip();
      if (tt === Tok.RAngle) break;
    }
    this.panic = false;
  }

  /** Leaves panic and skips to a line that starts a new top-level definition. */
  protected recoverToTopLevel(from: number): void {
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

  protected name(t: number): A.Name {
    const quoted = this.kind(t) === Tok.String;
    const image = this.image(t);
    return { kind: "Name", span: this.spanOf(t), value: quoted ? unquote(image) : image, quoted };
  }

  /**
   * An operator or domain name, its text shared with earlier uses: a big graph repeats a few
   * operator names thousands of times, and one copy of each is what stays in memory.
   */
  protected opWord(t: number): A.Name {
    return { kind: "Name", span: this.spanOf(t), value: this.opWordValue(t), quoted: false };
  }

  /** The text of an operator or domain name, shared with earlier uses (opWord). */
  protected opWordValue(t: number): string {
    const image = this.image(t);
    let value = this.opWords.get(image);
    if (value === undefined) this.opWords.set(image, (value = image));
    return value;
  }

  protected keyword(t: number): A.Keyword {
    return { kind: "Keyword", span: this.spanOf(t), text: this.image(t) };
  }

  protected str(t: number): A.StrLit {
    return { kind: "Str", span: this.spanOf(t), value: unquote(this.image(t)) };
  }

  protected numberLit(t: number): A.IntLit | A.FloatLit {
    const text = this.image(t);
    if (this.toks.isFloat[t] === 1) return { kind: "Float", span: this.spanOf(t), text, value: numberValue(text) };
    return { kind: "Int", span: this.spanOf(t), text, value: this.RECORDING_PHASE ? 0n : BigInt(text) };
  }

  protected wordFloat(t: number): A.FloatLit {
    const text = this.image(t);
    return { kind: "Float", span: this.spanOf(t), text, value: numberValue(text) };
  }

  protected intLit(idx: number, what: string): A.IntLit | undefined {
    const t = this.token(idx, T.NumberLit, what, () => this.toks.isFloat[this.cur] === 0);
    return t < 0 ? undefined : (this.numberLit(t) as A.IntLit);
  }

  protected strLit(idx: number, what: string): A.StrLit | undefined {
    const t = this.token(idx, T.StringLit, what);
    return t < 0 ? undefined : this.str(t);
  }
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

export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}
