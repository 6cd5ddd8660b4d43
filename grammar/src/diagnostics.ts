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
}

export interface RelatedSpan {
  readonly message: string;
  readonly span: Span;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}
