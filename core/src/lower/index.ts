// Lowering: AST -> protobuf messages, producing what onnx 1.23.1's parser produces (syntax doc
// §2-§4), plus a SourceMap from each message back to its text. Never throws on a broken AST:
// holes lower to empty fields and problems become diagnostics.
import type * as A from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { GraphStatementSink, ParseResult } from "../../../grammar/src/index.js";
import type { FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, TypeProto, ValueInfoProto } from "../../../proto/src/index.js";
import type { SourceMap } from "../source-map.js";
import { LowerContext, type EmptyTensor, type LowerOptions } from "./context.js";

export type { LowerOptions } from "./context.js";
import { Lowerer } from "./structure.js";
import { lowerTensor } from "./tensors.js";
import { lowerType as lowerTypeIn } from "./types.js";
import { finish } from "../../../grammar/src/steps.js";

interface Lowered<T> {
  readonly sourceMap: SourceMap;
  readonly diagnostics: Diagnostic[];
  readonly result: T;
  /** Filled only with the `deferEmptyTensors` option (ext/lower-with-residual.ts). */
  readonly emptyTensors: readonly EmptyTensor[];
}

function run<T>(text: string | undefined, fn: (l: Lowerer) => T, options?: LowerOptions): Lowered<T> {
  const cx = new LowerContext(options);
  const result = fn(new Lowerer(cx, text));
  return { sourceMap: cx.sourceMap, diagnostics: cx.diagnostics, result, emptyTensors: cx.emptyTensors };
}

export interface LoweredModel {
  readonly model: ModelProto;
  readonly sourceMap: SourceMap;
  readonly diagnostics: Diagnostic[];
  readonly emptyTensors: readonly EmptyTensor[];
}

/** `text` (the source) lets huge integers and float midpoints in packed data be read exactly. */
export function lowerModel(ast: A.Model, text?: string, options?: LowerOptions): LoweredModel {
  return finish(lowerModelSteps(ast, text, options));
}

/** lowerModel in steps (Lowerer.modelSteps): a language server answers requests between them. */
export function* lowerModelSteps(ast: A.Model, text?: string, options?: LowerOptions): Generator<undefined, LoweredModel, void> {
  const cx = new LowerContext(options);
  const model = yield* new Lowerer(cx, text).modelSteps(ast);
  return { model, sourceMap: cx.sourceMap, diagnostics: cx.diagnostics, emptyTensors: cx.emptyTensors };
}

/**
 * A model lowered while it is parsed: `parse` hands each statement of the main graph to its
 * sink as it reads it and leaves it out of the tree (grammar's parseModelStreaming), and the
 * statement is lowered there, so a big graph's syntax tree dies young. No source map.
 */
export function lowerModelWhileParsing(
  text: string,
  parse: (sink: GraphStatementSink) => ParseResult<A.Model>,
): { parsed: ParseResult<A.Model>; model?: ModelProto; diagnostics: Diagnostic[] } {
  const cx = new LowerContext({ sourceMap: false });
  const lowerer = new Lowerer(cx, text);
  const nodes: NodeProto[] = [];
  const parsed = parse({
    node: (n) => nodes.push(lowerer.node(n)),
    plain: (output, opType, input) => nodes.push(lowerer.plainNode(output, opType, input)),
  });
  if (!parsed.ast) return { parsed, diagnostics: cx.diagnostics };
  const model = lowerer.model(parsed.ast);
  if (model.graph) model.graph.node = nodes;
  return { parsed, model, diagnostics: cx.diagnostics };
}

export function lowerGraph(ast: A.Graph, text?: string): Lowered<GraphProto> {
  return run(text, (l) => l.graph(ast));
}

export function lowerNode(ast: A.OpNode, text?: string): Lowered<NodeProto> {
  return run(text, (l) => l.node(ast));
}

/** A value declaration alone: its value info, and its initializer when it has a value. */
export function lowerValueDecl(ast: A.ValueDecl, text?: string): Lowered<{ valueInfo: ValueInfoProto; initializer?: TensorProto | undefined }> {
  return run(text, (l) => ({ valueInfo: l.valueInfo(ast), ...(ast.init && { initializer: l.initializer(ast) }) }), { sourceMap: false });
}

export function lowerFunction(ast: A.FunctionDef, text?: string): Lowered<FunctionProto> {
  return run(text, (l) => l.function(ast));
}

export function lowerType(ast: A.TypeExpr): Lowered<TypeProto> {
  return run(undefined, (l) => lowerTypeIn(ast, l.cx));
}

/** A tensor constant such as `float[2] {1, 2}`; undefined `result` when it has no tensor type. */
export function lowerTensorConstant(ast: A.TensorValue, text?: string): Lowered<TensorProto | undefined> {
  return run(text, (l) =>
    lowerTensor({ type: ast.type, ...(ast.name && { name: ast.name.value }), ...(ast.data && { data: ast.data }), span: ast.span }, l.cx, text),
  );
}
