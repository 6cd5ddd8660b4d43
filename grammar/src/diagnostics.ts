// The one diagnostic type every stage reports: lexer, parser, lowering, checker, inference.
import type { Span } from "./span.js";

export type Severity = "error" | "warning" | "info" | "hint";

export interface Diagnostic {
  readonly severity: Severity;
  /** A stable code, e.g. `syntax`, `undefined-value`; documented per stage. */
  readonly code: string;
  /** Plain words: what was expected and what was found. */
  readonly message: string;
  /** Where in the text; absent for binary input. */
  readonly span?: Span;
  /** For binary input: where in the model, e.g. `graph main > node 'conv1' (Conv)`. */
  readonly where?: string;
  /** Other places in the text that explain the problem (where a contradicted value is made). */
  readonly related?: readonly RelatedSpan[];
  /** What a quick fix needs that the message only describes (see DiagnosticData). */
  readonly data?: DiagnosticData;
}

/**
 * Facts about a problem for the quick fixes that repair it, as data rather than words in the
 * message. Empty here, since this layer knows no model types: core/src/infer/types.ts adds its
 * fields by declaration merging: `inferredType` (on `declared-type-mismatch`, the type inference
 * proves, as a ValueType).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by core/src/infer/types.ts
export interface DiagnosticData {}

export interface RelatedSpan {
  readonly message: string;
  readonly span: Span;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}
