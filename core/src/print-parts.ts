// One graph, function or node as text on its own, as onnx's parse_graph / parse_function /
// parse_node read it. A model carries the `#@` extension comments for what the official syntax
// cannot say, but a part read on its own applies none; so a part that would need one is refused
// rather than printed with something missing. Formatting keeps the source's comments.
import type * as A from "../../grammar/src/ast.js";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { hasErrors } from "../../grammar/src/diagnostics.js";
import { parseFunction, parseGraph, parseNode, type ParseResult } from "../../grammar/src/index.js";
import type { FunctionProto, GraphProto, NodeProto, TypeProto } from "../../proto/src/index.js";
import { OnnxtxtError } from "./io/errors.js";
import { RaiseContext } from "./raise/context.js";
import { raiseGraph, raiseNode } from "./raise/raise-graph.js";
import { raiseFunction } from "./raise/raise-model.js";
import { raiseType } from "./raise/raise-type.js";
import { attachComments } from "./print/attach-comments.js";
import type { FormatResult } from "./print/format.js";
import { printPart, printTypeExpr } from "./print/printer.js";

/** What the text reader assumes when no model header says otherwise. */
const READER_DEFAULTS = {
  nodeDomainUnset: false,
  tensorNameUnset: false,
  rawStorage: false,
  attrRawStorage: false,
  uniqueFirstOutput: () => false,
} as const;

function printRaised<T>(proto: T, what: string, raise: (p: T, ctx: RaiseContext) => A.Graph | A.FunctionDef | A.OpNode, width?: number): string {
  const ctx = new RaiseContext(READER_DEFAULTS, { raiseBlocksNow: true });
  const ast = raise(proto, ctx);
  if (ctx.leading.size > 0) {
    const needs = [...ctx.leading.values()].flat().join("; ");
    throw new OnnxtxtError(`this ${what} holds what the text syntax of a ${what} alone cannot express (${needs}); print it inside a model instead`);
  }
  return printPart(ast, width === undefined ? {} : { width });
}

/** GraphProto -> text that `parse_graph` (and graphFromText) reads back as the same graph. */
export function printGraph(graph: GraphProto, opts: { width?: number } = {}): string {
  return printRaised(graph, "graph", (g, ctx) => raiseGraph(g, ctx, false), opts.width);
}

/** A TypeProto as a declaration writes it (`float[N, 3]`); undefined when the syntax cannot say it exactly (a denotation). */
export function printType(t: TypeProto): string | undefined {
  const e = raiseType(t);
  return e && printTypeExpr(e);
}

/** FunctionProto -> text that functionFromText reads back as the same function. */
export function printFunction(fn: FunctionProto, opts: { width?: number } = {}): string {
  return printRaised(fn, "function", raiseFunction, opts.width);
}

/** NodeProto -> text that `parse_node` (and nodeFromText) reads back as the same node. */
export function printNode(node: NodeProto, opts: { width?: number } = {}): string {
  return printRaised(node, "node", raiseNode, opts.width);
}

function formatParsed(parsed: ParseResult<A.Graph | A.FunctionDef | A.OpNode>, text: string, width: number | undefined): FormatResult {
  if (!parsed.ast || hasErrors(parsed.diagnostics)) return { ok: false, diagnostics: parsed.diagnostics.filter((d) => d.severity === "error") };
  const comments = attachComments(parsed.ast, parsed.comments, text);
  const out = printPart(parsed.ast, { comments, source: text, ...(width === undefined ? {} : { width }) });
  // Every comment must come out; one the layout could not place is an error, not a loss.
  const lost = parsed.comments.filter((c) => !out.includes(c.text));
  if (lost.length === 0) return { ok: true, text: out };
  const diagnostics: Diagnostic[] = lost.map((c) => ({ severity: "error", code: "format", message: "the formatter cannot place this comment", span: c.span }));
  return { ok: false, diagnostics };
}

/** Formats the text of one graph, function or node in the canonical layout, keeping its comments. */
export function formatGraphText(text: string, opts: { width?: number } = {}): FormatResult {
  return formatParsed(parseGraph(text), text, opts.width);
}

export function formatFunctionText(text: string, opts: { width?: number } = {}): FormatResult {
  return formatParsed(parseFunction(text), text, opts.width);
}

export function formatNodeText(text: string, opts: { width?: number } = {}): FormatResult {
  return formatParsed(parseNode(text), text, opts.width);
}
