// The grammar of the text syntax as a Chevrotain parser (EmbeddedActionsParser): every production
// is a RULE, every token a CONSUME of a token type from the table in tokens.ts, and the rules
// build the ast.ts nodes (with spans) directly. Chevrotain records the productions once per
// process (docs/grammar.html holds the railroad diagrams drawn from them). The machinery under the
// rules (token source, helpers, messages, recovery) is in parser-base.ts.
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
import type { TokenType } from "./chevrotain.js";
import {
  ATTRIBUTE_TYPES,
  elementTypeMeant,
  FUNCTION_HEADER_KEYS,
  INT_HEADER_KEYS,
  isElementType,
  isFloatWord,
  isTypeStart,
  MODEL_HEADER_KEYS,
} from "./keywords.js";
import { exact, lineOf, NO_NAMES, ParserBase, type Mutable, type Way } from "./parser-base.js";
import { Tok } from "./scanner.js";
import * as T from "./tokens.js";

export { MAX_NESTING, unquote } from "./parser-base.js";

/** singleValue's arguments, made once: an attribute's own value, or an element of a list. */
const TOP_LEVEL = { ARGS: [true] as [boolean] };
const IN_LIST = { ARGS: [false] as [boolean] };

/**
 * The main graph's body a sliced parse left unread (index.ts's parseModelSteps): its `{` and
 * the `}` that balances it (token indices), the node list of its tree, and the parser state at
 * the `{` (how deep it is nested, how many diagnostics came before it).
 */
export interface DeferredBody {
  readonly open: number;
  readonly close: number;
  readonly nodes: A.OpNode[];
  readonly depth: number;
  readonly diagnosticsBefore: number;
}

/** Where a slice of a deferred body stopped: the next slice starts from there. */
export interface BodyPlace {
  /** The last token read. */
  readonly last: number;
  readonly lastEnd: number;
}

/** What the parser hands over for each statement of the main graph in a streaming parse. */
export interface GraphStatementSink {
  /** A statement, as the tree the node rule built. */
  node(node: A.OpNode): void;
  /** A plain statement (`a, b = Op (c, d)`: unquoted names, nothing else) as its names, with no tree built for it. */
  plain(outputs: string[], opType: string, inputs: string[]): void;
}

export class OnnxTextParser extends ParserBase {
  /**
   * Takes the statements of the model's main graph as they are read, instead of the graph's
   * node list (index.ts's parseModelStreaming); set for one parse.
   */
  graphNodeSink: GraphStatementSink | undefined;
  /**
   * Set for a sliced parse: the main graph's body is skipped to the `}` that balances its `{`
   * and described in `deferredBody`, to be read later by bodySlice.
   */
  deferBody = false;
  deferredBody: DeferredBody | undefined;

  /** `validate` runs Chevrotain's grammar checks (tests); the tools skip them for start-up. */
  constructor(validate: boolean) {
    super(validate);
    this.performSelfAnalysis();
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
    const t = this.token(
      1,
      T.Identifier,
      () => `a ${owner} header key (${keys.join(", ")})`,
      () => keys.includes(this.image(this.cur)),
    );
    if (t < 0) return undefined;
    const key = this.keyword(t);
    const k = key.text;
    this.token(1, T.Colon, `':' after '${k}'`);
    const value = this.choose<A.HeaderEntry["value"]>(1, [
      { when: () => k === "opset_import", take: () => this.SUBRULE(this.opsetList) },
      { when: () => k === "metadata_props", take: () => this.SUBRULE(this.propList, { ARGS: ["metadata_props", true] }) },
      { when: () => INT_HEADER_KEYS.includes(k), take: () => this.intLit(2, `an integer for '${k}'`) },
      { when: () => true, take: () => this.strLit(2, `a quoted string for '${k}'`) },
    ]);
    return { kind: "HeaderEntry", span: this.spanFrom(start), key, ...(value && { value }) };
  });

  opsetList = this.RULE("opsetList", (): A.OpsetList | undefined => {
    const start = this.start;
    if (this.token(1, T.LBracket, "'[' to start the opset list") < 0) return undefined;
    const items: A.OpsetEntry[] = [];
    this.unless(
      1,
      () => this.at(Tok.RBracket),
      () => {
        items.push(this.SUBRULE1(this.opsetEntry));
        this.MANY(() => {
          this.CONSUME(T.Comma);
          items.push(this.SUBRULE2(this.opsetEntry));
        });
      },
    );
    this.token(1, T.RBracket, "',' or ']' in the opset list");
    return { kind: "OpsetList", span: this.spanFrom(start), items: exact(items) };
  });

  opsetEntry = this.RULE("opsetEntry", (): A.OpsetEntry => {
    const s = this.start;
    const domain = this.strLit(1, 'an opset domain in quotes (e.g. "" : 21)');
    this.token(1, T.Colon, "':' between the opset domain and its version");
    const version = this.intLit(1, "an opset version (an integer)");
    return { kind: "OpsetEntry", span: this.spanFrom(s), ...(domain && { domain }), ...(version && { version }) };
  });

  propList = this.RULE("propList", (what: string, allowEmpty: boolean): A.PropList | undefined => {
    const start = this.start;
    if (this.token(1, T.LBracket, `'[' to start the ${what} list`) < 0) return undefined;
    const items: A.PropEntry[] = [];
    this.unless(
      1,
      () => this.at(Tok.RBracket) && allowEmpty,
      () => {
        items.push(this.SUBRULE1(this.propEntry, { ARGS: [what] }));
        this.MANY(() => {
          this.CONSUME(T.Comma);
          items.push(this.SUBRULE2(this.propEntry, { ARGS: [what] }));
        });
      },
    );
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
      kind: "Function",
      span: this.spanFrom(start),
      ...(header && { header }),
      ...(name && { name }),
      ...(params && { params }),
      ...(inputs && { inputs }),
      ...(outputs && { outputs }),
      ...(valueInfos && { valueInfos }),
      ...(body && { body }),
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
    const body = this.SUBRULE(this.nodeBlock, { ARGS: ["graph body", topLevel ? this.graphNodeSink : undefined, topLevel && this.deferBody] });
    this.leave();
    return {
      kind: "Graph",
      span: this.spanFrom(start),
      ...(name && { name }),
      ...(inputs && { inputs }),
      ...(outputs && { outputs }),
      ...(valueInfos && { valueInfos }),
      ...(body && { body }),
    };
  });

  parenDecls = this.RULE("parenDecls", (what: string, allowInit: boolean): A.ValueDeclList | undefined => this.declList(T.LParen, T.RParen, what, allowInit));

  angleDecls = this.RULE("angleDecls", (what: string, allowInit: boolean): A.ValueDeclList | undefined => this.declList(T.LAngle, T.RAngle, what, allowInit));

  /** The body of parenDecls and angleDecls, which differ only in their brackets. */
  private declList(open: TokenType, close: TokenType, what: string, allowInit: boolean): A.ValueDeclList | undefined {
    const start = this.start;
    const closeKind = close === T.RParen ? Tok.RParen : Tok.RAngle;
    if (this.token(1, open, () => `'${open === T.LParen ? "(" : "<"}' to start the ${what} list`) < 0) return undefined;
    const items: A.ValueDecl[] = [];
    const closeText = close === T.RParen ? ")" : ">";
    this.unless(
      1,
      () => this.at(closeKind),
      () => {
        const d = this.SUBRULE1(this.valueDecl, { ARGS: [what, allowInit] });
        if (d) items.push(d);
        this.MANY(() => {
          this.CONSUME(T.Comma);
          const e = this.SUBRULE2(this.valueDecl, { ARGS: [what, allowInit] });
          if (e) items.push(e);
        });
        if (!this.panic && !this.at(closeKind)) {
          // `float32[2, 3] x`: a type name from numpy or PyTorch read as a value's name
          const last = items[items.length - 1];
          const meant = last && !last.type && last.name && !last.name.quoted ? elementTypeMeant(last.name.value) : undefined;
          if (meant && (this.at(Tok.LBracket) || this.at(Tok.Identifier))) {
            this.report(`'${last!.name!.value}' is not a type; did you mean '${meant}'?`, last!.name!.span);
            this.panic = true;
          } else this.fail(`',' or '${closeText}' after a ${what}`);
        }
      },
    );
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

  /**
   * `{ statements }`; with `sink`, each statement goes to it and the block's node list stays
   * empty; with `defer`, the statements are left for bodySlice (deferBody).
   */
  nodeBlock = this.RULE("nodeBlock", (what: string, sink?: GraphStatementSink, defer?: boolean): A.NodeBlock | undefined => {
    const start = this.start;
    const open = this.cur;
    if (this.token(1, T.LBrace, () => `'{' to start the ${what}`) < 0) return undefined;
    const nodes: A.OpNode[] = [];
    if (this.RECORDING_PHASE) this.MANY(this.subruleNode);
    else if (!(defer && this.skipBody(open, nodes))) this.statements(nodes, this.toks.count, this.subruleNode, sink);
    this.token(2, T.RBrace, () => `'}' to close the ${what} opened on line ${lineOf(this.src, this.starts[open]!)}`);
    return { kind: "NodeBlock", span: this.spanFrom(start), nodes };
  });

  private readonly subruleNode = (): A.OpNode | undefined => this.SUBRULE(this.node);
  private readonly topNode = (): A.OpNode | undefined => this.node();

  /**
   * The statement loop of a block, before token `stop`: each statement is read by `readNode`, a
   * broken one is skipped past (recoverToStatement), and so is a token no statement starts with.
   * Stops at the `}` or the end, or once at or past `stop`. The statements go to `nodes`, or to
   * `sink` when there is one.
   */
  private statements(nodes: A.OpNode[], stop: number, readNode: () => A.OpNode | undefined, sink?: GraphStatementSink): void {
    for (;;) {
      // MANY, with its lookahead (the tokens a node starts with) tested here: subgraphs nest
      // through this loop, and Chevrotain's MANY would add five stack frames per level.
      while (this.cur < stop && this.atStatementStart()) {
        if (sink && this.plainStatement(sink)) continue;
        const from = this.cur;
        const n = readNode();
        if (n) {
          if (sink) sink.node(n);
          else nodes.push(n);
        }
        if (this.panic) this.recoverToStatement(from);
      }
      if (this.cur >= stop || this.atEnd || this.kind(this.cur) === Tok.RBrace) return;
      // A token no statement starts with.
      const from = this.cur;
      this.fail("a node (outputs = Op (inputs)) or '}'");
      this.recoverToStatement(from);
    }
  }

  /**
   * A plain statement next, `a, b = Op (c, d)` with unquoted names, no label, domain, overload
   * or attributes and nothing left out: handed to `sink.plain` as its names, with no tree built
   * and no rule run (most statements of a big graph are such). False, with nothing read,
   * otherwise; the node rule then reads the statement, as it reads every statement while recording.
   * Called from the statement loop only, which runs after recording and starts each statement
   * out of panic.
   */
  private plainStatement(sink: GraphStatementSink): boolean {
    const kinds = this.kinds;
    const count = this.toks.count;
    const first = this.cur;
    // The outputs: names separated by commas, then `=`.
    let t = first;
    if (kinds[t] !== Tok.Identifier) return false;
    while (t + 2 < count && kinds[t + 1] === Tok.Comma && kinds[t + 2] === Tok.Identifier) t += 2;
    const equals = t + 1;
    const op = equals + 1;
    if (op + 1 >= count || kinds[equals] !== Tok.Equals || kinds[op] !== Tok.Identifier || kinds[op + 1] !== Tok.LParen) return false;
    // The inputs: none, or names separated by commas, then `)` with no attributes after it.
    let close = op + 2;
    if (close < count && kinds[close] === Tok.Identifier) {
      while (close + 2 < count && kinds[close + 1] === Tok.Comma && kinds[close + 2] === Tok.Identifier) close += 2;
      close++;
    }
    if (close >= count || kinds[close] !== Tok.RParen || (close + 1 < count && kinds[close + 1] === Tok.LAngle)) return false;
    const outputs = new Array<string>((equals - first + 1) >> 1);
    for (let i = 0; i < outputs.length; i++) outputs[i] = this.image(first + 2 * i);
    const inputs = new Array<string>((close - op - 1) >> 1);
    for (let i = 0; i < inputs.length; i++) inputs[i] = this.image(op + 2 + 2 * i);
    this.currIdx = close;
    this.lastEnd = this.ends[close]!;
    sink.plain(outputs, this.opWordValue(op), inputs);
    return true;
  }

  /**
   * Skips a body whose `{` is token `open` (just read) to the token before the `}` that balances
   * it, noting it in deferredBody; false, with nothing skipped, when no `}` balances it.
   */
  private skipBody(open: number, nodes: A.OpNode[]): boolean {
    if (this.panic) return false;
    const kinds = this.kinds;
    const count = this.toks.count;
    let depth = 0;
    let close = open + 1;
    for (; close < count; close++) {
      const k = kinds[close];
      if (k === Tok.LBrace) depth++;
      else if (k === Tok.RBrace && depth-- === 0) break;
    }
    if (close >= count) return false;
    this.deferredBody = { open, close, nodes, depth: this.depth, diagnosticsBefore: this.diagnostics.length };
    this.currIdx = close - 1;
    this.lastEnd = this.ends[close - 1]!;
    return true;
  }

  /**
   * Reads statements of the deferred `body` (parsed with the same text and tokens) from `from`
   * (undefined: from its `{`), as nodeBlock's loop would have, until at or past token `stop`;
   * they go to the body's node list, the messages to `diagnostics`. Returns where it stopped.
   */
  bodySlice(body: DeferredBody, from: BodyPlace | undefined, stop: number): BodyPlace {
    const last = from?.last ?? body.open;
    this.currIdx = last;
    this.lastEnd = from?.lastEnd ?? this.ends[last]!;
    this.depth = body.depth;
    this.statements(body.nodes, stop, this.topNode);
    return { last: this.currIdx, lastEnd: this.lastEnd };
  }

  /**
   * Re-reads statements of a graph body at nesting `depth` from a part of the text's tokens
   * (tokenize with a range): token 0 is the one before the statements (the body's `{` or the
   * previous statement's last token), token `count - 1` the one after them. The loop is
   * nodeBlock's with that parser state (the token before consumed, not in panic), so the
   * statements, messages and final state are those of the whole parse if the loop stops right
   * at the last token; otherwise (it went past) undefined.
   */
  statementsBetween(depth: number): A.OpNode[] | undefined {
    const stop = this.toks.count - 1;
    this.depth = depth;
    this.skip();
    const nodes: A.OpNode[] = [];
    this.statements(nodes, stop, this.topNode);
    return this.cur === stop && !this.panic ? nodes : undefined;
  }

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
    const nextSlot = (): void => {
      items.push(slot ?? { kind: "Empty", span: { start: slotAt, end: slotAt } });
      this.consume(10 + which, T.Comma);
      slotAt = this.start;
      slot = this.RECORDING_PHASE ? this.option(20 + which, () => this.qid(20 + which, "a name")) : this.atQid() ? this.qid(20 + which, "a name") : undefined;
    };
    // MANY and OPTION only while recording: the lists of a big graph's statements run plain loops.
    if (this.RECORDING_PHASE) this.many(10 + which, nextSlot);
    else while (this.at(Tok.Comma)) nextSlot();
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
    // MANY while recording; after that its loop written out (no closure per list).
    if (this.RECORDING_PHASE) this.MANY(() => this.nextAttribute(items));
    else while (this.at(Tok.Comma)) this.nextAttribute(items);
    this.token(1, T.RAngle, "',' or '>' after an attribute");
    return { kind: "AttributeList", span: this.spanFrom(start), items: exact(items) };
  });

  private nextAttribute(items: A.Attribute[]): void {
    this.CONSUME(T.Comma);
    const a = this.attribute(2);
    if (a) items.push(a);
  }

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
      const t = this.token(
        1,
        T.Identifier,
        () => `an attribute type (${Object.keys(ATTRIBUTE_TYPES).join(", ")}) after ':'`,
        () => this.image(this.cur) in ATTRIBUTE_TYPES,
      );
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
    if (!this.RECORDING_PHASE) return this.at(Tok.LBracket) ? this.SUBRULE(this.listValue) : this.SUBRULE1(this.singleValue, TOP_LEVEL);
    return this.choose<A.AttrValue | undefined>(1, [
      { when: () => !this.at(Tok.LBracket), take: () => this.SUBRULE1(this.singleValue, TOP_LEVEL) },
      { when: () => true, take: () => this.SUBRULE(this.listValue) },
    ]);
  }

  listValue = this.RULE("listValue", (): A.ListValue | undefined => {
    if (!this.enter()) return undefined;
    const start = this.start;
    this.CONSUME(T.LBracket);
    const items: A.AttrValue[] = [];
    this.unless(
      1,
      () => this.at(Tok.RBracket),
      () => {
        const v = this.SUBRULE1(this.singleValue, IN_LIST);
        if (v) items.push(v);
        if (this.RECORDING_PHASE) this.MANY(() => this.nextListValue(items));
        else while (this.at(Tok.Comma)) this.nextListValue(items);
      },
    );
    this.token(1, T.RBracket, "',' or ']' in the list value");
    this.leave();
    return { kind: "List", span: this.spanFrom(start), items: exact(items) };
  });

  private nextListValue(items: A.AttrValue[]): void {
    this.CONSUME(T.Comma);
    const w = this.SUBRULE2(this.singleValue, IN_LIST);
    if (w) items.push(w);
  }

  /** Whether the value singleValue reads is an attribute's own (true) or a list element: its last way's message says which. */
  private valueAtTopLevel = true;

  singleValue = this.RULE("singleValue", (topLevel: boolean): A.AttrValue | undefined => {
    this.valueAtTopLevel = topLevel;
    return this.choose<A.AttrValue | undefined>(1, this.valueWays);
  });

  /** The ways of singleValue, made once per parser rather than per value (every attribute value reads them). */
  private readonly valueWays: readonly Way<A.AttrValue | undefined>[] = [
    { when: () => this.at(Tok.Number), take: () => this.numberLit(this.token(1, T.NumberLit, "")) },
    { when: () => this.at(Tok.String), take: () => this.str(this.token(1, T.StringLit, "")) },
    {
      when: () => this.at(Tok.At),
      take: () => {
        const s = this.start;
        this.CONSUME(T.At);
        const name = this.qid(2, "an attribute name after '@'");
        return { kind: "Ref", span: this.spanFrom(s), ...(name && { name }) } as A.RefValue;
      },
    },
    { when: () => this.atWord(isTypeStart), take: () => this.SUBRULE(this.typeOrTensorValue) },
    { when: () => this.atWord(isFloatWord), take: () => this.wordFloat(this.token(1, T.Identifier, "")) },
    { when: () => this.at(Tok.Identifier), take: () => this.SUBRULE(this.graph, { ARGS: [false] }) },
    {
      when: () => true,
      take: () => {
        const kind = this.kind(this.cur);
        if (kind === Tok.LBrace || kind === Tok.NumberList) this.fail("an attribute value; tensor data needs its type first, e.g. float[2] {1, 2}");
        else
          this.fail(
            this.valueAtTopLevel
              ? "an attribute value (a number, a string, a type, a tensor, a graph, '@name' or a '[...]' list)"
              : "a list element (a number, a string, a type, a tensor, a graph or '@name')",
          );
        return undefined;
      },
    },
  ];

  typeOrTensorValue = this.RULE("typeOrTensorValue", (): A.TensorValue | A.TypeValue | undefined => {
    const start = this.start;
    const type = this.SUBRULE(this.typeExpr);
    if (!type) return undefined;
    const tensor = this.optionIf(
      1,
      () => this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.Equals) || this.at(Tok.Identifier),
      () => {
        const name = this.OPTION(() => this.name(this.token(1, T.Identifier, "")));
        this.OPTION2(() => this.CONSUME(T.Equals));
        const data = this.optionIf(
          3,
          () => this.at(Tok.LBrace) || this.at(Tok.NumberList) || this.at(Tok.LBracket),
          () => this.SUBRULE(this.tensorData, { ARGS: [false] }),
        );
        return { kind: "TensorValue", span: this.spanFrom(start), type, ...(name && { name }), ...(data && { data }) } as A.TensorValue;
      },
    );
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
        take: () => {
          const t = this.token(1, T.NumberList, "");
          const p = this.toks.lists.get(t);
          if (!p) return undefined; // only while Chevrotain records the grammar
          const span = this.spanOf(t);
          return { kind: "InlineData", span, elements: { kind: "PackedNumbers", span, values: p.values, allIntegers: p.allIntegers } };
        },
      },
      {
        when: () => this.at(Tok.LBrace),
        take: () => {
          this.CONSUME(T.LBrace);
          const elements: A.Literal[] = [];
          this.unless(
            1,
            () => this.at(Tok.RBrace),
            () => {
              const e = this.SUBRULE1(this.dataElement);
              if (e) elements.push(e);
              this.MANY(() => {
                this.CONSUME(T.Comma);
                const f = this.SUBRULE2(this.dataElement);
                if (f) elements.push(f);
              });
            },
          );
          this.token(1, T.RBrace, "',' or '}' in the tensor data");
          return { kind: "InlineData", span: this.spanFrom(start), elements };
        },
      },
      {
        when: () => this.at(Tok.LBracket),
        take: () => {
          const props = this.SUBRULE(this.propList, { ARGS: ["external data", false] });
          if (!props) return undefined;
          return { kind: "ExternalData", span: this.spanFrom(start), props };
        },
      },
      {
        when: () => true,
        take: () => {
          if (required) this.fail("tensor data: '{' with the values, or '[' with external data");
          return undefined;
        },
      },
    ]);
  });

  dataElement = this.RULE("dataElement", (): A.Literal | undefined =>
    this.choose<A.Literal | undefined>(1, [
      { when: () => this.at(Tok.Number), take: () => this.numberLit(this.token(1, T.NumberLit, "")) },
      { when: () => this.at(Tok.String), take: () => this.str(this.token(1, T.StringLit, "")) },
      { when: () => this.atWord(isFloatWord), take: () => this.wordFloat(this.token(1, T.Identifier, "")) },
      {
        when: () => true,
        take: () => {
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
        take: () => {
          this.token(1, T.LParen, `'(' after '${word}'`);
          const elem = this.SUBRULE1(this.typeExpr);
          this.token(1, T.RParen, `')' to close '${word}('`);
          return word === "seq"
            ? { kind: "SeqType", span: this.spanFrom(start), ...(elem && { elem }) }
            : { kind: "OptionalType", span: this.spanFrom(start), ...(elem && { elem }) };
        },
      },
      {
        when: () => word === "map",
        take: () => {
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
        take: () => {
          this.token(3, T.LParen, "'(' after 'sparse_tensor'");
          const e = this.token(3, T.Identifier, "an element type (e.g. float[N]) in 'sparse_tensor('", () => isElementType(this.image(this.cur)));
          const elem = e < 0 ? undefined : this.SUBRULE1(this.tensorType, { ARGS: [e] });
          this.token(3, T.RParen, "')' to close 'sparse_tensor('");
          return { kind: "SparseTensorType", span: this.spanFrom(start), ...(elem && { elem }) };
        },
      },
      {
        when: () => word === "opaque",
        take: () => {
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
      { when: () => true, take: () => this.SUBRULE2(this.tensorType, { ARGS: [t] }) },
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
      this.unless(
        1,
        () => this.at(Tok.RBracket),
        () => {
          const d = this.SUBRULE1(this.dim);
          if (d) dims.push(d);
          this.MANY(() => {
            this.CONSUME(T.Comma);
            const e = this.SUBRULE2(this.dim);
            if (e) dims.push(e);
          });
        },
      );
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
        take: () => {
          this.CONSUME(T.Question);
          return { kind: "Dim", span, value: { kind: "Unknown", span } };
        },
      },
      { when: () => this.atQid(), take: () => ({ kind: "Dim", span, value: this.qid(2, "")! }) },
      { when: () => this.atInt(), take: () => ({ kind: "Dim", span, value: this.numberLit(this.token(1, T.NumberLit, "")) as A.IntLit }) },
      {
        when: () => true,
        take: () => {
          this.fail("a dimension (an integer, a name or '?')");
          return undefined;
        },
      },
    ]);
  });
}
