/**
 * onnxtxt's public API: the ONNX text syntax (`.onnxtxt`) as a library. Text is read into
 * `ModelProto` the way onnx 1.23.1's parser reads it, models are written back as text losing
 * nothing, and the checker, shape inference, interpreter and editor features the CLI and the
 * language server use are here too. Nothing in this entry reads files or uses Node built-ins, so
 * it runs in a browser as well (test/package/browser-bundle.test.ts holds it to that).
 *
 * @example
 * ```ts
 * import { modelFromText, printModel, encodeModel, checkModel, run } from "onnxtxt";
 * const { model, diagnostics } = modelFromText("<ir_version: 10, opset_import: [\"\" : 21]>\ng (float[2] x) => (float[2] y) { y = Relu(x) }");
 * if (!model) throw new Error(diagnostics.map((d) => d.message).join("\n"));
 * const bytes = encodeModel(model); // the .onnx file's bytes
 * const text = printModel(model);   // back to text
 * const outputs = run(model);        // default inputs, as `onnxtxt run` gives them
 * ```
 * @packageDocumentation
 */
import type * as A from "../../grammar/src/ast.js";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { parseFunction, parseGraph, parseNode } from "../../grammar/src/index.js";
import type { FunctionProto, GraphProto, ModelProto, NodeProto } from "../../proto/src/index.js";
import type { Value } from "./interp/index.js";
import { runModel, type RunOptions } from "./run-model.js";
import { OnnxtxtError } from "./io/errors.js";
import { lowerFunction, lowerGraph, lowerNode } from "./lower/index.js";
import { makeOnnxTag, type OnnxTag } from "./template.js";
import { modelFromText } from "./text.js";

// ---- Diagnostics --------------------------------------------------------------------------
/**
 * A problem found in text or in a model: `severity`, `message`, an optional `code` and, for text,
 * the `span` (character offsets) it is about. {@link LineIndex} turns offsets into line:column.
 */
export type { Diagnostic, DiagnosticData, Severity } from "../../grammar/src/diagnostics.js";
export { hasErrors } from "../../grammar/src/diagnostics.js";
/** Diagnostics for a terminal: `FILE:LINE:COL: error: ...` lines, with the source line and a caret, colour and a cap on request. */
export { formatDiagnostics, type FormatDiagnosticsOptions } from "./diagnostic-format.js";
export { LineIndex, type Position } from "../../grammar/src/line-index.js";
export type { Span } from "../../grammar/src/span.js";

// ---- Text: parsing to the syntax tree -----------------------------------------------------
/** Parse text into a syntax tree (with comments and syntax diagnostics; they never throw). */
export { parseModel, parseGraph, parseFunction, parseNode, type ParseResult } from "../../grammar/src/index.js";
/** The syntax tree's node types. */
export type * as Ast from "../../grammar/src/ast.js";

// ---- Text <-> ModelProto <-> bytes ---------------------------------------------------------
/** The protobuf messages of onnx.proto (ModelProto, GraphProto, TensorProto, ...) and their schemas. */
export * as proto from "../../proto/src/index.js";
export type { FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, TypeProto, ValueInfoProto } from "../../proto/src/index.js";
/** Text -> ModelProto, as onnx 1.23.1's parser makes it (plus the lossless `#@` extensions). `model` is set only when there is no error. */
export { modelFromText };
export type { TextModel } from "./text.js";
/** ModelProto -> text that onnx's parser reads as the same model (extension comments carry what the official syntax cannot). */
export { printModel, printModelPlain, type PrintOptions } from "./print-model.js";
/** Protobuf text format (protobuf's text_format, `.pbtxt`/`.textproto`) -> ModelProto; throws TextprotoError with line:col. */
export { modelFromTextproto, readTextproto, TextprotoError } from "./textproto/index.js";
/** Formats model text in the canonical layout, keeping comments; text with syntax errors is refused. */
export { formatText, type FormatResult } from "./print/format.js";
/**
 * One graph, function or node: proto -> text (refused when it needs an extension comment, which
 * only a model carries), and formatting of its text.
 */
export { printGraph, printFunction, printNode, formatGraphText, formatFunctionText, formatNodeText } from "./print-parts.js";
/** A deep copy of a model (use it rather than `structuredClone`, which loses protobuf defaults). */
export { cloneModel } from "./clone.js";
/** Sub-models and joined models, as onnx.utils.extract_model and onnx.compose.merge_models make them. */
export { extractModel } from "./extract.js";
export { composeModels, type ComposeOptions } from "./compose.js";
/** TensorProto from and to typed arrays for every element type (onnx.helper.make_tensor, numpy_helper). */
export { makeTensor, tensorFromArray, tensorToArray, type ElementType, type FromArrayOptions, type TensorArray } from "./tensors.js";
/** ModelProto <-> the bytes of an .onnx file. */
export { decodeModel, encodeModel } from "./io/binary.js";
/** The error type of everything that refuses input (bad bytes, unsupported data). */
export { OnnxtxtError };

/** What {@link graphFromText}, {@link functionFromText} and {@link nodeFromText} give: the proto only when there is no error. */
export interface TextPart<T> {
  readonly result?: T;
  readonly diagnostics: Diagnostic[];
}

function lowered<N, T>(parsed: { ast?: N; diagnostics: Diagnostic[] }, lower: (ast: N) => { result: T; diagnostics: Diagnostic[] }): TextPart<T> {
  const errors = (ds: readonly Diagnostic[]) => ds.some((d) => d.severity === "error");
  if (!parsed.ast || errors(parsed.diagnostics)) return { diagnostics: parsed.diagnostics };
  const out = lower(parsed.ast);
  const diagnostics = [...parsed.diagnostics, ...out.diagnostics];
  return errors(diagnostics) ? { diagnostics } : { result: out.result, diagnostics };
}

/** Text of one graph (`name (inputs) => (outputs) { nodes }`) -> GraphProto, as onnx's `parse_graph` makes it. */
export function graphFromText(text: string): TextPart<GraphProto> {
  return lowered<A.Graph, GraphProto>(parseGraph(text), (ast) => lowerGraph(ast, text));
}

/** Text of one function (`<domain: "d", opset_import: [...]> f (x) => (y) { ... }`) -> FunctionProto. */
export function functionFromText(text: string): TextPart<FunctionProto> {
  return lowered<A.FunctionDef, FunctionProto>(parseFunction(text), (ast) => lowerFunction(ast, text));
}

/** Text of one node (`y = Relu(x)`) -> NodeProto. */
export function nodeFromText(text: string): TextPart<NodeProto> {
  return lowered<A.OpNode, NodeProto>(parseNode(text), (ast) => lowerNode(ast, text));
}

// ---- Check and infer -----------------------------------------------------------------------
/** Checks a model as onnx's checker does (structure, operator schemas, types); one diagnostic per problem. */
export { checkModel, CHECK_CODES, CODE_GROUPS, type CheckCode, type CodeGroup, type CheckOptions } from "./check/index.js";
/** Project configuration (`onnxtxt.toml`, `[tool.onnxtxt]`) and `# onnxtxt: ignore[code]` suppressions. */
export {
  readConfig,
  applyConfig,
  applySuppressions,
  configuredDiagnostics,
  enabledCodes,
  isExcluded,
  type OnnxtxtConfig,
  type PerFileIgnore,
  type RuleSeverity,
  type ConfigProblem,
  type ConfigResult,
} from "./config/index.js";
export { closeRuleCodes, REPOSITORY_URL, RULE_DOCS, RULE_DOCS_DIR, ruleDocOf, ruleIndexText, rulePageText, ruleUrl, type RuleDoc } from "./check/rule-docs.js";
/** Infers the types and shapes of every value; `withInferredTypes` writes them into a copy of the model. */
export { inferModel, withInferredTypes, type InferOptions, type InferResult } from "./infer/index.js";
export type { ValueType, TensorType, SequenceType, OptionalType, MapType, Shape, Dim } from "./infer/types.js";

// ---- Compare -------------------------------------------------------------------------------
/**
 * Two models compared by structure: renamed values and reordered nodes read as renames and
 * moves; each change has a kind, a path and its place in both inputs (docs/diff.md).
 */
export {
  diffModels,
  type Change,
  type ChangeKind,
  type DiffInput,
  type DiffOptions,
  type DiffResult,
  type DiffSide,
  type ExternalDataSource,
  type ModelDiff,
  type Place,
  type PlacesKind,
  type TensorDifference,
} from "./diff/index.js";

// ---- Run -----------------------------------------------------------------------------------
/** Values, tensors and their conversion from and to TensorProto and friends. */
export {
  valueFromProto,
  valueToProto,
  tensorFromProto,
  compareValues,
  summarize,
  describeRunError,
  InterpError,
  type Value,
  type Tolerance,
} from "./interp/index.js";

export type { RunOptions } from "./run-model.js";

/**
 * Runs `model` with onnxtxt's interpreter and returns the graph outputs by name, as `onnxtxt
 * run` does: given inputs are checked against their declarations with the CLI's messages, the
 * others get the CLI's defaults (seeded uniform values in [-1, 1) for floats, [0, 4) for
 * integers); the memory and time caps, `signal` and `onProgress` are in {@link RunOptions}.
 * Here the reference kernels run everything (browser-safe); `run` from `onnxtxt/node` adds the
 * fast kernels. Throws OnnxtxtError for a wrong input, {@link InterpError} when a kernel fails.
 */
export function run(
  model: ModelProto,
  inputs: ReadonlyMap<string, Value> | Readonly<Record<string, Value>> = {},
  options: RunOptions = {},
): Promise<Map<string, Value>> {
  return runModel(model, inputs, options);
}

// ---- Editor features (for other editors' integrations) -------------------------------------
/**
 * `analyze(text)` reads a document once; every feature below takes that analysis and character
 * offsets (see {@link LineIndex}). The language server in server/ is one user of these.
 */
export { analyze } from "./ide/analyze.js";
export type { Analysis } from "./ide/analysis.js";
export { hover } from "./ide/hover.js";
export { completion, type CompletionKind } from "./ide/completion.js";
export { signatureHelp } from "./ide/signature-help.js";
export { definition, references, documentHighlights } from "./ide/navigation.js";
export { documentOutline, type OutlineItem, type OutlineKind } from "./ide/outline.js";
export { foldingRanges } from "./ide/folding.js";
export { formatEdits } from "./ide/formatting.js";
export { inlayHints } from "./ide/inlay-hints.js";
export { prepareRename, rename } from "./ide/rename.js";
export { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES, type SemanticToken } from "./ide/semantic-tokens.js";
export { type ClassifiedAction, classifiedCodeActions, codeActions, type FixSafety } from "./ide/code-actions.js";
export { type AppliedFix, fixAll, type FixOptions, type FixResult } from "./ide/fix-all.js";
export { codeLenses } from "./ide/code-lens.js";

// ---- ONNX text embedded in other files -----------------------------------------------------
/**
 * ONNX texts inside Python and C/C++ string literals, Markdown fences and JavaScript templates:
 * `findRegions(text, language)` finds each with its kind and an offset map to the host file;
 * `checkEmbedded` and `formatEmbedded` work on all of a file's regions, reporting host offsets;
 * `fragmentModel` gives a region's text as a model that every editor feature above can read.
 */
export {
  checkEmbedded,
  checkRegion,
  findRegions,
  formatEmbedded,
  formatRegion,
  fragmentModel,
  hostLanguageOfId,
  hostLanguageOfPath,
  regionSpan,
  sniffKind,
  EMBEDDED_KINDS,
  OffsetMap,
  SKIPPED_CODE,
  type EmbeddedCheck,
  type EmbeddedContext,
  type EmbeddedFormat,
  type EmbeddedKind,
  type EmbeddedRegion,
  type FragmentModel,
  type HostLanguage,
  type HostLiteral,
  type HostScan,
  type KindSource,
  type RegionFormat,
  type SkippedRegion,
} from "./embedded/index.js";

// ---- Opset conversion ------------------------------------------------------------------------
/** Moves a model to another opset (up or down), node by node; what cannot move is reported as data. */
export {
  convertOpset,
  OpsetError,
  stepCoverage,
  type ConvertOpsetOptions,
  type OpsetConversion,
  type RefusedNode,
  type StepCoverage,
  type StepDirection,
} from "./opset/index.js";

// ---- ONNX text in JavaScript ---------------------------------------------------------------
/**
 * The `onnx` tagged template: ``onnx`<ir_version: 10, opset_import: ["" : 18]> g (float[N] x) => (y) { y = Relu (x) }` ``
 * is a ModelProto; `onnx.graph`, `onnx.node` and `onnx.function` read the parts. `${...}` takes
 * names (strings, quoted when needed), numbers, and tensors (TensorProto or typed arrays, written
 * as constants such as `float[2] {1, 2}`). Errors throw an {@link OnnxtxtError} whose message
 * names the line and column in the template.
 */
export const onnx: OnnxTag = makeOnnxTag({ model: (t) => modelFromText(t), graph: graphFromText, node: nodeFromText, function: functionFromText });
export type { OnnxTag, TemplateValue } from "./template.js";
