// State shared by the lowering functions: the diagnostics being collected and the source map.
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import type { Span } from "../../../grammar/src/span.js";
import type { TensorProto } from "../../../proto/src/index.js";
import { SourceMap } from "../source-map.js";

export interface LowerOptions {
  /** Fill the SourceMap (default true); `convert` turns it off, as it only needs the bytes. */
  readonly sourceMap?: boolean;
  /**
   * Hold back the element-count error of tensors written without values (`{}`), for a caller
   * that applies the residual comments, which may supply the values the text cannot write.
   */
  readonly deferEmptyTensors?: boolean;
}

/** A tensor written without values where its shape needs some, and the error it gets unless filled. */
export interface EmptyTensor {
  readonly tensor: TensorProto;
  readonly error: Diagnostic;
}

export class LowerContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly sourceMap = new SourceMap();
  /** Whether spans are recorded; callers test it before building the spans object. */
  readonly mapping: boolean;
  /** Filled only with `deferEmptyTensors`; otherwise their errors go to `diagnostics`. */
  readonly emptyTensors: EmptyTensor[] = [];
  private readonly deferEmpty: boolean;

  constructor(options: LowerOptions = {}) {
    this.mapping = options.sourceMap ?? true;
    this.deferEmpty = options.deferEmptyTensors ?? false;
  }

  /** `code`: bad-literal, int-range, type-mismatch, bad-tensor, bad-attribute... */
  error(code: string, message: string, span: Span | undefined): void {
    this.diagnostics.push({ severity: "error", code, message, ...(span && { span }) });
  }

  /** A warning: the text means something other than it seems to (`float[-1]`, a dim named `None`). */
  warn(code: string, message: string, span: Span): void {
    this.diagnostics.push({ severity: "warning", code, message, span });
  }

  emptyTensor(tensor: TensorProto, message: string, span: Span): void {
    if (this.deferEmpty) this.emptyTensors.push({ tensor, error: { severity: "error", code: "element-count", message, span } });
    else this.error("element-count", message, span);
  }
}
