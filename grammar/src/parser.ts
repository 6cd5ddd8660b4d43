// A recursive-descent parser over the Chevrotain token stream, building ast.ts nodes.
//
// Why not a Chevrotain grammar class: every decision in this syntax depends on the *text* of an
// identifier (type keyword or not, inf/nan or a graph name, which header key), plus one token of
// lookahead (syntax doc §2.7). Written directly, each decision reads like the doc and each error
// names exactly what was expected in that place.
//
// Error handling: the first error in a statement is reported and the parser enters "panic":
// every `at()` test fails, so all loops and options stop and the statement's node is returned
// with holes. The enclosing statement loop then skips to the next statement (a line that starts
// like a node, or the closing `}`) and leaves panic. So each broken statement gives one message.
import type { IToken, TokenType } from "./chevrotain.js";
import type * as A from "./ast.js";
import type { Diagnostic } from "./diagnostics.js";
import { ATTRIBUTE_TYPES, FUNCTION_HEADER_KEYS, INT_HEADER_KEYS, isElementType, isFloatWord, isTypeStart, MODEL_HEADER_KEYS } from "./keywords.js";
import type { PackedPayload } from "./number-scan.js";
import { numberValue } from "./number-scan.js";
import type { Span } from "./span.js";
import * as T from "./tokens.js";

/** Deeper nesting (types, subgraphs, lists) is refused with a clear message, never a stack overflow. */
export const MAX_NESTING = 256;


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

export class Parser {
  private i = 0;
  private panic = false;
  private depth = 0;
  private lastEnd = 0;
  private silenced = false;
  /** Reused by idList, so a list's entries are not first gathered in a fresh array. */
  private readonly scratch: (A.Name | A.Empty)[] = [];
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly text: string,
    private readonly toks: readonly IToken[],
  ) {}

  // ---- token access ----------------------------------------------------------------------

  private get cur(): IToken | undefined {
    return this.toks[this.i];
  }

  private at(tt: TokenType): boolean {
    return !this.panic && this.toks[this.i]?.tokenType === tt;
  }

  private atWord(pred: (w: string) => boolean): boolean {
    const t = this.toks[this.i];
    return !this.panic && t?.tokenType === T.Identifier && pred(t.image);
  }

  private get start(): number {
    const t = this.toks[this.i];
    return t ? t.startOffset : this.text.length;
  }

  private next(): IToken {
    const t = this.toks[this.i++]!;
    this.lastEnd = t.startOffset + t.image.length;
    return t;
  }

  private spanFrom(start: number): Span {
    return { start, end: Math.max(start, this.lastEnd) };
  }

  get atEnd(): boolean {
    return this.i >= this.toks.length;
  }

  private describe(t: IToken | undefined): string {
    if (!t) return "the end of the input";
    switch (t.tokenType) {
      case T.Identifier:
        return `'${t.image}'`;
      case T.NumberLit:
        return `the number ${t.image}`;
      case T.NumberList:
        return "a list of numbers";
      case T.StringLit:
        // Line breaks written as \n, so the message stays on one line.
        return `the string ${(t.image.length > 24 ? t.image.slice(0, 20) + "...\"" : t.image).replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n")}`;
      case T.UnterminatedString:
        return "a string with no closing quote";
      default:
        return `'${t.image}'`;
    }
  }

  /** Reports `expected WHAT, found X` (once per statement) and enters panic. */
  fail(what: string): void {
    if (this.panic) return;
    const t = this.cur;
    let span: Span;
    let found = this.describe(t);
    if (!t) {
      span = { start: this.lastEnd, end: this.lastEnd };
    } else if (this.i > 0 && /[\n\r]/.test(this.text.slice(this.lastEnd, t.startOffset))) {
      // The thing is missing at the end of a line: point there, not at the next line.
      span = { start: this.lastEnd, end: this.lastEnd };
      found += ` on line ${lineOf(this.text, t.startOffset)}`;
    } else {
      span = { start: t.startOffset, end: t.startOffset + Math.max(1, t.image.length) };
    }
    let message = `expected ${what}, found ${found}`;
    if (t?.tokenType === T.UnterminatedString) message = "this string has no closing quote";
    this.report(message, span);
    // An open string runs to the end of the input: whatever follows would only echo it.
    if (t?.tokenType === T.UnterminatedString) this.silenced = true;
    this.panic = true;
  }

  private report(message: string, span: Span, code = "syntax"): void {
    if (this.silenced) return;
    this.diagnostics.push({ severity: "error", code, message, span });
  }

  private expect(tt: TokenType, what: string): IToken | undefined {
    if (this.at(tt)) return this.next();
    this.fail(what);
    return undefined;
  }

  private enter(): boolean {
    if (++this.depth > MAX_NESTING) {
      if (!this.panic) {
        const t = this.cur;
        this.report(`nesting is deeper than ${MAX_NESTING} levels`, t ? { start: t.startOffset, end: t.startOffset + t.image.length } : { start: this.lastEnd, end: this.lastEnd });
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

  /** True if a line break separates token `k` from the one before it. */
  private startsLine(k: number): boolean {
    if (k === 0) return true;
    const prev = this.toks[k - 1]!;
    const t = this.toks[k]!;
    const gap = this.text.slice(prev.startOffset + prev.image.length, t.startOffset);
    return gap.includes("\n") || gap.includes("\r");
  }

  /**
   * Leaves panic and skips to where the next statement can start: a line beginning with
   * something a node can begin with, or the `}` closing the current block.
   */
  private recoverToStatement(from: number): void {
    this.panic = false;
    let depth = 0;
    if (this.i === from && this.i < this.toks.length && this.toks[this.i]!.tokenType !== T.RBrace) this.next();
    while (this.i < this.toks.length) {
      const t = this.toks[this.i]!;
      const tt = t.tokenType;
      if (depth === 0) {
        if (tt === T.RBrace) return;
        if (this.startsLine(this.i) && (tt === T.Identifier || tt === T.StringLit || tt === T.LBracket || tt === T.Comma)) return;
      }
      if (tt === T.LBrace) depth++;
      else if (tt === T.RBrace) depth--;
      this.next();
    }
  }

  /**
   * Skips to the next `{` (a body whose signature was broken) and leaves panic there; with no
   * `{` left, stays in panic so that nothing more is reported.
   */
  private recoverToBody(): void {
    while (this.i < this.toks.length && this.toks[this.i]!.tokenType !== T.LBrace) this.next();
    if (this.i < this.toks.length) this.panic = false;
  }

  /** Skips past the `>` that closes a broken header, stopping early at a `{`. */
  private recoverHeader(): void {
    while (this.i < this.toks.length) {
      const tt = this.toks[this.i]!.tokenType;
      if (tt === T.LBrace) break;
      this.next();
      if (tt === T.RAngle) break;
    }
    this.panic = false;
  }

  /** Leaves panic and skips to a line that starts a new top-level definition. */
  private recoverToTopLevel(from: number): void {
    this.panic = false;
    let depth = 0;
    if (this.i === from && this.i < this.toks.length) this.next();
    while (this.i < this.toks.length) {
      const t = this.toks[this.i]!;
      const tt = t.tokenType;
      if (depth === 0 && this.startsLine(this.i) && (tt === T.LAngle || tt === T.Identifier || tt === T.StringLit)) return;
      if (tt === T.LBrace) depth++;
      else if (tt === T.RBrace) depth = Math.max(0, depth - 1);
      this.next();
    }
  }

  /** Reports leftover tokens after a complete entry point. */
  expectEnd(what: string): void {
    if (!this.atEnd && !this.panic) this.fail(`the end of the input after the ${what}`);
  }

  // ---- names and literals -----------------------------------------------------------------

  private name(t: IToken): A.Name {
    const quoted = t.tokenType === T.StringLit;
    return {
      kind: "Name",
      span: { start: t.startOffset, end: t.startOffset + t.image.length },
      value: quoted ? unquote(t.image) : t.image,
      quoted,
    };
  }

  private atQid(): boolean {
    return this.at(T.Identifier) || this.at(T.StringLit);
  }

  /** An identifier or quoted string. */
  private qid(what: string): A.Name | undefined {
    if (this.atQid()) return this.name(this.next());
    this.fail(what);
    return undefined;
  }

  private ident(what: string): A.Name | undefined {
    if (this.at(T.Identifier)) return this.name(this.next());
    this.fail(what);
    return undefined;
  }

  private keyword(t: IToken): A.Keyword {
    return { kind: "Keyword", span: { start: t.startOffset, end: t.startOffset + t.image.length }, text: t.image };
  }

  private str(t: IToken): A.StrLit {
    return { kind: "Str", span: { start: t.startOffset, end: t.startOffset + t.image.length }, value: unquote(t.image) };
  }

  private numberLit(t: IToken): A.IntLit | A.FloatLit {
    const span = { start: t.startOffset, end: t.startOffset + t.image.length };
    if (t.payload === true) return { kind: "Float", span, text: t.image, value: numberValue(t.image) };
    return { kind: "Int", span, text: t.image, value: BigInt(t.image) };
  }

  private wordFloat(t: IToken): A.FloatLit {
    return { kind: "Float", span: { start: t.startOffset, end: t.startOffset + t.image.length }, text: t.image, value: numberValue(t.image) };
  }

  private intLit(what: string): A.IntLit | undefined {
    if (this.at(T.NumberLit) && this.cur!.payload !== true) return this.numberLit(this.next()) as A.IntLit;
    this.fail(what);
    return undefined;
  }

  private strLit(what: string): A.StrLit | undefined {
    if (this.at(T.StringLit)) return this.str(this.next());
    this.fail(what);
    return undefined;
  }

  // ---- model, headers, functions ----------------------------------------------------------

  model(): A.Model {
    const start = this.start;
    let header: A.Header | undefined;
    if (this.at(T.LAngle)) {
      header = this.header(MODEL_HEADER_KEYS, "model");
      if (this.panic) this.recoverHeader();
    }
    const graph = this.graph(true);
    const functions: A.FunctionDef[] = [];
    while (!this.atEnd) {
      const from = this.i;
      if (!this.at(T.LAngle) && !this.atQid()) {
        this.fail("a function definition or the end of the input after the main graph");
      } else {
        functions.push(this.functionDef());
      }
      if (this.panic) this.recoverToTopLevel(from);
    }
    return { kind: "Model", span: this.spanFrom(start), ...(header && { header }), ...(graph && { graph }), functions };
  }

  header(keys: readonly string[], owner: string): A.Header {
    const start = this.start;
    this.next(); // <
    const entries: A.HeaderEntry[] = [];
    do {
      const e = this.headerEntry(keys, owner);
      if (e) entries.push(e);
      if (this.at(T.Comma)) {
        this.next();
        continue;
      }
      if (!this.panic) this.expect(T.RAngle, `',' or '>' after a ${owner} header entry`);
      break;
    } while (!this.panic);
    return { kind: "Header", span: this.spanFrom(start), entries: exact(entries) };
  }

  private headerEntry(keys: readonly string[], owner: string): A.HeaderEntry | undefined {
    const start = this.start;
    if (!this.at(T.Identifier) || !keys.includes(this.cur!.image)) {
      this.fail(`a ${owner} header key (${keys.join(", ")})`);
      return undefined;
    }
    const keyTok = this.next();
    const key = this.keyword(keyTok);
    this.expect(T.Colon, `':' after '${keyTok.image}'`);
    let value: A.HeaderEntry["value"];
    const k = keyTok.image;
    if (k === "opset_import") value = this.opsetList();
    else if (k === "metadata_props") value = this.propList("metadata_props");
    else if (INT_HEADER_KEYS.includes(k)) value = this.intLit(`an integer for '${k}'`);
    else value = this.strLit(`a quoted string for '${k}'`);
    return { kind: "HeaderEntry", span: this.spanFrom(start), key, ...(value && { value }) };
  }

  private opsetList(): A.OpsetList | undefined {
    const start = this.start;
    if (!this.expect(T.LBracket, "'[' to start the opset list")) return undefined;
    const items: A.OpsetEntry[] = [];
    if (!this.at(T.RBracket)) {
      do {
        const s = this.start;
        const domain = this.strLit("an opset domain in quotes (e.g. \"\" : 21)");
        this.expect(T.Colon, "':' between the opset domain and its version");
        const version = this.intLit("an opset version (an integer)");
        items.push({ kind: "OpsetEntry", span: this.spanFrom(s), ...(domain && { domain }), ...(version && { version }) });
      } while (this.at(T.Comma) && this.next());
    }
    this.expect(T.RBracket, "',' or ']' in the opset list");
    return { kind: "OpsetList", span: this.spanFrom(start), items: exact(items) };
  }

  private propList(what: string, allowEmpty = true): A.PropList | undefined {
    const start = this.start;
    if (!this.expect(T.LBracket, `'[' to start the ${what} list`)) return undefined;
    const items: A.PropEntry[] = [];
    if (!this.at(T.RBracket) || !allowEmpty) {
      do {
        const s = this.start;
        const key = this.strLit(`a quoted key in the ${what} list`);
        this.expect(T.Colon, "':' between a key and its value");
        const value = this.strLit("a quoted value after ':'");
        items.push({ kind: "PropEntry", span: this.spanFrom(s), ...(key && { key }), ...(value && { value }) });
      } while (this.at(T.Comma) && this.next());
    }
    this.expect(T.RBracket, `',' or ']' in the ${what} list`);
    return { kind: "PropList", span: this.spanFrom(start), items: exact(items) };
  }

  functionDef(): A.FunctionDef {
    const start = this.start;
    let header: A.Header | undefined;
    if (this.at(T.LAngle)) {
      header = this.header(FUNCTION_HEADER_KEYS, "function");
      if (this.panic) this.recoverHeader();
    }
    const name = this.qid("a function name");
    let params: A.ParamList | undefined;
    if (this.at(T.LAngle)) params = this.paramList();
    const inputs = this.declList(T.LParen, T.RParen, "function input", false) ;
    this.expect(T.Arrow, "'=>' between the function inputs and outputs");
    const outputs = this.declList(T.LParen, T.RParen, "function output", false);
    let valueInfos: A.ValueDeclList | undefined;
    if (this.at(T.LAngle)) valueInfos = this.declList(T.LAngle, T.RAngle, "value info", false);
    if (this.panic) this.recoverToBody();
    const body = this.nodeBlock("function body");
    return {
      kind: "Function", span: this.spanFrom(start), ...(header && { header }), ...(name && { name }), ...(params && { params }),
      ...(inputs && { inputs }), ...(outputs && { outputs }), ...(valueInfos && { valueInfos }), ...(body && { body }),
    };
  }

  private paramList(): A.ParamList {
    const start = this.start;
    this.next(); // <
    const items: (A.Name | A.Attribute)[] = [];
    do {
      const s = this.start;
      const name = this.qid("a function attribute name");
      if (!name) break;
      if (this.at(T.Colon) || this.at(T.Equals)) items.push(this.attributeRest(s, name));
      else items.push(name);
    } while (this.at(T.Comma) && this.next());
    this.expect(T.RAngle, "',' or '>' in the function's attribute list");
    return { kind: "ParamList", span: this.spanFrom(start), items: exact(items) };
  }

  // ---- graphs -----------------------------------------------------------------------------

  /** `name (inputs)? => (outputs) <values>? { nodes }`; `topLevel` recovers into the body. */
  graph(topLevel: boolean): A.Graph | undefined {
    if (!this.enter()) return undefined;
    const start = this.start;
    const name = this.qid("a graph name");
    let inputs: A.ValueDeclList | undefined;
    if (this.at(T.LParen)) inputs = this.declList(T.LParen, T.RParen, "graph input", true);
    if (!this.panic && !this.at(T.Arrow)) this.fail(inputs ? "'=>' after the graph inputs" : "'(' and the graph inputs, or '=>'");
    else if (this.at(T.Arrow)) this.next();
    const outputs = this.declList(T.LParen, T.RParen, "graph output", false);
    let valueInfos: A.ValueDeclList | undefined;
    if (this.at(T.LAngle)) valueInfos = this.declList(T.LAngle, T.RAngle, "value info or initializer", true);
    if (topLevel && this.panic) this.recoverToBody();
    const body = this.nodeBlock("graph body");
    this.leave();
    return {
      kind: "Graph", span: this.spanFrom(start), ...(name && { name }), ...(inputs && { inputs }),
      ...(outputs && { outputs }), ...(valueInfos && { valueInfos }), ...(body && { body }),
    };
  }

  private declList(open: TokenType, close: TokenType, what: string, allowInit: boolean): A.ValueDeclList | undefined {
    const start = this.start;
    if (!this.expect(open, `'${open === T.LParen ? "(" : "<"}' to start the ${what} list`)) return undefined;
    const items: A.ValueDecl[] = [];
    const closeText = close === T.RParen ? ")" : ">";
    if (!this.at(close)) {
      do {
        const d = this.valueDecl(what, allowInit);
        if (d) items.push(d);
      } while (this.at(T.Comma) && this.next());
      if (!this.panic && !this.at(close)) {
        this.fail(`',' or '${closeText}' after a ${what}`);
      }
    }
    this.expect(close, `'${closeText}' to close the ${what} list`);
    return { kind: "ValueDeclList", span: this.spanFrom(start), items: exact(items) };
  }

  private valueDecl(what: string, allowInit: boolean): A.ValueDecl | undefined {
    const start = this.start;
    let type: A.TypeExpr | undefined;
    if (this.atWord(isTypeStart)) type = this.typeExpr();
    const name = this.qid(type ? `a name after the type of a ${what}` : `a ${what} (a type and a name, or a name)`);
    let init: A.TensorData | undefined;
    if (this.at(T.Equals)) {
      if (!allowInit) this.report(`a ${what} cannot have a value`, this.tokSpan());
      this.next();
      init = this.tensorData(true);
    }
    if (!type && !name && !init) return undefined;
    const d: Mutable<A.ValueDecl> = { kind: "ValueDecl", span: this.spanFrom(start) };
    if (type) d.type = type;
    if (name) d.name = name;
    if (init) d.init = init;
    return d;
  }

  private tokSpan(): Span {
    const t = this.cur;
    return t ? { start: t.startOffset, end: t.startOffset + t.image.length } : { start: this.lastEnd, end: this.lastEnd };
  }

  nodeBlock(what: string): A.NodeBlock | undefined {
    const start = this.start;
    const open = this.cur;
    if (!this.expect(T.LBrace, `'{' to start the ${what}`)) return undefined;
    const nodes: A.OpNode[] = [];
    while (this.i < this.toks.length && this.toks[this.i]!.tokenType !== T.RBrace) {
      const from = this.i;
      const n = this.node();
      if (n) nodes.push(n);
      if (this.panic) this.recoverToStatement(from);
    }
    if (!this.at(T.RBrace)) {
      const line = lineOf(this.text, open!.startOffset);
      this.fail(`'}' to close the ${what} opened on line ${line}`);
    } else this.next();
    return { kind: "NodeBlock", span: this.spanFrom(start), nodes };
  }

  // ---- nodes ------------------------------------------------------------------------------

  node(): A.OpNode | undefined {
    const start = this.start;
    const t = this.cur;
    if (!t || !(t.tokenType === T.Identifier || t.tokenType === T.StringLit || t.tokenType === T.LBracket || t.tokenType === T.Comma || t.tokenType === T.Equals)) {
      this.fail("a node (outputs = Op (inputs)) or '}'");
      return undefined;
    }
    let label: A.Label | undefined;
    if (this.at(T.LBracket)) {
      const s = this.start;
      this.next();
      const name = this.atQid() ? this.name(this.next()) : undefined;
      this.expect(T.RBracket, name ? "']' after the node label" : "a node label or ']'");
      label = { kind: "Label", span: this.spanFrom(s), ...(name && { name }) };
    }
    const outputs = this.idList();
    if (!this.panic && !this.at(T.Equals)) {
      const last = outputs.items[outputs.items.length - 1];
      this.fail(last?.kind === "Name" ? "',' or '=' after an output name" : "'=' after the node outputs");
    } else if (this.at(T.Equals)) this.next();
    const op = this.opName();
    let attributes: A.AttributeList | undefined;
    let after = false;
    if (this.at(T.LAngle)) attributes = this.attributeList();
    let inputs: A.IdList | undefined;
    if (this.at(T.LParen)) {
      this.next();
      inputs = this.idList();
      if (!this.panic && !this.at(T.RParen)) {
        const last = inputs.items[inputs.items.length - 1];
        this.fail(last?.kind === "Name" ? "',' or ')' after an input name" : "an input name or ')'");
      } else if (this.at(T.RParen)) this.next();
    } else if (!this.panic) {
      this.fail(attributes ? "'(' and the node inputs after the attributes" : "'(' and the node inputs after the operator name");
    }
    if (!attributes && this.at(T.LAngle)) {
      attributes = this.attributeList();
      after = true;
    }
    const n: Mutable<A.OpNode> = { kind: "Node", span: this.spanFrom(start), outputs, attributesAfterInputs: after };
    if (label) n.label = label;
    if (op) n.op = op;
    if (attributes) n.attributes = attributes;
    if (inputs) n.inputs = inputs;
    return n;
  }

  /** Id lists with the empty-entry rule of syntax doc §2.5. */
  private idList(): A.IdList {
    const start = this.start;
    // Gathered in the parser's scratch array (id lists never nest), then copied at exact size.
    const items = this.scratch;
    items.length = 0;
    let slot: A.Name | undefined = this.atQid() ? this.name(this.next()) : undefined;
    let slotAt = this.start;
    for (;;) {
      if (this.at(T.Comma)) {
        items.push(slot ?? { kind: "Empty", span: { start: slotAt, end: slotAt } });
        this.next();
        slotAt = this.start;
        slot = this.atQid() ? this.name(this.next()) : undefined;
        continue;
      }
      if (slot) items.push(slot);
      break;
    }
    const list: A.IdList = { kind: "IdList", span: items.length ? this.spanFrom(start) : { start, end: start }, items: items.slice() };
    items.length = 0;
    return list;
  }

  private opName(): A.OpName | undefined {
    const start = this.start;
    // The last name read is the op type; the array of domain parts exists only when there is one.
    let last: A.Name | undefined;
    let parts: A.Name[] | undefined;
    if (this.at(T.Identifier)) last = this.name(this.next());
    else if (!this.at(T.Dot) && !this.at(T.LParen)) {
      this.fail("an operator name after '='");
      return undefined;
    }
    while (this.at(T.Dot)) {
      this.next();
      const p = this.ident("an operator or domain name after '.'");
      if (p) {
        if (last) (parts ??= []).push(last);
        last = p;
      }
    }
    let overload: A.Name | undefined;
    if (this.at(T.Colon)) {
      this.next();
      overload = this.ident("an overload name after ':'");
    }
    const opType = last;
    const n: Mutable<A.OpName> = { kind: "OpName", span: this.spanFrom(start), domain: parts === undefined ? NO_NAMES : exact(parts) };
    if (opType) n.opType = opType;
    if (overload) n.overload = overload;
    return n;
  }

  // ---- attributes -------------------------------------------------------------------------

  private attributeList(): A.AttributeList {
    const start = this.start;
    this.next(); // <
    const items: A.Attribute[] = [];
    do {
      const s = this.start;
      const name = this.ident("an attribute name");
      if (!name) break;
      items.push(this.attributeRest(s, name));
    } while (this.at(T.Comma) && this.next());
    if (!this.panic && !this.at(T.RAngle)) this.fail("',' or '>' after an attribute");
    else if (this.at(T.RAngle)) this.next();
    return { kind: "AttributeList", span: this.spanFrom(start), items: exact(items) };
  }

  /** After the attribute name: `(: type)? = value`. */
  attributeRest(start: number, name: A.Name): A.Attribute {
    let annotation: A.Keyword | undefined;
    if (this.at(T.Colon)) {
      this.next();
      if (this.at(T.Identifier) && this.cur!.image in ATTRIBUTE_TYPES) annotation = this.keyword(this.next());
      else this.fail(`an attribute type (${Object.keys(ATTRIBUTE_TYPES).join(", ")}) after ':'`);
    }
    this.expect(T.Equals, annotation ? `'=' after the attribute type` : `':' or '=' after the attribute name '${name.value}'`);
    const value = this.panic ? undefined : this.attrValue();
    const a: Mutable<A.Attribute> = { kind: "Attribute", span: this.spanFrom(start), name };
    if (annotation) a.annotation = annotation;
    if (value) a.value = value;
    return a;
  }

  private attrValue(): A.AttrValue | undefined {
    if (!this.at(T.LBracket)) return this.singleValue(true);
    if (!this.enter()) return undefined;
    const start = this.start;
    this.next();
    const items: A.AttrValue[] = [];
    if (!this.at(T.RBracket)) {
      do {
        const v = this.singleValue(false);
        if (v) items.push(v);
      } while (this.at(T.Comma) && this.next());
    }
    this.expect(T.RBracket, "',' or ']' in the list value");
    this.leave();
    return { kind: "List", span: this.spanFrom(start), items: exact(items) };
  }

  private singleValue(topLevel: boolean): A.AttrValue | undefined {
    const t = this.cur;
    if (!this.panic && t) {
      switch (t.tokenType) {
        case T.NumberLit:
          return this.numberLit(this.next());
        case T.StringLit:
          return this.str(this.next());
        case T.At: {
          const s = this.start;
          this.next();
          const name = this.qid("an attribute name after '@'");
          return { kind: "Ref", span: this.spanFrom(s), ...(name && { name }) };
        }
        case T.Identifier:
          if (isTypeStart(t.image)) return this.typeOrTensorValue();
          if (isFloatWord(t.image)) return this.wordFloat(this.next());
          return this.graph(false);
      }
    }
    if (t && (t.tokenType === T.LBrace || t.tokenType === T.NumberList)) {
      this.fail("an attribute value; tensor data needs its type first, e.g. float[2] {1, 2}");
      return undefined;
    }
    this.fail(topLevel ? "an attribute value (a number, a string, a type, a tensor, a graph, '@name' or a '[...]' list)" : "a list element (a number, a string, a type, a tensor, a graph or '@name')");
    return undefined;
  }

  private typeOrTensorValue(): A.TensorValue | A.TypeValue | undefined {
    const start = this.start;
    const type = this.typeExpr();
    if (!type) return undefined;
    if (this.at(T.LBrace) || this.at(T.NumberList) || this.at(T.Equals) || this.at(T.Identifier)) {
      const name = this.at(T.Identifier) ? this.name(this.next()) : undefined;
      if (this.at(T.Equals)) this.next();
      const data = this.at(T.LBrace) || this.at(T.NumberList) || this.at(T.LBracket) ? this.tensorData(false) : undefined;
      return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) };
    }
    return { kind: "TypeValue", span: this.spanFrom(start), type };
  }

  /** `float[2] {1, 2}` or `float[2] name = {1, 2}`: a tensor constant alone. */
  tensorConstant(): A.TensorValue | undefined {
    const start = this.start;
    if (!this.atWord(isElementType)) {
      this.fail("a tensor type (e.g. float[2])");
      return undefined;
    }
    const type = this.typeExpr();
    if (!type) return undefined;
    const name = this.atQid() ? this.name(this.next()) : undefined;
    if (this.at(T.Equals)) this.next();
    const data = this.tensorData(true);
    return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) };
  }

  // ---- tensor data ------------------------------------------------------------------------

  private tensorData(required: boolean): A.TensorData | undefined {
    const start = this.start;
    if (this.at(T.NumberList)) {
      const t = this.next();
      const p = t.payload as PackedPayload;
      const span = { start: t.startOffset, end: t.startOffset + t.image.length };
      return { kind: "InlineData", span, elements: { kind: "PackedNumbers", span, values: p.values, allIntegers: p.allIntegers } };
    }
    if (this.at(T.LBrace)) {
      this.next();
      const elements: A.Literal[] = [];
      if (!this.at(T.RBrace)) {
        do {
          const t = this.cur;
          if (this.at(T.NumberLit)) elements.push(this.numberLit(this.next()));
          else if (this.at(T.StringLit)) elements.push(this.str(this.next()));
          else if (this.atWord(isFloatWord)) elements.push(this.wordFloat(this.next()));
          else {
            this.fail(t?.tokenType === T.Minus ? "a number right after '-' (write -5, not - 5)" : "a number or a quoted string in the tensor data");
            break;
          }
        } while (this.at(T.Comma) && this.next());
      }
      this.expect(T.RBrace, "',' or '}' in the tensor data");
      return { kind: "InlineData", span: this.spanFrom(start), elements };
    }
    if (this.at(T.LBracket)) {
      const props = this.propList("external data", false);
      if (!props) return undefined;
      return { kind: "ExternalData", span: this.spanFrom(start), props };
    }
    if (required) this.fail("tensor data: '{' with the values, or '[' with external data");
    return undefined;
  }

  // ---- types ------------------------------------------------------------------------------

  typeExpr(): A.TypeExpr | undefined {
    if (!this.atWord(isTypeStart)) {
      this.fail("a type (an element type such as float, or seq, map, optional, sparse_tensor, opaque)");
      return undefined;
    }
    if (!this.enter()) return undefined;
    const start = this.start;
    const t = this.next();
    let result: A.TypeExpr | undefined;
    switch (t.image) {
      case "seq":
      case "optional": {
        this.expect(T.LParen, `'(' after '${t.image}'`);
        const elem = this.typeExpr();
        this.expect(T.RParen, `')' to close '${t.image}('`);
        result = t.image === "seq" ? { kind: "SeqType", span: this.spanFrom(start), ...(elem && { elem }) } : { kind: "OptionalType", span: this.spanFrom(start), ...(elem && { elem }) };
        break;
      }
      case "map": {
        this.expect(T.LParen, "'(' after 'map'");
        let key: A.Keyword | undefined;
        if (this.atWord(isElementType)) key = this.keyword(this.next());
        else this.fail("a key element type (e.g. int64 or string) in 'map('");
        this.expect(T.Comma, "',' after the map key type");
        const value = this.typeExpr();
        this.expect(T.RParen, "')' to close 'map('");
        result = { kind: "MapType", span: this.spanFrom(start), ...(key && { key }), ...(value && { value }) };
        break;
      }
      case "sparse_tensor": {
        this.expect(T.LParen, "'(' after 'sparse_tensor'");
        let elem: A.TensorType | undefined;
        if (this.atWord(isElementType)) elem = this.tensorType(this.next());
        else this.fail("an element type (e.g. float[N]) in 'sparse_tensor('");
        this.expect(T.RParen, "')' to close 'sparse_tensor('");
        result = { kind: "SparseTensorType", span: this.spanFrom(start), ...(elem && { elem }) };
        break;
      }
      case "opaque": {
        this.expect(T.LParen, "'(' after 'opaque'");
        let first: A.Name[] | undefined;
        let second: A.Name | undefined;
        if (this.at(T.Identifier)) {
          first = [this.name(this.next())];
          while (this.at(T.Dot)) {
            this.next();
            const p = this.ident("a name after '.'");
            if (p) first.push(p);
          }
          if (this.at(T.Comma)) {
            this.next();
            second = this.ident("the opaque type name after ','");
          }
        }
        this.expect(T.RParen, first ? "',' or ')' in 'opaque('" : "a name or ')' in 'opaque('");
        result = { kind: "OpaqueType", span: this.spanFrom(start), ...(first && { first }), ...(second && { second }) };
        break;
      }
      default:
        result = this.tensorType(t);
    }
    this.leave();
    return result;
  }

  private tensorType(elemTok: IToken): A.TensorType {
    const start = elemTok.startOffset;
    const elem = this.keyword(elemTok);
    let shape: A.Shape | undefined;
    if (this.at(T.LBracket)) {
      const s = this.start;
      this.next();
      const dims: A.Dim[] = [];
      if (!this.at(T.RBracket)) {
        do {
          const d = this.dim();
          if (!d) break;
          dims.push(d);
        } while (this.at(T.Comma) && this.next());
      }
      this.expect(T.RBracket, "',' or ']' in the shape");
      shape = { kind: "Shape", span: this.spanFrom(s), dims: exact(dims) };
    }
    const t: Mutable<A.TensorType> = { kind: "TensorType", span: this.spanFrom(start), elem };
    if (shape) t.shape = shape;
    return t;
  }

  private dim(): A.Dim | undefined {
    const t = this.cur;
    const span = this.tokSpan();
    if (this.at(T.Question)) {
      this.next();
      return { kind: "Dim", span, value: { kind: "Unknown", span } };
    }
    if (this.atQid()) return { kind: "Dim", span, value: this.name(this.next()) };
    if (this.at(T.NumberLit) && t!.payload !== true) return { kind: "Dim", span, value: this.numberLit(this.next()) as A.IntLit };
    this.fail("a dimension (an integer, a name or '?')");
    return undefined;
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

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}
