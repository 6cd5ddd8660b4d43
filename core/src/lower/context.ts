// State shared by the lowering functions: the diagnostics being collected and the source map.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { Span } from "../../../grammar/src/span.js";
import { SourceMap } from "../source-map.js";

export interface LowerOptions {
  /** Fill the SourceMap (default true); `convert` turns it off, as it only needs the bytes. */
  readonly sourceMap?: boolean;
}

export class LowerContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly sourceMap = new SourceMap();
  /** Whether spans are recorded; callers test it before building the spans object. */
  readonly mapping: boolean;

  constructor(options: LowerOptions = {}) {
    this.mapping = options.sourceMap ?? true;
  }

  /** `code`: bad-literal, int-range, type-mismatch, bad-tensor, bad-attribute... */
  error(code: string, message: string, span: Span | undefined): void {
    this.diagnostics.push({ severity: "error", code, message, ...(span && { span }) });
  }
}
