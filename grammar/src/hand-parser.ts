// A recursive-descent parser over the scanner's token stream, building ast.ts nodes.
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
import type * as A from "./ast.js";
import type { Diagnostic } from "./diagnostics.js";
import { ATTRIBUTE_TYPES, FUNCTION_HEADER_KEYS, INT_HEADER_KEYS, isElementType, isFloatWord, isTypeStart, MODEL_HEADER_KEYS } from "./keywords.js";
import { numberValue } from "./number-scan.js";
import type { Span } from "./span.js";
import { Tok, type TokenStream } from "./scanner.js";

/** Deeper nesting (types, subgraphs, lists) is refused with a clear message, never a stack overflow. */
export const MAX_NESTING = 128; // the Chevrotain parser's limit, for the equality test


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
  readonly diagnostics: Diagnostic[] = [];
  private readonly opWords = new Map<string, string>();

  private readonly kinds: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(
    private readonly text: string,
    private readonly toks: TokenStream,
  ) {
    this.kinds = toks.kinds;
    this.starts = toks.starts;
    this.ends = toks.ends;
  }

  // ---- token access: a token is its index in the stream; index `count` is the End sentinel ----

  private get cur(): number {
    return this.i;
  }

  private kind(t: number): Tok {
    return this.kinds[t] as Tok;
  }

  private image(t: number): string {
    return this.text.slice(this.starts[t]!, this.ends[t]!);
  }

  private spanOf(t: number): Span {
    return { start: this.starts[t]!, end: this.ends[t]! };
  }

  private at(tt: Tok): boolean {
    return !this.panic && this.kinds[this.i] === tt;
  }

  private atWord(pred: (w: string) => boolean): boolean {
    return !this.panic && this.kinds[this.i] === Tok.Identifier && pred(this.image(this.i));
  }

  private get start(): number {
    return this.starts[this.i]!;
  }

  /** Consumes the current token (never past the End sentinel) and returns it. */
  private next(): number {
    const t = this.i;
    if (t < this.toks.count) this.i++;
    this.lastEnd = this.ends[t]!;
    return t;
  }

  private spanFrom(start: number): Span {
    return { start, end: Math.max(start, this.lastEnd) };
  }

  get atEnd(): boolean {
    return this.i >= this.toks.count;
  }

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
    if (this.panic) return;
    const t = this.cur;
    let span: Span;
    let found = this.describe(t);
    const kind = this.kind(t);
    if (kind === Tok.End) {
      span = { start: this.lastEnd, end: this.lastEnd };
    } else if (this.i > 0 && /[\n\r]/.test(this.text.slice(this.lastEnd, this.starts[t]))) {
      // The thing is missing at the end of a line: point there, not at the next line.
      span = { start: this.lastEnd, end: this.lastEnd };
      found += ` on line ${lineOf(this.text, this.starts[t]!)}`;
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
    if (this.silenced) return;
    this.diagnostics.push({ severity: "error", code, message, span });
  }

  /** Consumes a token of kind `tt` if it is next. */
  private eat(tt: Tok): boolean {
    if (!this.at(tt)) return false;
    this.next();
    return true;
  }

  private expect(tt: Tok, what: string): boolean {
    if (this.eat(tt)) return true;
    this.fail(what);
    return false;
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

  /** True if a line break separates token `k` from the one before it. */
  private startsLine(k: number): boolean {
    if (k === 0) return true;
    for (let p = this.ends[k - 1]!, end = this.starts[k]!; p < end; p++) {
      const c = this.text.charCodeAt(p);
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
    if (this.i === from && this.i < this.toks.count && this.kind(this.i) !== Tok.RBrace) this.next();
    while (this.i < this.toks.count) {
      const tt = this.kind(this.i);
      if (depth === 0) {
        if (tt === Tok.RBrace) return;
        if (this.startsLine(this.i) && (tt === Tok.Identifier || tt === Tok.String || tt === Tok.LBracket || tt === Tok.Comma)) return;
      }
      if (tt === Tok.LBrace) depth++;
      else if (tt === Tok.RBrace) depth--;
      this.next();
    }
  }

  /**
   * Skips to the next `{` (a body whose signature was broken) and leaves panic there; with no
   * `{` left, stays in panic so that nothing more is reported.
   */
  private recoverToBody(): void {
    while (this.i < this.toks.count && this.kind(this.i) !== Tok.LBrace) this.next();
    if (this.i < this.toks.count) this.panic = false;
  }

  /** Skips past the `>` that closes a broken header, stopping early at a `{`. */
  private recoverHeader(): void {
    while (this.i < this.toks.count) {
      const tt = this.kind(this.i);
      if (tt === Tok.LBrace) break;
      this.next();
      if (tt === Tok.RAngle) break;
    }
    this.panic = false;
  }

  /** Leaves panic and skips to a line that starts a new top-level definition. */
  private recoverToTopLevel(from: number): void {
    this.panic = false;
    let depth = 0;
    if (this.i === from && this.i < this.toks.count) this.next();
    while (this.i < this.toks.count) {
      const tt = this.kind(this.i);
      if (depth === 0 && this.startsLine(this.i) && (tt === Tok.LAngle || tt === Tok.Identifier || tt === Tok.String)) return;
      if (tt === Tok.LBrace) depth++;
      else if (tt === Tok.RBrace) depth = Math.max(0, depth - 1);
      this.next();
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
    return {
      kind: "Name",
      span: this.spanOf(t),
      value: quoted ? unquote(image) : image,
      quoted,
    };
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

  private atQid(): boolean {
    return this.at(Tok.Identifier) || this.at(Tok.String);
  }

  /** An identifier or quoted string. */
  private qid(what: string): A.Name | undefined {
    if (this.atQid()) return this.name(this.next());
    this.fail(what);
    return undefined;
  }

  private ident(what: string): A.Name | undefined {
    if (this.at(Tok.Identifier)) return this.name(this.next());
    this.fail(what);
    return undefined;
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
    return { kind: "Int", span: this.spanOf(t), text, value: BigInt(text) };
  }

  private wordFloat(t: number): A.FloatLit {
    const text = this.image(t);
    return { kind: "Float", span: this.spanOf(t), text, value: numberValue(text) };
  }

  private atInt(): boolean {
    return this.at(Tok.Number) && this.toks.isFloat[this.i] === 0;
  }

  private intLit(what: string): A.IntLit | undefined {
    if (this.atInt()) return this.numberLit(this.next()) as A.IntLit;
    this.fail(what);
    return undefined;
  }

  private strLit(what: string): A.StrLit | undefined {
    if (this.at(Tok.String)) return this.str(this.next());
    this.fail(what);
    return undefined;
  }

  // ---- model, headers, functions ----------------------------------------------------------

  model(): A.Model {
    const start = this.start;
    let header: A.Header | undefined;
    if (this.at(Tok.LAngle)) {
      header = this.header(MODEL_HEADER_KEYS, "model");
      if (this.panic) this.recoverHeader();
    }
    const graph = this.graph(true);
    const functions: A.FunctionDef[] = [];
    while (!this.atEnd) {
      const from = this.i;
      if (!this.at(Tok.LAngle) && !this.atQid()) {
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
      if (this.at(Tok.Comma)) {
        this.next();
        continue;
      }
      if (!this.panic) this.expect(Tok.RAngle, `',' or '>' after a ${owner} header entry`);
      break;
    } while (!this.panic);
    return { kind: "Header", span: this.spanFrom(start), entries: exact(entries) };
  }

  private headerEntry(keys: readonly string[], owner: string): A.HeaderEntry | undefined {
    const start = this.start;
    if (!this.at(Tok.Identifier) || !keys.includes(this.image(this.cur))) {
      this.fail(`a ${owner} header key (${keys.join(", ")})`);
      return undefined;
    }
    const key = this.keyword(this.next());
    const k = key.text;
    this.expect(Tok.Colon, `':' after '${k}'`);
    let value: A.HeaderEntry["value"];
    if (k === "opset_import") value = this.opsetList();
    else if (k === "metadata_props") value = this.propList("metadata_props");
    else if (INT_HEADER_KEYS.includes(k)) value = this.intLit(`an integer for '${k}'`);
    else value = this.strLit(`a quoted string for '${k}'`);
    return { kind: "HeaderEntry", span: this.spanFrom(start), key, ...(value && { value }) };
  }

  private opsetList(): A.OpsetList | undefined {
    const start = this.start;
    if (!this.expect(Tok.LBracket, "'[' to start the opset list")) return undefined;
    const items: A.OpsetEntry[] = [];
    if (!this.at(Tok.RBracket)) {
      do {
        const s = this.start;
        const domain = this.strLit("an opset domain in quotes (e.g. \"\" : 21)");
        this.expect(Tok.Colon, "':' between the opset domain and its version");
        const version = this.intLit("an opset version (an integer)");
        items.push({ kind: "OpsetEntry", span: this.spanFrom(s), ...(domain && { domain }), ...(version && { version }) });
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBracket, "',' or ']' in the opset list");
    return { kind: "OpsetList", span: this.spanFrom(start), items: exact(items) };
  }

  private propList(what: string, allowEmpty = true): A.PropList | undefined {
    const start = this.start;
    if (!this.expect(Tok.LBracket, `'[' to start the ${what} list`)) return undefined;
    const items: A.PropEntry[] = [];
    if (!this.at(Tok.RBracket) || !allowEmpty) {
      do {
        const s = this.start;
        const key = this.strLit(`a quoted key in the ${what} list`);
        this.expect(Tok.Colon, "':' between a key and its value");
        const value = this.strLit("a quoted value after ':'");
        items.push({ kind: "PropEntry", span: this.spanFrom(s), ...(key && { key }), ...(value && { value }) });
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBracket, `',' or ']' in the ${what} list`);
    return { kind: "PropList", span: this.spanFrom(start), items: exact(items) };
  }

  functionDef(): A.FunctionDef {
    const start = this.start;
    let header: A.Header | undefined;
    if (this.at(Tok.LAngle)) {
      header = this.header(FUNCTION_HEADER_KEYS, "function");
      if (this.panic) this.recoverHeader();
    }
    const name = this.qid("a function name");
    let params: A.ParamList | undefined;
    if (this.at(Tok.LAngle)) params = this.paramList();
    const inputs = this.declList(Tok.LParen, Tok.RParen, "function input", false) ;
    this.expect(Tok.Arrow, "'=>' between the function inputs and outputs");
    const outputs = this.declList(Tok.LParen, Tok.RParen, "function output", false);
    let valueInfos: A.ValueDeclList | undefined;
    if (this.at(Tok.LAngle)) valueInfos = this.declList(Tok.LAngle, Tok.RAngle, "value info", false);
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
      if (this.at(Tok.Colon) || this.at(Tok.Equals)) items.push(this.attributeRest(s, name));
      else items.push(name);
    } while (this.eat(Tok.Comma));
    this.expect(Tok.RAngle, "',' or '>' in the function's attribute list");
    return { kind: "ParamList", span: this.spanFrom(start), items: exact(items) };
  }

  // ---- graphs -----------------------------------------------------------------------------

  /** `name (inputs)? => (outputs) <values>? { nodes }`; `topLevel` recovers into the body. */
  graph(topLevel: boolean): A.Graph | undefined {
    if (!this.enter()) return undefined;
    const start = this.start;
    const name = this.qid("a graph name");
    let inputs: A.ValueDeclList | undefined;
    if (this.at(Tok.LParen)) inputs = this.declList(Tok.LParen, Tok.RParen, "graph input", true);
    if (!this.panic && !this.at(Tok.Arrow)) this.fail(inputs ? "'=>' after the graph inputs" : "'(' and the graph inputs, or '=>'");
    else if (this.at(Tok.Arrow)) this.next();
    const outputs = this.declList(Tok.LParen, Tok.RParen, "graph output", false);
    let valueInfos: A.ValueDeclList | undefined;
    if (this.at(Tok.LAngle)) valueInfos = this.declList(Tok.LAngle, Tok.RAngle, "value info or initializer", true);
    if (topLevel && this.panic) this.recoverToBody();
    const body = this.nodeBlock("graph body");
    this.leave();
    return {
      kind: "Graph", span: this.spanFrom(start), ...(name && { name }), ...(inputs && { inputs }),
      ...(outputs && { outputs }), ...(valueInfos && { valueInfos }), ...(body && { body }),
    };
  }

  private declList(open: Tok, close: Tok, what: string, allowInit: boolean): A.ValueDeclList | undefined {
    const start = this.start;
    if (!this.expect(open, `'${open === Tok.LParen ? "(" : "<"}' to start the ${what} list`)) return undefined;
    const items: A.ValueDecl[] = [];
    const closeText = close === Tok.RParen ? ")" : ">";
    if (!this.at(close)) {
      do {
        const d = this.valueDecl(what, allowInit);
        if (d) items.push(d);
      } while (this.eat(Tok.Comma));
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
    if (this.at(Tok.Equals)) {
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
    return this.kind(this.cur) === Tok.End ? { start: this.lastEnd, end: this.lastEnd } : this.spanOf(this.cur);
  }

  nodeBlock(what: string): A.NodeBlock | undefined {
    const start = this.start;
    const open = this.cur;
    if (!this.expect(Tok.LBrace, `'{' to start the ${what}`)) return undefined;
    const nodes: A.OpNode[] = [];
    while (this.i < this.toks.count && this.kind(this.i) !== Tok.RBrace) {
      const from = this.i;
      const n = this.node();
      if (n) nodes.push(n);
      if (this.panic) this.recoverToStatement(from);
    }
    if (!this.at(Tok.RBrace)) {
      const line = lineOf(this.text, this.starts[open]!);
      this.fail(`'}' to close the ${what} opened on line ${line}`);
    } else this.next();
    return { kind: "NodeBlock", span: this.spanFrom(start), nodes };
  }

  // ---- nodes ------------------------------------------------------------------------------

  node(): A.OpNode | undefined {
    const start = this.start;
    const k = this.kind(this.cur);
    if (!(k === Tok.Identifier || k === Tok.String || k === Tok.LBracket || k === Tok.Comma || k === Tok.Equals)) {
      this.fail("a node (outputs = Op (inputs)) or '}'");
      return undefined;
    }
    let label: A.Label | undefined;
    if (this.at(Tok.LBracket)) {
      const s = this.start;
      this.next();
      const name = this.atQid() ? this.name(this.next()) : undefined;
      this.expect(Tok.RBracket, name ? "']' after the node label" : "a node label or ']'");
      label = { kind: "Label", span: this.spanFrom(s), ...(name && { name }) };
    }
    const outputs = this.idList();
    if (!this.panic && !this.at(Tok.Equals)) {
      const last = outputs.items[outputs.items.length - 1];
      this.fail(last?.kind === "Name" ? "',' or '=' after an output name" : "'=' after the node outputs");
    } else if (this.at(Tok.Equals)) this.next();
    const op = this.opName();
    let attributes: A.AttributeList | undefined;
    let after = false;
    if (this.at(Tok.LAngle)) attributes = this.attributeList();
    let inputs: A.IdList | undefined;
    if (this.at(Tok.LParen)) {
      this.next();
      inputs = this.idList();
      if (!this.panic && !this.at(Tok.RParen)) {
        const last = inputs.items[inputs.items.length - 1];
        this.fail(last?.kind === "Name" ? "',' or ')' after an input name" : "an input name or ')'");
      } else if (this.at(Tok.RParen)) this.next();
    } else if (!this.panic) {
      this.fail(attributes ? "'(' and the node inputs after the attributes" : "'(' and the node inputs after the operator name");
    }
    if (!attributes && this.at(Tok.LAngle)) {
      attributes = this.attributeList();
      after = true;
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
  }

  /** Id lists with the empty-entry rule of syntax doc §2.5. */
  private idList(): A.IdList {
    const start = this.start;
    let slot: A.Name | undefined = this.atQid() ? this.name(this.next()) : undefined;
    // The common list of one name shares the name's span: big graphs are mostly such lists.
    if (slot && !this.at(Tok.Comma)) return { kind: "IdList", span: slot.span, items: [slot] };
    const items: (A.Name | A.Empty)[] = [];
    let slotAt = slot ? slot.span.start : start;
    for (;;) {
      if (this.at(Tok.Comma)) {
        items.push(slot ?? { kind: "Empty", span: { start: slotAt, end: slotAt } });
        this.next();
        slotAt = this.start;
        slot = this.atQid() ? this.name(this.next()) : undefined;
        continue;
      }
      if (slot) items.push(slot);
      break;
    }
    return { kind: "IdList", span: items.length ? this.spanFrom(start) : { start, end: start }, items: exact(items) };
  }

  private opName(): A.OpName | undefined {
    const start = this.start;
    // The last name read is the op type; the array of domain parts exists only when there is one.
    let last: A.Name | undefined;
    let parts: A.Name[] | undefined;
    if (this.at(Tok.Identifier)) last = this.opWord(this.next());
    else if (!this.at(Tok.Dot) && !this.at(Tok.LParen)) {
      this.fail("an operator name after '='");
      return undefined;
    }
    while (this.at(Tok.Dot)) {
      this.next();
      const p = this.at(Tok.Identifier) ? this.opWord(this.next()) : this.ident("an operator or domain name after '.'");
      if (p) {
        if (last) (parts ??= []).push(last);
        last = p;
      }
    }
    let overload: A.Name | undefined;
    if (this.at(Tok.Colon)) {
      this.next();
      overload = this.ident("an overload name after ':'");
    }
    const opType = last;
    if (opType && !parts && !overload) return { kind: "OpName", span: opType.span, domain: NO_NAMES, opType };
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
    } while (this.eat(Tok.Comma));
    if (!this.panic && !this.at(Tok.RAngle)) this.fail("',' or '>' after an attribute");
    else if (this.at(Tok.RAngle)) this.next();
    return { kind: "AttributeList", span: this.spanFrom(start), items: exact(items) };
  }

  /** After the attribute name: `(: type)? = value`. */
  attributeRest(start: number, name: A.Name): A.Attribute {
    let annotation: A.Keyword | undefined;
    if (this.at(Tok.Colon)) {
      this.next();
      if (this.at(Tok.Identifier) && this.image(this.cur) in ATTRIBUTE_TYPES) annotation = this.keyword(this.next());
      else this.fail(`an attribute type (${Object.keys(ATTRIBUTE_TYPES).join(", ")}) after ':'`);
    }
    this.expect(Tok.Equals, annotation ? `'=' after the attribute type` : `':' or '=' after the attribute name '${name.value}'`);
    const value = this.panic ? undefined : this.attrValue();
    const a: Mutable<A.Attribute> = { kind: "Attribute", span: this.spanFrom(start), name };
    if (annotation) a.annotation = annotation;
    if (value) a.value = value;
    return a;
  }

  private attrValue(): A.AttrValue | undefined {
    if (!this.at(Tok.LBracket)) return this.singleValue(true);
    if (!this.enter()) return undefined;
    const start = this.start;
    this.next();
    const items: A.AttrValue[] = [];
    if (!this.at(Tok.RBracket)) {
      do {
        const v = this.singleValue(false);
        if (v) items.push(v);
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBracket, "',' or ']' in the list value");
    this.leave();
    return { kind: "List", span: this.spanFrom(start), items: exact(items) };
  }

  private singleValue(topLevel: boolean): A.AttrValue | undefined {
    const t = this.cur;
    const kind = this.kind(t);
    if (!this.panic) {
      switch (kind) {
        case Tok.Number:
          return this.numberLit(this.next());
        case Tok.String:
          return this.str(this.next());
        case Tok.At: {
          const s = this.start;
          this.next();
          const name = this.qid("an attribute name after '@'");
          return { kind: "Ref", span: this.spanFrom(s), ...(name && { name }) };
        }
        case Tok.Identifier:
          if (isTypeStart(this.image(t))) return this.typeOrTensorValue();
          if (isFloatWord(this.image(t))) return this.wordFloat(this.next());
          return this.graph(false);
      }
    }
    if (kind === Tok.LBrace || kind === Tok.NumberList) {
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
    if (this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.Equals) || this.at(Tok.Identifier)) {
      const name = this.at(Tok.Identifier) ? this.name(this.next()) : undefined;
      if (this.at(Tok.Equals)) this.next();
      const data = this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.LBracket) ? this.tensorData(false) : undefined;
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
    if (this.at(Tok.Equals)) this.next();
    const data = this.tensorData(true);
    return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) };
  }

  // ---- tensor data ------------------------------------------------------------------------

  private tensorData(required: boolean): A.TensorData | undefined {
    const start = this.start;
    if (this.at(Tok.NumberList)) {
      const t = this.next();
      const p = this.toks.lists.get(t)!;
      const span = this.spanOf(t);
      return { kind: "InlineData", span, elements: { kind: "PackedNumbers", span, values: p.values, allIntegers: p.allIntegers } };
    }
    if (this.at(Tok.LBrace)) {
      this.next();
      const elements: A.Literal[] = [];
      if (!this.at(Tok.RBrace)) {
        do {
          const t = this.cur;
          if (this.at(Tok.Number)) elements.push(this.numberLit(this.next()));
          else if (this.at(Tok.String)) elements.push(this.str(this.next()));
          else if (this.atWord(isFloatWord)) elements.push(this.wordFloat(this.next()));
          else {
            this.fail(this.kind(t) === Tok.Minus ? "a number right after '-' (write -5, not - 5)" : "a number or a quoted string in the tensor data");
            break;
          }
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RBrace, "',' or '}' in the tensor data");
      return { kind: "InlineData", span: this.spanFrom(start), elements };
    }
    if (this.at(Tok.LBracket)) {
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
    const word = this.image(t);
    let result: A.TypeExpr | undefined;
    switch (word) {
      case "seq":
      case "optional": {
        this.expect(Tok.LParen, `'(' after '${word}'`);
        const elem = this.typeExpr();
        this.expect(Tok.RParen, `')' to close '${word}('`);
        result = word === "seq" ? { kind: "SeqType", span: this.spanFrom(start), ...(elem && { elem }) } : { kind: "OptionalType", span: this.spanFrom(start), ...(elem && { elem }) };
        break;
      }
      case "map": {
        this.expect(Tok.LParen, "'(' after 'map'");
        let key: A.Keyword | undefined;
        if (this.atWord(isElementType)) key = this.keyword(this.next());
        else this.fail("a key element type (e.g. int64 or string) in 'map('");
        this.expect(Tok.Comma, "',' after the map key type");
        const value = this.typeExpr();
        this.expect(Tok.RParen, "')' to close 'map('");
        result = { kind: "MapType", span: this.spanFrom(start), ...(key && { key }), ...(value && { value }) };
        break;
      }
      case "sparse_tensor": {
        this.expect(Tok.LParen, "'(' after 'sparse_tensor'");
        let elem: A.TensorType | undefined;
        if (this.atWord(isElementType)) elem = this.tensorType(this.next());
        else this.fail("an element type (e.g. float[N]) in 'sparse_tensor('");
        this.expect(Tok.RParen, "')' to close 'sparse_tensor('");
        result = { kind: "SparseTensorType", span: this.spanFrom(start), ...(elem && { elem }) };
        break;
      }
      case "opaque": {
        this.expect(Tok.LParen, "'(' after 'opaque'");
        let first: A.Name[] | undefined;
        let second: A.Name | undefined;
        if (this.at(Tok.Identifier)) {
          first = [this.name(this.next())];
          while (this.at(Tok.Dot)) {
            this.next();
            const p = this.ident("a name after '.'");
            if (p) first.push(p);
          }
          if (this.at(Tok.Comma)) {
            this.next();
            second = this.ident("the opaque type name after ','");
          }
        }
        this.expect(Tok.RParen, first ? "',' or ')' in 'opaque('" : "a name or ')' in 'opaque('");
        result = { kind: "OpaqueType", span: this.spanFrom(start), ...(first && { first }), ...(second && { second }) };
        break;
      }
      default:
        result = this.tensorType(t);
    }
    this.leave();
    return result;
  }

  private tensorType(elemTok: number): A.TensorType {
    const start = this.starts[elemTok]!;
    const elem = this.keyword(elemTok);
    let shape: A.Shape | undefined;
    if (this.at(Tok.LBracket)) {
      const s = this.start;
      this.next();
      const dims: A.Dim[] = [];
      if (!this.at(Tok.RBracket)) {
        do {
          const d = this.dim();
          if (!d) break;
          dims.push(d);
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RBracket, "',' or ']' in the shape");
      shape = { kind: "Shape", span: this.spanFrom(s), dims: exact(dims) };
    }
    const t: Mutable<A.TensorType> = { kind: "TensorType", span: this.spanFrom(start), elem };
    if (shape) t.shape = shape;
    return t;
  }

  private dim(): A.Dim | undefined {
    const span = this.tokSpan();
    if (this.at(Tok.Question)) {
      this.next();
      return { kind: "Dim", span, value: { kind: "Unknown", span } };
    }
    if (this.atQid()) return { kind: "Dim", span, value: this.name(this.next()) };
    if (this.atInt()) return { kind: "Dim", span, value: this.numberLit(this.next()) as A.IntLit };
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
