// The documentation of every diagnostic code: what it finds, why it matters, a bad example and
// its fix. docs/rules/CODE.md is generated from this (scripts/gen-rule-docs.ts), `onnxtxt rules`
// prints it, and a test checks that each bad example reports its code and each fix does not.
import type { Severity } from "../diagnostics.js";
import { CHECK_CODES } from "./codes.js";
import { CloseNames } from "./suggest.js";

export interface RuleDoc {
  readonly code: string;
  readonly severity: Severity;
  readonly summary: string;
  /** Which stage reports it. */
  readonly stage: "syntax" | "lowering" | "check" | "inference" | "residual" | "cli";
  readonly finds: string;
  readonly why: string;
  /** A bad model and the fixed one; absent when the text cannot show the problem. */
  readonly example?: { readonly bad: string; readonly fixed: string };
  readonly fix: string;
}

type Prose = Omit<RuleDoc, "code" | "severity" | "summary"> & { readonly severity?: Severity; readonly summary?: string };

/** Where the pages live, relative to the repository root. */
export const RULE_DOCS_DIR = "docs/rules";

const H = '<ir_version: 10, opset_import: ["" : 21]>';
const m = (body: string, header = H): string => `${header}\n${body}\n`;

const PROSE: Readonly<Record<string, Prose>> = {
  syntax: {
    severity: "error",
    summary: "the text does not follow the ONNX text grammar",
    stage: "syntax",
    finds: "Text the parser cannot read: a missing bracket, a stray character, a keyword out of place.",
    why: "Nothing after the error can be read reliably, so no model is produced and no other check runs on that part.",
    example: { bad: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Correct the text at the reported position; the message names what the parser expected.",
  },
  "int-range": {
    severity: "error",
    summary: "a number does not fit the type it is written for",
    stage: "lowering",
    finds: "An integer outside its element type's range (300 in an int8 tensor, a dimension beyond int64) or a float beyond the float range.",
    why: "The value cannot be stored as written: wrapping or rounding it would silently change the model.",
    example: {
      bad: m("g (int64[1] x) => (int64[1] y) <\n  int64[1] w = {99999999999999999999}\n> {\n  y = Add (x, w)\n}"),
      fixed: m("g (int64[1] x) => (int64[1] y) <\n  int64[1] w = {9223372036854775807}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Write a value inside the range, or use a wider element type.",
  },
  "bad-tensor": {
    severity: "error",
    summary: "a value is given where none is allowed, or tensor data has no tensor type",
    stage: "lowering",
    finds: "An initializer without a type, tensor data on a type that is not a tensor, or a value on a graph output, function input, output or value info.",
    why: "ONNX has no place to store such a value: it would be dropped.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) <\n  w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Give the initializer a tensor type (`float[2] w = {1, 2}`), or move the value into an initializer.",
  },
  "bad-literal": {
    severity: "error",
    summary: "a tensor element is not a literal of the tensor's element type",
    stage: "lowering",
    finds: "A fraction in an integer tensor, a string in a numeric tensor, or a bare word in a string tensor.",
    why: "The element cannot be stored in the tensor's type without guessing what was meant.",
    example: {
      bad: m("g (int64[2] x) => (int64[2] y) <\n  int64[2] w = {1.5, 2}\n> {\n  y = Add (x, w)\n}"),
      fixed: m("g (int64[2] x) => (int64[2] y) <\n  int64[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Write the element as its type needs it, or change the element type (e.g. `float`).",
  },
  "negative-dimension": {
    severity: "warning",
    summary: "a dimension is a negative number",
    stage: "lowering",
    finds: "A negative number as a dimension of a type, such as `float[-1, 3]`.",
    why: 'A dimension is a size; onnx stores -1 as written, and tools read it as a size, not as "unknown".',
    example: { bad: m("g (float[-1, 3] x) => (float[-1, 3] y) {\n  y = Relu (x)\n}"), fixed: m("g (float[N, 3] x) => (float[N, 3] y) {\n  y = Relu (x)\n}") },
    fix: "Write `?` for a dimension that is not known, or a name (`N`) for one shared by several values.",
  },
  "dimension-named-none": {
    severity: "warning",
    summary: "a dimension is named `None`",
    stage: "lowering",
    finds: "`None` as a dimension, as in `float[None, 3]`.",
    why: "In the text `None` is a dimension name like any other, not Python's None: every `None` dimension is the same symbolic size.",
    example: {
      bad: m("g (float[None, 3] x) => (float[None, 3] y) {\n  y = Relu (x)\n}"),
      fixed: m("g (float[?, 3] x) => (float[?, 3] y) {\n  y = Relu (x)\n}"),
    },
    fix: "Write `?` for a dimension that is not known, or a meaningful name.",
  },
  "residual-stale": {
    severity: "warning",
    summary: "a `#@` residual comment no longer matches the text it belongs to",
    stage: "residual",
    finds: "A `#@` comment whose digest shows the element was edited after it was written, or whose data the visible text contradicts.",
    why: "The visible text is the source of truth: the residual's stale parts are ignored, and the warning says so rather than dropping them silently.",
    example: {
      bad: m(
        'g (float[3] x) => (float[3] y) <\n  #@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"}}\n  float[3] w = {nan, 2.0, 3.0}\n> {\n  y = Add (x, w)\n}',
      ),
      fixed: m("g (float[3] x) => (float[3] y) <\n  float[3] w = {nan, 2.0, 3.0}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Delete the residual (the editor's quick fix does), or print the model again to write a fresh one.",
  },
  extension: {
    severity: "error",
    summary: "a `#@` residual comment cannot be applied",
    stage: "residual",
    finds: "A `#@` comment with a misspelt kind, JSON that does not parse, or data that does not fit the element it is attached to.",
    why: "The residual carries what the official syntax cannot say; when it cannot be applied, that part of the model would be lost.",
    example: {
      bad: m('g (float[3] x) => (float[3] y) <\n  #@tensor {"data_type": "floot"}\n  float[3] w = {1, 2, 3}\n> {\n  y = Add (x, w)\n}'),
      fixed: m("g (float[3] x) => (float[3] y) <\n  float[3] w = {1, 2, 3}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Correct the residual as the message says (see docs/syntax.md for the kinds and keys), or delete it.",
  },
  format: {
    severity: "error",
    summary: "the formatter cannot place a comment, or leaves an embedded text as it is",
    stage: "cli",
    finds: "`format` reports a comment it has no place for, or (as info) an ONNX text inside another file that it leaves unformatted.",
    why: "The formatter never drops a comment: it refuses instead.",
    fix: "Move the comment to its own line before a statement, or format that text by hand.",
  },
  "embedded-skipped": {
    severity: "info",
    summary: "an ONNX text inside another file is not checked",
    stage: "cli",
    finds:
      "A `parse_model(...)` call, C++ raw string or Markdown fence that looks like ONNX text but is built at run time (an f-string, concatenation, a variable), so its text is not known (see docs/embedded.md).",
    why: "Only a literal can be checked; the info says so rather than skipping it silently.",
    fix: "Nothing to fix when the text is built on purpose; write it as one literal to have it checked.",
  },
  "unused-suppression": {
    severity: "warning",
    summary: "an `# onnxtxt: ignore[...]` comment silences nothing",
    stage: "cli",
    finds: "A suppression comment whose code is not reported on its line (or, for `file-ignore`, anywhere in the file); see docs/lint.md.",
    why: "A stale suppression would silently hide the problem if it came back somewhere else on that line; removing it keeps suppressions meaningful.",
    fix: "Delete the suppression, or the code from its list.",
  },
  "opset-below-minimum": {
    severity: "warning",
    summary: "the model imports an older default-domain opset than the configuration's `min-opset`",
    stage: "cli",
    finds:
      'A model text whose `opset_import` gives the default domain (`""` or `ai.onnx`) a version below `min-opset` in onnxtxt.toml (docs/lint.md); the warning points at that entry.',
    why: "A team that targets a runtime or an exporter of a given opset keeps older models from coming back in unnoticed; old opsets also lack newer operators and attribute forms.",
    fix: "Convert the model: `onnxtxt upgrade --opset N IN OUT` (docs/opset-conversion.md), or lower `min-opset`.",
  },
  "unknown-suppression-code": {
    severity: "warning",
    summary: "a suppression names a code that does not exist",
    stage: "cli",
    finds: "An `# onnxtxt: ignore[...]` or `file-ignore[...]` comment naming a code that no rule has (often a misspelling).",
    why: "It silences nothing, while it looks as if it did.",
    fix: "Correct the code (`onnxtxt rules` lists them), or delete the suppression.",
  },
  "external-data": {
    severity: "error",
    summary: "a tensor's external data file is missing, unsafe or too short",
    stage: "cli",
    finds: "An initializer stored outside the model whose file does not exist, lies outside the model's folder, or holds fewer bytes than the tensor needs.",
    why: "The model cannot be loaded or run without its data.",
    fix: "Put the data file beside the model, or convert the model with its data inline.",
  },
  file: {
    severity: "error",
    summary: "a file cannot be read or is not a model",
    stage: "cli",
    finds:
      "A path that does not exist, cannot be read, or holds something that is neither ONNX text nor a binary model (reported in `--format json` and `sarif`).",
    why: "Nothing in the file could be checked.",
    fix: "Check the path and the file's contents.",
  },
  internal: {
    severity: "error",
    summary: "onnxtxt itself failed on this input",
    stage: "syntax",
    finds: "An unexpected failure inside the parser, reported with the input's position rather than as a crash.",
    why: "It is a bug in onnxtxt, not in the model.",
    fix: "Report it with the input that caused it.",
  },
  "undefined-value": {
    stage: "check",
    finds: "A node input or a graph output whose name is not a graph input, an initializer or an earlier node's output.",
    why: "onnx's checker refuses the model and no runtime can load it. A misspelt name is the usual cause; the message suggests the closest defined name.",
    example: { bad: m("g (float[2] x) => (float[2] y) {\n  y = Relu (z)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Use a defined name, or add the node, input or initializer that defines it.",
  },
  "use-before-definition": {
    stage: "check",
    finds: "A node that reads a value produced by a later node.",
    why: "ONNX requires nodes in topological order; onnx's checker and runtimes refuse the graph.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = Relu (h)\n  h = Abs (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  h = Abs (x)\n  y = Relu (h)\n}"),
    },
    fix: "Move the defining node above its first use.",
  },
  redefinition: {
    stage: "check",
    finds: "A name defined twice: two nodes with the same output, or a node output that is also an input or initializer.",
    why: "ONNX graphs are in SSA form: every name has exactly one definition. onnx's checker refuses the model.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  h = Abs (x)\n  h = Relu (h)\n  y = Neg (h)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  h = Abs (x)\n  h2 = Relu (h)\n  y = Neg (h2)\n}"),
    },
    fix: "Give the second definition a new name and update its uses.",
  },
  "output-not-produced": {
    stage: "check",
    finds: "A graph or function output that no node, input or initializer defines.",
    why: "The model promises a value it never computes; onnx's checker refuses it.",
    example: {
      bad: m("g (float[2] x) => (float[2] y, float[2] z) {\n  y = Relu (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y, float[2] z) {\n  y = Relu (x)\n  z = Abs (x)\n}"),
    },
    fix: "Compute the output, or remove it from the output list.",
  },
  "missing-graph": {
    stage: "check",
    finds: "A binary model with no main graph (the text always has one: a model without a graph does not parse).",
    why: "A model without a graph has nothing to run; onnx's checker refuses it.",
    fix: "Add a main graph; a model that only carries functions is a library, which ONNX has no model form for.",
  },
  "missing-shape": {
    stage: "check",
    finds: "A main graph input or output with a tensor type but no shape, not even a rank: `float[] x`.",
    why: 'In the text, `float[]` means "no shape", and onnx\'s checker requires a shape on main graph inputs and outputs. A scalar is written without brackets: `float x`.',
    example: { bad: m("g (float[] x) => (float[2] y) {\n  y = Relu (x)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Write the rank, with `?` or names for unknown dimensions (`float[?, ?] x`), or `float x` for a scalar. The quick fix *Make it a scalar* (`check --fix --unsafe-fixes`) removes the empty brackets; it is unsafe because a tensor of unknown rank may have been meant.",
  },
  "domain-not-imported": {
    stage: "check",
    finds: "A node whose domain has no entry in the model's `opset_import`.",
    why: "Without an imported version the op cannot be resolved; onnx's checker refuses the model.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = com.example.Foo (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = com.example.Foo (x)\n}", '<ir_version: 10, opset_import: ["" : 21, "com.example" : 1]>'),
    },
    fix: "Add the domain with its version to `opset_import`.",
  },
  "duplicate-opset-import": {
    stage: "check",
    finds: "A domain imported twice in one `opset_import`.",
    why: "Which version applies is ambiguous; onnx's checker refuses the model.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}", '<ir_version: 10, opset_import: ["" : 21, "" : 18]>'),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}"),
    },
    fix: "Keep one entry per domain.",
  },
  "unknown-op": {
    stage: "check",
    finds: "An operator name that the domain does not have at any version.",
    why: "No runtime can execute it. The message suggests the closest operator name.",
    example: { bad: m("g (float[2] x) => (float[2] y) {\n  y = Relus (x)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Correct the name (the editor offers the suggestion as a quick fix), or define a local function of that name.",
  },
  "op-not-in-opset": {
    stage: "check",
    finds:
      "An operator that does not exist at the imported opset version: it is newer, or it was removed (deprecated) before that version, like Upsample from opset 10 and Scatter from 11.",
    why: "onnx's checker refuses the node, and there is no schema to run or infer it by.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = Gelu (x)\n}", '<ir_version: 10, opset_import: ["" : 18]>'),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = Gelu (x)\n}", '<ir_version: 10, opset_import: ["" : 20]>'),
    },
    fix: "Raise the imported opset for a newer op; replace a removed op by its successor (Upsample by Resize, Scatter by ScatterElements). The editor offers both as quick fixes.",
  },
  "wrong-arity": {
    stage: "check",
    finds: "A node with more or fewer inputs or outputs than its operator's schema allows.",
    why: "onnx's checker refuses the node; extra inputs are never read and missing ones break the op.",
    example: { bad: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x, x)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Pass the inputs and outputs the schema lists (see the hover or docs of the op).",
  },
  "missing-input": {
    stage: "check",
    finds: 'A required input of a node left empty (`""`).',
    why: "The operator cannot run without it; onnx's checker refuses the node.",
    example: { bad: m('g (float[2] x) => (float[2] y) {\n  y = Sub ("", x)\n}'), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Sub (x, x)\n}") },
    fix: "Pass a value for the input.",
  },
  "missing-attribute": {
    stage: "check",
    finds: "A node without an attribute its operator requires, such as Cast without `to`.",
    why: "The operator's behaviour is undefined without it; onnx's checker refuses the node.",
    example: { bad: m("g (float[2] x) => (int64[2] y) {\n  y = Cast (x)\n}"), fixed: m("g (float[2] x) => (int64[2] y) {\n  y = Cast <to = 7> (x)\n}") },
    fix: "Set the attribute.",
  },
  "unknown-attribute": {
    stage: "check",
    finds: "An attribute the operator (or local function) does not declare.",
    why: "onnx's checker refuses it, and a misspelt attribute would otherwise silently leave its default in place. The message suggests the closest attribute name.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alfa = 0.2> (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.2> (x)\n}"),
    },
    fix: "Correct the name, or remove the attribute.",
  },
  "attribute-type": {
    stage: "check",
    finds: "An attribute whose value has another type than the schema declares: a string for a float, a float for an int list.",
    why: "onnx's checker refuses the node; runtimes read the attribute by its declared type.",
    example: {
      bad: m('g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = "0.2"> (x)\n}'),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.2> (x)\n}"),
    },
    fix: "Write the value in the attribute's type.",
  },
  "duplicate-attribute": {
    stage: "check",
    finds: "A node that sets the same attribute twice.",
    why: "Which value applies is ambiguous; onnx's checker refuses the node.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.2, alpha = 0.3> (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.2> (x)\n}"),
    },
    fix: "Keep one.",
  },
  "attribute-ref-outside-function": {
    stage: "check",
    finds: "An attribute written as a reference (`alpha: float = @a`) in a graph, not in a function body.",
    why: "Only a function has attributes to refer to; in a graph the reference has nothing to resolve to.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha: float = @a> (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = LeakyRelu <alpha = 0.2> (x)\n}"),
    },
    fix: "Write the value itself, or move the node into a function that declares the attribute.",
  },
  "unknown-attribute-ref": {
    stage: "check",
    finds: "An attribute reference `@name` inside a function that declares no attribute `name`.",
    why: "The reference can never be bound; onnx's checker refuses the function.",
    example: {
      bad: m(
        'g (float[2] x) => (float[2] y) {\n  y = local.f (x)\n}\n\n<domain: "local", opset_import: ["" : 21]>\nf (x) => (y) {\n  y = LeakyRelu <alpha: float = @a> (x)\n}',
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>',
      ),
      fixed: m(
        'g (float[2] x) => (float[2] y) {\n  y = local.f (x)\n}\n\n<domain: "local", opset_import: ["" : 21]>\nf <a> (x) => (y) {\n  y = LeakyRelu <alpha: float = @a> (x)\n}',
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>',
      ),
    },
    fix: "Declare the attribute in the function's header (`f <a> (x) => (y)`), or correct the name.",
  },
  "element-count": {
    stage: "check",
    finds: "A tensor constant with more or fewer values than its shape needs.",
    why: "onnxruntime refuses to load the model and the interpreter cannot run it (onnx 1.12's checker does not count).",
    example: {
      bad: m("g (float[3] x) => (float[3] y) <\n  float[3] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
      fixed: m("g (float[3] x) => (float[3] y) <\n  float[3] w = {1, 2, 3}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Write as many values as the shape's product, or correct the shape.",
  },
  "tensor-data-type": {
    stage: "check",
    finds: "A tensor whose `data_type` is UNDEFINED (0) or an id that names no element type.",
    why: "onnx's checker refuses it and no runtime can read the data. Only a binary model can hold one; its printed text keeps the id in a `#@tensor` residual.",
    fix: "Correct the producer of the binary model; the text cannot express an unknown element type.",
  },
  "type-mismatch": {
    stage: "inference",
    finds: "Inputs bound to the same type parameter of an operator that have different types, such as `Add(float, int64)`.",
    why: "The operator is defined for one element type at a time; onnx's checker and runtimes refuse the node.",
    example: {
      bad: m("g (float[2] x, int64[2] n) => (float[2] y) {\n  y = Add (x, n)\n}"),
      fixed: m("g (float[2] x, int64[2] n) => (float[2] y) {\n  f = Cast <to = 1> (n)\n  y = Add (x, f)\n}"),
    },
    fix: "Cast one input to the other's type.",
  },
  "type-not-allowed": {
    stage: "inference",
    finds: "An input whose type the operator's type constraint does not allow, such as a float `shape` for Reshape.",
    why: "The operator has no implementation for that type; onnx's checker and runtimes refuse the node.",
    example: {
      bad: m("g (float[2, 3] x, float[1] s) => (float[6] y) {\n  y = Reshape (x, s)\n}"),
      fixed: m("g (float[2, 3] x, int64[1] s) => (float[6] y) {\n  y = Reshape (x, s)\n}"),
    },
    fix: "Pass a value of an allowed type (Cast it if needed); the message lists the allowed types.",
  },
  "broadcast-mismatch": {
    stage: "inference",
    finds: "Inputs of an elementwise operator whose shapes cannot be broadcast together, such as `[2]` and `[3]`.",
    why: "The node fails at run time for every input of the declared shapes.",
    example: {
      bad: m("g (float[2] x, float[3] b) => (float[2] y) {\n  y = Add (x, b)\n}"),
      fixed: m("g (float[2] x, float[2] b) => (float[2] y) {\n  y = Add (x, b)\n}"),
    },
    fix: "Correct the shapes, or reshape one input so that each dimension pair is equal or 1.",
  },
  "shape-incompatible": {
    stage: "inference",
    finds: "Input shapes that do not fit the operator, such as MatMul inputs whose inner dimensions differ.",
    why: "The node fails at run time for every input of the declared shapes.",
    example: {
      bad: m("g (float[2, 3] a, float[2, 3] b) => (float[2, 3] y) {\n  y = MatMul (a, b)\n}"),
      fixed: m("g (float[2, 3] a, float[3, 3] b) => (float[2, 3] y) {\n  y = MatMul (a, b)\n}"),
    },
    fix: "Correct the shapes (or transpose an input) so that the operator's rule holds.",
  },
  "declared-type-mismatch": {
    stage: "inference",
    finds: "A value whose declared type or shape (graph output, value info) contradicts what inference proves.",
    why: "onnx's shape inference fails on it, and the declaration misleads every reader and tool.",
    example: { bad: m("g (float[2] x) => (int64[2] y) {\n  y = Relu (x)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Declare the inferred type, or change the computation. The quick fix *Declare ... as the inferred TYPE* (`check --fix --unsafe-fixes`) writes the type inference proves in place of the declared one. It is unsafe because it changes the declared interface that callers and tools rely on, and because the mistake may be in the computation rather than in the declaration: only a person can tell which.",
  },
  "unused-value": {
    stage: "check",
    finds: "A node output that no node and no graph output reads.",
    why: "The work is wasted, and it often shows a wiring mistake: a value meant to be used was not.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  h = Abs (x)\n  y = Relu (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  h = Abs (x)\n  y = Relu (h)\n}"),
    },
    fix: "Use the value, or remove the node.",
  },
  "unused-input": {
    stage: "check",
    finds: "A graph input that no node and no graph output reads.",
    why: "Callers must still feed it; it often shows a wiring mistake.",
    example: { bad: m("g (float[2] x, float[2] b) => (float[2] y) {\n  y = Relu (x)\n}"), fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}") },
    fix: "Use the input, or remove it.",
  },
  "input-shadows-initializer": {
    stage: "check",
    finds: "An initializer that is also listed as a graph input.",
    why: "A caller can replace the weight at run time, and runtimes cannot fold it as a constant. Old exporters (IR < 4) wrote every weight this way.",
    example: {
      bad: m("g (float[2] x, float[2] w) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Remove the initializer from the graph inputs, unless callers really override it.",
  },
  "unused-initializer": {
    stage: "check",
    finds: "An initializer that no node and no graph output reads.",
    why: "Its data is stored, loaded and shipped for nothing; it often remains after a node was removed, or shows a wiring mistake.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Relu (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Use the initializer, or delete it.",
  },
  "unused-value-info": {
    stage: "check",
    finds:
      "A value_info entry (in a graph's or function's `<...>` list) for a name that no node reads or writes and that is no input, output or initializer of the graph; nodes of nested subgraphs count.",
    why: "It describes a value that does not exist: usually it stayed behind when its node was removed or renamed, and it misleads readers and tools that trust the declared types.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) <float[2] t> {\n  y = Relu (x)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = Relu (x)\n}"),
    },
    fix: "Delete the entry, or correct its name. The quick fix *Remove the unused value_info* (`check --fix`) deletes it with its comma and its `#@value` residual, keeping other comments; it is safe because no value's type or the computation changes.",
  },
  "float64-constant": {
    stage: "check",
    finds: "A float64 (double) initializer or Constant whose every use is a Cast to float, float16 or bfloat16.",
    why: "The model stores and ships twice the bytes only to drop the precision at run time, and the Cast costs a node; numpy's default float64 leaking into a float32 export is the usual cause.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) <\n  double[2] w = {1, 2}\n> {\n  wf = Cast <to = 1> (w)\n  y = Add (x, wf)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) <\n  float[2] w = {1, 2}\n> {\n  y = Add (x, w)\n}"),
    },
    fix: "Store the constant in the type it is cast to, and remove the Cast.",
  },
  "identity-chain": {
    stage: "check",
    finds: "An Identity node whose input is the output of another Identity node.",
    why: "The second copy adds a node and a name without adding anything; exporters leave such chains behind, and they hide where a value comes from.",
    example: {
      bad: m("g (float[2] x) => (float[2] y) {\n  a = Identity (x)\n  y = Identity (a)\n}"),
      fixed: m("g (float[2] x) => (float[2] y) {\n  y = Identity (x)\n}"),
    },
    fix: "Read the first Identity's input directly, and delete the Identity nodes left unused.",
  },
};

function ruleDoc(code: string, prose: Prose): RuleDoc {
  const info = (CHECK_CODES as Readonly<Record<string, { severity: Severity; summary: string }>>)[code];
  const severity = prose.severity ?? info?.severity;
  const summary = prose.summary ?? info?.summary;
  if (!severity || !summary) throw new Error(`rule ${code} has no severity or summary`);
  return { ...prose, code, severity, summary };
}

/** Every documented code, sorted by name. */
export const RULE_DOCS: readonly RuleDoc[] = Object.entries(PROSE)
  .map(([code, prose]) => ruleDoc(code, prose))
  .sort((a, b) => (a.code < b.code ? -1 : 1));

const BY_CODE = new Map(RULE_DOCS.map((r) => [r.code, r]));

export function ruleDocOf(code: string): RuleDoc | undefined {
  return BY_CODE.get(code);
}

/**
 * The repository the rule pages are published in: the one place diagnostics' links come from.
 * package.json has no `repository` field yet; a test requires the two to agree once it has.
 */
export const REPOSITORY_URL = "https://github.com/onnxtxt/onnxtxt";

/** The page of a documented code (undefined for any other). */
export function ruleUrl(code: string): string | undefined {
  return BY_CODE.has(code) ? `${REPOSITORY_URL}/blob/main/${RULE_DOCS_DIR}/${code}.md` : undefined;
}

/** Documented codes close to `code`, closest first, for a "did you mean". */
export function closeRuleCodes(code: string): string[] {
  const close = new CloseNames(code);
  for (const r of RULE_DOCS) close.consider(r.code);
  return close.closest();
}

/** The Markdown page of one rule. */
export function rulePageText(r: RuleDoc): string {
  const lines = [`# \`${r.code}\``, "", `<!-- Generated by \`npm run gen:rules\` from core/src/check/rule-docs.ts; a test fails when it is stale. -->`, ""];
  lines.push(`**${r.severity}** · reported by the ${r.stage} stage · ${r.summary}`, "");
  lines.push("## What it finds", "", r.finds, "", "## Why it matters", "", r.why, "");
  if (r.example) lines.push("## Example", "", "```onnx", r.example.bad.trimEnd(), "```", "");
  lines.push("## Fix", "", r.fix, "");
  if (r.example) lines.push("```onnx", r.example.fixed.trimEnd(), "```", "");
  return lines.join("\n");
}

/** The index page, docs/rules/README.md. */
export function ruleIndexText(): string {
  const lines = [
    "# Rules",
    "",
    "<!-- Generated by `npm run gen:rules` from core/src/check/rule-docs.ts; a test fails when it is stale. -->",
    "",
    "Every code `onnxtxt check` and the editor report. `onnxtxt rules` lists them; `onnxtxt rules CODE` prints a page.",
    "",
    "| Code | Severity | Stage | Summary |",
    "| --- | --- | --- | --- |",
  ];
  for (const r of RULE_DOCS) lines.push(`| [\`${r.code}\`](${r.code}.md) | ${r.severity} | ${r.stage} | ${r.summary.replace(/\|/g, "\\|")} |`);
  lines.push("");
  return lines.join("\n");
}
