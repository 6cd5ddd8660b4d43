// The scope and symbol index over the syntax tree: every value, function and function
// parameter, each with its definitions and uses. Built once per analysis and shared by
// definition, references, highlight, rename, outline, completion and hover.
//
// Scoping follows ONNX: a graph sees its own values and, through captures, those of every
// enclosing graph; a function body sees only its own values and its attribute parameters.
import type { Attribute, AttrValue, FunctionDef, Graph, Model, Name, OpNode, TypeExpr, ValueDecl } from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import { partitionPoint } from "../arrays.js";
import { finish } from "../../../grammar/src/steps.js";

export type SymbolKind = "value" | "function" | "param";

/** `def` defines the symbol; `use` reads it; `annotation` declares its type (value_info, graph output). */
type OccurrenceRole = "def" | "use" | "annotation";

export interface Occurrence {
  readonly span: Span;
  readonly symbol: SymbolInfo;
  readonly role: OccurrenceRole;
  /** False where the syntax takes a bare identifier only (op types, attribute names). */
  readonly quotable: boolean;
}

type Producer =
  | { readonly kind: "input"; readonly decl: ValueDecl }
  | { readonly kind: "initializer"; readonly decl: ValueDecl }
  | { readonly kind: "node"; readonly node: OpNode; readonly index: number };

export interface Scope {
  readonly kind: "graph" | "function";
  readonly owner: Graph | FunctionDef;
  readonly parent?: Scope;
  readonly values: Map<string, SymbolInfo>;
  /** Function attribute parameters (function scopes; subgraphs inside a function inherit them). */
  readonly params: Map<string, SymbolInfo>;
}

export interface SymbolInfo {
  readonly id: number;
  readonly kind: SymbolKind;
  readonly name: string;
  readonly scope?: Scope;
  readonly occurrences: Occurrence[];
  /** Values: what produces it (absent for an undefined name). */
  producer?: Producer;
  /** Values: the type written at a declaration, if any. */
  declaredType?: TypeExpr;
  /** Functions: the definition. */
  func?: FunctionDef;
}

interface FunctionKey {
  readonly domain: string;
  readonly name: string;
  readonly overload: string;
}

export class SymbolIndex {
  readonly symbols: SymbolInfo[] = [];
  readonly scopes: Scope[] = [];
  /** Local functions by `domain/name/overload`. */
  readonly functions = new Map<string, SymbolInfo>();
  /** Each function's attribute parameters by name. */
  readonly functionParams = new Map<FunctionDef, Map<string, SymbolInfo>>();
  private sorted: Occurrence[] = [];
  /** Occurrences added since the last `finish`. */
  private added: Occurrence[] = [];

  newSymbol(kind: SymbolKind, name: string, scope?: Scope): SymbolInfo {
    const s: SymbolInfo = { id: this.symbols.length, kind, name, occurrences: [], ...(scope ? { scope } : {}) };
    this.symbols.push(s);
    return s;
  }

  add(symbol: SymbolInfo, name: Name, role: OccurrenceRole, quotable = true): void {
    const occ: Occurrence = { span: name.span, symbol, role, quotable };
    symbol.occurrences.push(occ);
    this.added.push(occ);
  }

  /** Puts the occurrences added since the last call in place of `remove` ones from position `at` of the text-ordered list. */
  finish(at = 0, remove = 0): void {
    const fresh = this.added.sort((a, b) => a.span.start - b.span.start);
    this.added = [];
    this.sorted = this.sorted.length === 0 ? fresh : this.sorted.slice(0, at).concat(fresh, this.sorted.slice(at + remove));
  }

  /** The position in text order of the first occurrence starting at or after `offset`. */
  firstAtOrAfter(offset: number): number {
    return partitionPoint(this.sorted.length, (i) => this.sorted[i]!.span.start >= offset);
  }

  /** The occurrence at position `i` in text order. */
  occurrence(i: number): Occurrence | undefined {
    return this.sorted[i];
  }

  /** The occurrence whose name covers `offset` (a cursor right after a name counts). */
  occurrenceAt(offset: number): Occurrence | undefined {
    const occ = this.sorted;
    // The last occurrence starting at or before the offset, and the one before it.
    const best = partitionPoint(occ.length, (i) => occ[i]!.span.start > offset) - 1;
    for (let i = best; i >= 0 && i >= best - 1; i--) {
      const o = occ[i]!;
      if (o.span.start <= offset && offset <= o.span.end) return o;
    }
    return undefined;
  }

  /** The occurrences whose names overlap `range` (touching counts), in text order. */
  occurrencesIn(range: { start: number; end: number }): Occurrence[] {
    const occ = this.sorted;
    // The first occurrence that may reach the range (names do not overlap each other).
    const lo = partitionPoint(occ.length, (i) => occ[i]!.span.end >= range.start);
    const out: Occurrence[] = [];
    for (let i = lo; i < occ.length && occ[i]!.span.start <= range.end; i++) out.push(occ[i]!);
    return out;
  }

  /** The innermost scope whose owner encloses `offset`. */
  scopeAt(offset: number): Scope | undefined {
    let best: Scope | undefined;
    for (const s of this.scopes) {
      const sp = s.owner.span;
      if (sp.start <= offset && offset <= sp.end && (!best || sp.start >= best.owner.span.start)) best = s;
    }
    return best;
  }

  /** Every value visible in a scope: its own, then captured from enclosing graphs. */
  visibleValues(scope: Scope): SymbolInfo[] {
    const out: SymbolInfo[] = [];
    this.forEachVisibleValue(scope, (v) => out.push(v));
    return out;
  }

  /** visibleValues one by one, without collecting them (a main graph has as many as it has nodes). */
  forEachVisibleValue(scope: Scope, visit: (value: SymbolInfo) => void): void {
    const closer: Scope[] = [];
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      for (const sym of s.values.values()) if (sym.producer && (closer.length === 0 || !closer.some((c) => c.values.has(sym.name)))) visit(sym);
      closer.push(s);
    }
  }

  /** The local function a node calls, if any. */
  calledFunction(node: OpNode): SymbolInfo | undefined {
    if (!node.op?.opType) return undefined;
    return this.functions.get(functionKeyString(opKey(node)));
  }
}

export function functionKeyString(k: FunctionKey): string {
  return `${k.domain}/${k.name}/${k.overload}`;
}

/** The domain, op type and overload a node names. */
export function opKey(node: OpNode): FunctionKey {
  const op = node.op;
  return {
    domain: op ? op.domain.map((d) => d.value).join(".") : "",
    name: op?.opType?.value ?? "",
    overload: op?.overload?.value ?? "",
  };
}

/** The domain, name and overload a function declares. */
export function functionKey(f: FunctionDef): FunctionKey {
  let domain = "";
  let overload = "";
  for (const e of f.header?.entries ?? []) {
    if (e.value?.kind !== "Str") continue;
    if (e.key.text === "domain") domain = e.value.value;
    else if (e.key.text === "overload") overload = e.value.value;
  }
  return { domain, name: f.name?.value ?? "", overload };
}

/** The index built for each tree, while it still describes it (an incremental edit updates or drops it). */
const indexes = new WeakMap<Model, SymbolIndex>();

/** The index already built for `model`'s current state, if any. */
export function builtIndexOf(model: Model): SymbolIndex | undefined {
  return indexes.get(model);
}

/** Records `index` as describing `model` (undefined: none does any more). */
export function setBuiltIndex(model: Model, index: SymbolIndex | undefined): void {
  if (index) indexes.set(model, index);
  else indexes.delete(model);
}

export function buildSymbolIndex(model: Model | undefined): SymbolIndex {
  return finish(buildSymbolIndexSteps(model));
}

/**
 * buildSymbolIndex in steps (it pauses along the main graph's and functions' statements); the
 * index is recorded for `model` (builtIndexOf) once complete.
 */
export function* buildSymbolIndexSteps(model: Model | undefined): Generator<void, SymbolIndex, void> {
  const index = new SymbolIndex();
  if (!model) return index;
  // Functions first, so call sites anywhere resolve to them.
  for (const f of model.functions) {
    if (!f.name) continue;
    const key = functionKeyString(functionKey(f));
    let sym = index.functions.get(key);
    if (!sym) {
      sym = index.newSymbol("function", f.name.value);
      sym.func = f;
      index.functions.set(key, sym);
    }
    index.add(sym, f.name, "def");
  }
  if (model.graph) yield* indexBodySteps(index, newScope(index, "graph", model.graph, undefined), model.graph, false);
  for (const f of model.functions) yield* indexFunctionSteps(index, f);
  index.finish();
  indexes.set(model, index);
  return index;
}

/** How many statements the index takes between pauses. */
const INDEX_STEP = 256;

function newScope(index: SymbolIndex, kind: Scope["kind"], owner: Graph | FunctionDef, parent?: Scope): Scope {
  const scope: Scope = {
    kind,
    owner,
    ...(parent ? { parent } : {}),
    values: new Map(),
    params: parent ? parent.params : new Map(),
  };
  index.scopes.push(scope);
  return scope;
}

function define(index: SymbolIndex, scope: Scope, name: Name | undefined, producer: Producer, type?: TypeExpr): void {
  if (!name || name.value === "") return;
  let sym = scope.values.get(name.value);
  if (!sym) {
    sym = index.newSymbol("value", name.value, scope);
    scope.values.set(name.value, sym);
  }
  if (!sym.producer) sym.producer = producer;
  if (type && !sym.declaredType) sym.declaredType = type;
  index.add(sym, name, "def");
}

/** Resolves a read of `name` through the scope chain; an unknown name gets a symbol without producer. */
function use(index: SymbolIndex, scope: Scope, name: Name | undefined, role: OccurrenceRole, type?: TypeExpr): void {
  if (!name || name.value === "") return;
  let sym: SymbolInfo | undefined;
  for (let s: Scope | undefined = scope; s && !sym; s = s.parent) sym = s.values.get(name.value);
  if (!sym) {
    sym = index.newSymbol("value", name.value, scope);
    scope.values.set(name.value, sym);
  }
  if (type && !sym.declaredType) sym.declaredType = type;
  index.add(sym, name, role);
}

interface Body {
  inputs?: { items: readonly ValueDecl[] } | undefined;
  outputs?: { items: readonly ValueDecl[] } | undefined;
  valueInfos?: { items: readonly ValueDecl[] } | undefined;
  body?: { nodes: readonly OpNode[] } | undefined;
}

/** Indexes the values of a graph or function body: definitions first, then reads. */
function indexBody(index: SymbolIndex, scope: Scope, owner: Body, isFunction: boolean): void {
  finish(indexBodySteps(index, scope, owner, isFunction));
}

function* indexBodySteps(index: SymbolIndex, scope: Scope, owner: Body, isFunction: boolean): Generator<void, void, void> {
  for (const d of owner.inputs?.items ?? []) {
    define(index, scope, d.name, d.init ? { kind: "initializer", decl: d } : { kind: "input", decl: d }, d.type);
  }
  for (const d of owner.valueInfos?.items ?? []) {
    if (d.init && !isFunction) define(index, scope, d.name, { kind: "initializer", decl: d }, d.type);
  }
  const nodes = owner.body?.nodes ?? [];
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k]!;
    node.outputs.items.forEach((o, i) => {
      if (o.kind === "Name") define(index, scope, o, { kind: "node", node, index: i });
    });
    if (k % INDEX_STEP === INDEX_STEP - 1) yield;
  }
  for (const d of owner.valueInfos?.items ?? []) {
    if (!(d.init && !isFunction)) use(index, scope, d.name, "annotation", d.type);
  }
  for (let k = 0; k < nodes.length; k++) {
    indexNode(index, scope, nodes[k]!);
    if (k % INDEX_STEP === INDEX_STEP - 1) yield;
  }
  for (const d of owner.outputs?.items ?? []) use(index, scope, d.name, "annotation", d.type);
}

export function indexNode(index: SymbolIndex, scope: Scope, node: OpNode): void {
  for (const i of node.inputs?.items ?? []) if (i.kind === "Name") use(index, scope, i, "use");
  const callee = index.calledFunction(node);
  if (callee && node.op?.opType) index.add(callee, node.op.opType, "use", false);
  for (const a of node.attributes?.items ?? []) {
    if (callee?.func && a.name) {
      const param = paramsOf(index, callee.func).get(a.name.value);
      if (param) index.add(param, a.name, "use", false);
    }
    if (a.value) indexAttrValue(index, scope, a.value);
  }
}

function indexAttrValue(index: SymbolIndex, scope: Scope, value: AttrValue): void {
  switch (value.kind) {
    case "Graph":
      indexGraph(index, value, scope);
      return;
    case "List":
      for (const item of value.items) indexAttrValue(index, scope, item);
      return;
    case "Ref": {
      const param = value.name ? scope.params.get(value.name.value) : undefined;
      if (param && value.name) index.add(param, value.name, "use");
      return;
    }
    default:
      return;
  }
}

function indexGraph(index: SymbolIndex, graph: Graph, parent: Scope | undefined): void {
  indexBody(index, newScope(index, "graph", graph, parent), graph, false);
}

/** The parameter symbols of a function, created on first request so call sites can link early. */
function paramsOf(index: SymbolIndex, f: FunctionDef): Map<string, SymbolInfo> {
  let params = index.functionParams.get(f);
  if (params) return params;
  params = new Map();
  index.functionParams.set(f, params);
  for (const item of f.params?.items ?? []) {
    const name: Name | undefined = item.kind === "Name" ? item : (item as Attribute).name;
    if (!name || params.has(name.value)) continue;
    const sym = index.newSymbol("param", name.value);
    params.set(name.value, sym);
    index.add(sym, name, "def");
  }
  return params;
}

function* indexFunctionSteps(index: SymbolIndex, f: FunctionDef): Generator<void, void, void> {
  const params = paramsOf(index, f);
  const scope: Scope = { kind: "function", owner: f, values: new Map(), params };
  index.scopes.push(scope);
  for (const item of f.params?.items ?? []) {
    if (item.kind === "Attribute" && item.value) indexAttrValue(index, scope, item.value);
  }
  yield* indexBodySteps(index, scope, f, true);
}
