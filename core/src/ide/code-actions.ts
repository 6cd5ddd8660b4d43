// Quick fixes: add a missing opset_import, raise an opset for an op that arrived later, quote
// a name the syntax cannot take bare, change an undefined name to a close one defined before it
// (or an unknown op to the one its message suggests), declare a graph output's inferred type or
// replace a declared type inference proves wrong, remove a stale residual comment or an unused
// value_info entry, convert a node of a removed op (opset conversion, issue #31) or the whole
// model to another opset.
import type { Header, Model, OpNode, OpsetEntry, ValueDecl } from "../../../grammar/src/ast.js";
import type { Span } from "../../../grammar/src/span.js";
import { canonicalDomain, getSchemaVersions, latestOpsetVersion } from "../schema/index.js";
import type { Analysis } from "./analysis.js";
import { walkOverlapping } from "../../../grammar/src/ast-walk.js";
import { isIdentifier, quote } from "../../../grammar/src/names.js";
import { CloseNames, DID_YOU_MEAN } from "../check/suggest.js";
import { headerOpsets, schemaOfNode } from "./opsets.js";
import { opKey, type SymbolInfo } from "./symbols.js";
import type { TextEdit } from "./text-edit.js";
import { convertModelActions } from "./opset-convert.js";
import { removedOpFixes } from "./removed-op-fix.js";
import { unusedValueInfoFixes } from "./value-info-fix.js";
import { declaredTypeFixes } from "./declared-type-fix.js";

export interface CodeAction {
  readonly title: string;
  /** Fixes of a diagnostic, or rewrites asked for (converting the model to another opset). */
  readonly kind: "quickfix" | "refactor.rewrite";
  readonly edits: TextEdit[];
  /** The diagnostic this action fixes, when there is one. */
  readonly fixes?: Span;
  /** Why the action cannot apply (shown by the editor instead of applying nothing silently). */
  readonly disabled?: string;
}

const overlaps = (a: Span, b: Span): boolean => a.start <= b.end && b.start <= a.end;

/**
 * Whether `check --fix` may apply a fix: "safe" ones cannot change what the model computes,
 * "unsafe" ones need `--unsafe-fixes` (they guess an intent, change versions or the declared interface), "never" are
 * rewrites asked for, not fixes.
 */
export type FixSafety = "safe" | "unsafe" | "never";

type Producer = (a: Analysis, range: Span) => CodeAction[];

/**
 * Each quick fix with its safety, decided here and nowhere else (docs/rules and `check --help`
 * describe it). A did-you-mean is safe only when it is the one candidate and differs from what
 * is written in letter case alone (`relu` -> `Relu`): any other close name is a guess at which
 * value or op was meant, and a wrong guess still checks clean.
 */
const FIXES: readonly { readonly produce: Producer; readonly safety: FixSafety | "did-you-mean" }[] = [
  // the version is a guess (the latest), and a new domain import changes what the node resolves to
  { produce: missingOpsets, safety: "unsafe" },
  // a newer opset changes the meaning of every other op whose version moves
  { produce: raiseOpsets, safety: "unsafe" },
  // the name is the one written; only the syntax needs quotes
  { produce: quoteNames, safety: "safe" },
  { produce: closeNames, safety: "did-you-mean" },
  { produce: closeOps, safety: "did-you-mean" },
  // the type is the one inference proves; the computation is untouched
  { produce: declareOutputTypes, safety: "safe" },
  // a declared type replaced by the proven one: the declared interface changes, and the
  // computation rather than the declaration may be what is wrong
  { produce: declaredTypeFixes, safety: "unsafe" },
  // the visible text already wins over a stale residual: removing it changes no model bit
  { produce: staleResiduals, safety: "safe" },
  // a value_info for a name the graph does not have describes nothing: no value changes
  { produce: unusedValueInfoFixes, safety: "safe" },
  // `T[]` meant as a scalar is the usual case, but a tensor of unknown rank may have been meant
  { produce: scalarTypes, safety: "unsafe" },
  // a node rewritten through the opset adapters: equivalent by design, but a rewrite
  { produce: removedOpFixes, safety: "unsafe" },
  { produce: convertModelActions, safety: "never" },
];

/** A quick fix with its safety for `check --fix`. */
export interface ClassifiedAction extends CodeAction {
  readonly safety: FixSafety;
}

/** The quick fixes for `range`: only the statements and names it touches are looked at. */
export function codeActions(a: Analysis, range: Span): CodeAction[] {
  return FIXES.flatMap((f) => f.produce(a, range));
}

/** The same fixes, each with its safety. */
export function classifiedCodeActions(a: Analysis, range: Span): ClassifiedAction[] {
  return FIXES.flatMap((f) => {
    const actions = f.produce(a, range);
    return actions.map((action) => ({ ...action, safety: f.safety === "did-you-mean" ? didYouMeanSafety(a.text, action, actions) : f.safety }));
  });
}

function didYouMeanSafety(text: string, action: CodeAction, siblings: readonly CodeAction[]): FixSafety {
  const rivals = siblings.filter((s) => s.fixes && action.fixes && s.fixes.start === action.fixes.start);
  const caseOnly = action.edits.every((e) => {
    const written = text.slice(e.span.start, e.span.end);
    return written !== e.newText && written.toLowerCase() === e.newText.toLowerCase();
  });
  return rivals.length === 1 && caseOnly ? "safe" : "unsafe";
}

/** A stale residual of an element (not the file-level line) can go: the visible text already wins. */
function staleResiduals(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    if (d.code !== "residual-stale" || !d.span || !overlaps(d.span, range) || a.text.startsWith("#@model", d.span.start)) continue;
    const lineStart = a.text.lastIndexOf("\n", d.span.start - 1) + 1;
    const eol = a.text.indexOf("\n", d.span.start);
    const end = eol < 0 ? a.text.length : eol + 1;
    out.push({ title: "Remove the stale residual comment", kind: "quickfix", edits: [{ span: { start: lineStart, end }, newText: "" }], fixes: d.span });
  }
  return out;
}

/** `float[] x` on a main graph input or output (no shape, which onnx refuses there): offer the scalar `float x`. */
function scalarTypes(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    if (d.code !== "missing-shape" || !d.span || !overlaps(d.span, range)) continue;
    const brackets = /\[\s*\]/.exec(a.text.slice(d.span.start, d.span.end));
    if (!brackets) continue;
    const start = d.span.start + brackets.index;
    out.push({
      title: "Make it a scalar (remove the empty brackets)",
      kind: "quickfix",
      edits: [{ span: { start, end: start + brackets[0].length }, newText: "" }],
      fixes: d.span,
    });
  }
  return out;
}

/** The default opset version offered for a domain. */
function suggestedVersion(domain: string): number {
  return latestOpsetVersion(domain) ?? 1;
}

function missingOpsets(a: Analysis, range: Span): CodeAction[] {
  const model = a.ast;
  if (!model) return [];
  const out: CodeAction[] = [];
  const offered = new Set<string>();
  walkOverlapping(
    model,
    range,
    (n) => {
      if (n.kind !== "Node" || !n.op?.opType) return;
      const fn = model.functions.find((f) => f.span.start <= n.span.start && n.span.end <= f.span.end);
      const header = fn && headerOpsets(fn.header).size > 0 ? fn.header : model.header;
      const domain = canonicalDomain(opKey(n).domain);
      // The symbol index last: on a document just opened, building it costs a walk of the whole text.
      if (headerOpsets(header).has(domain) || offered.has(domain) || a.symbols.calledFunction(n)) return;
      offered.add(domain);
      const edit = addOpsetEdit(model, header, domain, suggestedVersion(domain));
      out.push({ title: `Add opset_import for domain ${JSON.stringify(domain)}`, kind: "quickfix", edits: [edit], fixes: (n as OpNode).op!.span });
    },
    true,
  );
  return out;
}

function addOpsetEdit(model: Model, header: Header | undefined, domain: string, version: number): TextEdit {
  const entry = `${JSON.stringify(domain)} : ${version}`;
  const list = header?.entries.find((e) => e.key.text === "opset_import" && e.value?.kind === "OpsetList")?.value;
  if (list?.kind === "OpsetList") {
    const close = list.span.end - 1; // the `]`
    return { span: { start: close, end: close }, newText: list.items.length > 0 ? `, ${entry}` : entry };
  }
  if (header) {
    const at = header.span.start + 1; // after `<`
    return { span: { start: at, end: at }, newText: `opset_import: [${entry}]${header.entries.length > 0 ? ", " : ""}` };
  }
  const at = model.graph?.span.start ?? 0;
  return { span: { start: at, end: at }, newText: `<ir_version: 10, opset_import: [${entry}]>\n` };
}

/** An op that arrived after the imported opset: offer the first opset that has it. */
function raiseOpsets(a: Analysis, range: Span): CodeAction[] {
  const model = a.ast;
  if (!model) return [];
  const out: CodeAction[] = [];
  walkOverlapping(
    model,
    range,
    (n) => {
      if (n.kind !== "Node" || !n.op?.opType) return;
      const found = schemaOfNode(model, n);
      if (found.schema || found.version === undefined || a.symbols.calledFunction(n)) return;
      const later = getSchemaVersions(found.domain, opKey(n).name).find((s) => s.sinceVersion > found.version! && !s.deprecated);
      if (!later) return;
      const fn = model.functions.find((f) => f.span.start <= n.span.start && n.span.end <= f.span.end);
      const header = fn && headerOpsets(fn.header).size > 0 ? fn.header : model.header;
      const entry = opsetEntry(header, found.domain);
      if (!entry?.version) return;
      out.push({
        title: `Raise opset_import of ${JSON.stringify(found.domain)} to ${later.sinceVersion} (${later.name} arrived then)`,
        kind: "quickfix",
        edits: [{ span: entry.version.span, newText: String(later.sinceVersion) }],
        fixes: n.op.span,
      });
    },
    true,
  );
  return out;
}

function opsetEntry(header: Header | undefined, domain: string): OpsetEntry | undefined {
  for (const e of header?.entries ?? []) {
    if (e.key.text !== "opset_import" || e.value?.kind !== "OpsetList") continue;
    const found = e.value.items.find((item) => canonicalDomain(item.domain?.value ?? "") === domain);
    if (found) return found;
  }
  return undefined;
}

const NAME_CHARS = /[A-Za-z0-9_.\-/:]/;

/** A syntax error at a name like `layer-1` or `a.b`: offer to quote it. */
function quoteNames(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  const seen = new Set<number>();
  for (const d of a.diagnostics) {
    if (d.severity !== "error" || !d.span) continue;
    let start = d.span.start;
    let end = d.span.start;
    while (start > 0 && NAME_CHARS.test(a.text[start - 1]!)) start--;
    while (end < a.text.length && NAME_CHARS.test(a.text[end]!)) end++;
    const word = a.text.slice(start, end);
    if (!overlaps({ start, end }, range) || seen.has(start) || word === "" || isIdentifier(word) || !/[A-Za-z_]/.test(word[0]!)) continue;
    let before = start - 1;
    while (before >= 0 && /\s/.test(a.text[before]!)) before--;
    if (!"(,[".includes(a.text[before] ?? "") && !/^\s*[,)=]/.test(a.text.slice(end, end + 20))) continue;
    seen.add(start);
    out.push({ title: `Quote the name ${quote(word)}`, kind: "quickfix", edits: [{ span: { start, end }, newText: quote(word) }], fixes: d.span });
  }
  return out;
}

/** Where a value is defined: inputs and initializers before every node, a node output after its node. */
function definedAt(sym: SymbolInfo): number {
  const p = sym.producer;
  return !p ? Infinity : p.kind === "node" ? p.node.span.end : -1;
}

/** An undefined name: offer the close names defined before its first use (a later one would still be an error). */
function closeNames(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  // Only names can be undefined: a range without one (the cursor in the header, where an
  // editor puts it on opening a file) needs no symbol index, which takes a walk of the text.
  if (!touchesName(a, range)) return out;
  const touched = new Set(a.symbols.occurrencesIn(range).map((o) => o.symbol));
  for (const sym of touched) {
    if (sym.kind !== "value" || sym.producer || !sym.scope) continue;
    const uses = sym.occurrences.filter((o) => overlaps(o.span, range));
    if (uses.length === 0) continue;
    const firstUse = Math.min(...uses.map((u) => u.span.start));
    const close = new CloseNames(sym.name);
    a.symbols.forEachVisibleValue(sym.scope, (v) => {
      if (close.mayFit(v.name) && definedAt(v) <= firstUse) close.consider(v.name);
    });
    for (const name of close.closest()) {
      const text = isIdentifier(name) ? name : quote(name);
      out.push({
        title: `Change '${sym.name}' to '${name}'`,
        kind: "quickfix",
        edits: uses.map((u) => ({ span: u.span, newText: text })),
        fixes: uses[0]!.span,
      });
    }
  }
  return out;
}

function touchesName(a: Analysis, range: Span): boolean {
  let found = false;
  if (a.ast) walkOverlapping(a.ast, range, (n) => (found ||= n.kind === "Name"), true);
  return found;
}

/** An unknown op whose message suggests a known one: offer to write that one. */
function closeOps(a: Analysis, range: Span): CodeAction[] {
  const model = a.ast;
  if (!model) return [];
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    const hint = d.code === "unknown-op" && d.span && overlaps(d.span, range) ? DID_YOU_MEAN.exec(d.message)?.[1] : undefined;
    if (!hint) continue;
    walkOverlapping(
      model,
      d.span!,
      (n) => {
        const op = n.kind === "Node" ? n.op?.opType : undefined;
        if (!op || !overlaps(op.span, d.span!)) return;
        out.push({ title: `Change '${op.value}' to '${hint}'`, kind: "quickfix", edits: [{ span: op.span, newText: hint }], fixes: d.span! });
      },
      true,
    );
  }
  return out;
}

/** Graph outputs written without a type that `range` touches. */
function untypedOutputs(a: Analysis, range: Span): ValueDecl[] {
  const decls: ValueDecl[] = [];
  if (a.ast) {
    walkOverlapping(
      a.ast,
      range,
      (n) => {
        if (n.kind === "Graph") for (const d of n.outputs?.items ?? []) if (!d.type && d.name && overlaps(d.span, range)) decls.push(d);
      },
      true,
    );
  }
  return decls;
}

/**
 * Whether the fixes for `range` need the checks and types, given the diagnostics the client
 * asks about: the others (opsets, quoting, close names) come from the parse alone.
 */
export function codeActionsNeedSemantics(a: Analysis, range: Span, asked: readonly { readonly code?: string | number | undefined }[]): boolean {
  return asked.some((d) => SEMANTIC_FIXES.has(String(d.code))) || untypedOutputs(a, range).length > 0;
}

/** The codes whose fixes read the checker's or the residual's diagnostics. */
const SEMANTIC_FIXES = new Set(["unknown-op", "residual-stale", "op-not-in-opset", "missing-shape", "unused-value-info", "declared-type-mismatch"]);

function declareOutputTypes(a: Analysis, range: Span): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of untypedOutputs(a, range)) {
    const occ = a.symbols.occurrenceAt(d.name!.span.start);
    const type = occ && a.typeOf(occ.symbol);
    // a main graph output needs a shape (missing-shape): `T[]` there would trade one problem for another
    if (!type || (type.endsWith("[]") && a.ast?.graph?.outputs?.items.includes(d))) continue;
    out.push({
      title: `Declare the inferred type ${type} of output '${d.name!.value}'`,
      kind: "quickfix",
      edits: [{ span: { start: d.name!.span.start, end: d.name!.span.start }, newText: `${type} ` }],
    });
  }
  return out;
}
