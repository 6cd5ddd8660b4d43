// Every code the checker and inference report, with its severity and what it means. The
// codes are stable: tools and tests match on them. (`check` adds `external-data` for missing,
// unsafe or short external data files: see cli/src/external-check.ts.)
import type { Severity } from "../diagnostics.js";

interface CodeInfo {
  readonly severity: Severity;
  readonly summary: string;
}

export const CHECK_CODES = {
  // Structure
  "undefined-value": { severity: "error", summary: "a node or graph output uses a name that nothing defines" },
  "use-before-definition": { severity: "error", summary: "a name is used before the node that defines it (nodes are not in topological order)" },
  redefinition: { severity: "error", summary: "a name is defined twice (the graph is not in SSA form)" },
  "output-not-produced": { severity: "error", summary: "a graph or function output is not defined" },
  "missing-graph": { severity: "error", summary: "the model has no main graph" },
  "missing-shape": { severity: "error", summary: "a main graph input or output has a tensor type but no shape, not even a rank (e.g. `float[]`)" },
  // Opsets
  "domain-not-imported": { severity: "error", summary: "a node's domain has no opset_import" },
  "duplicate-opset-import": { severity: "error", summary: "a domain is imported twice" },
  "unknown-op": { severity: "error", summary: "no operator of that name exists in the domain" },
  "op-not-in-opset": { severity: "error", summary: "the operator does not exist at the imported opset version (too new, or removed)" },
  // Schemas
  "wrong-arity": { severity: "error", summary: "a node has too few or too many inputs or outputs" },
  "missing-input": { severity: "error", summary: "a required input is left empty" },
  "missing-attribute": { severity: "error", summary: "a required attribute is absent" },
  "unknown-attribute": { severity: "error", summary: "the operator or function has no attribute of that name" },
  "attribute-type": { severity: "error", summary: "an attribute's value has the wrong type" },
  "duplicate-attribute": { severity: "error", summary: "a node sets one attribute twice" },
  "attribute-ref-outside-function": { severity: "error", summary: "an `@name` attribute reference appears outside a function body" },
  "unknown-attribute-ref": { severity: "error", summary: "an `@name` reference names no attribute of the enclosing function" },
  // Tensor constants
  "element-count": { severity: "error", summary: "a tensor constant holds more or fewer values than its shape needs" },
  "tensor-data-type": { severity: "error", summary: "a tensor constant's data_type is UNDEFINED or no known element type (onnx's checker refuses it)" },
  // Types and shapes (from inference)
  "type-mismatch": { severity: "error", summary: "inputs bound to one type parameter have different types (e.g. Add(float, int64))" },
  "type-not-allowed": { severity: "error", summary: "an input's type is not allowed by the operator's type constraint" },
  "broadcast-mismatch": { severity: "error", summary: "shapes cannot be broadcast together" },
  "shape-incompatible": { severity: "error", summary: "input shapes do not fit the operator (e.g. MatMul inner dimensions differ)" },
  "declared-type-mismatch": { severity: "error", summary: "the declared type of a value contradicts the inferred one" },
  // Warnings
  "unused-value": { severity: "warning", summary: "a node output is never used" },
  "unused-input": { severity: "warning", summary: "a graph input is never used" },
  "input-shadows-initializer": { severity: "warning", summary: "an initializer is also a graph input, so a caller can replace it" },
  "unused-initializer": { severity: "warning", summary: "an initializer is never used" },
  "unused-value-info": { severity: "warning", summary: "a value_info entry describes a value the graph does not have" },
  "float64-constant": { severity: "warning", summary: "a float64 initializer or Constant is only ever cast to a narrower float" },
  "identity-chain": { severity: "warning", summary: "an Identity node copies the output of another Identity" },
} as const satisfies Record<string, CodeInfo>;

export type CheckCode = keyof typeof CHECK_CODES;

// Rule groups, for selecting and ignoring by category in a configuration (core/src/config/).
// Every code is in exactly one group (a test checks it).
export const CODE_GROUPS = {
  structure: ["undefined-value", "use-before-definition", "redefinition", "output-not-produced", "missing-graph", "missing-shape"],
  opsets: ["domain-not-imported", "duplicate-opset-import", "unknown-op", "op-not-in-opset"],
  schemas: [
    "wrong-arity",
    "missing-input",
    "missing-attribute",
    "unknown-attribute",
    "attribute-type",
    "duplicate-attribute",
    "attribute-ref-outside-function",
    "unknown-attribute-ref",
  ],
  tensors: ["element-count", "tensor-data-type"],
  types: ["type-mismatch", "type-not-allowed", "broadcast-mismatch", "shape-incompatible", "declared-type-mismatch"],
  warnings: ["unused-value", "unused-input", "input-shadows-initializer", "unused-initializer", "unused-value-info", "float64-constant", "identity-chain"],
} as const satisfies Record<string, readonly CheckCode[]>;

export type CodeGroup = keyof typeof CODE_GROUPS;
