// A replacement of a span of the document, the unit every editing feature returns.
import type { Span } from "../../../grammar/src/span.js";

export interface TextEdit {
  readonly span: Span;
  readonly newText: string;
}
