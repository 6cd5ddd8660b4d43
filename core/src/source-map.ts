// Links the protobuf messages that lowering builds back to the text they came from, so the
// checker and inference (which work on ModelProto) can report precise ranges. Keyed by
// object identity: a message decoded from binary simply has no entry.
import type { Span } from "../../grammar/src/span.js";

export interface ElementSpans {
  /** The whole construct (a node statement, a value-info, an attribute, a graph...). */
  readonly whole: Span;
  /** The name token: a value-info's name, an attribute's name, a graph/function name. */
  readonly name?: Span;
  /** A node's op name (`domain.Op`), or a type's span for a value-info. */
  readonly op?: Span;
  /** A node's input / output name tokens, by position (empty names have a zero-width span). */
  readonly inputs?: readonly Span[];
  readonly outputs?: readonly Span[];
  /** A value-info's or tensor's type. */
  readonly type?: Span;
  /** An attribute's value. */
  readonly value?: Span;
}

export class SourceMap {
  private readonly spans = new WeakMap<object, ElementSpans>();

  set(message: object, spans: ElementSpans): void {
    this.spans.set(message, spans);
  }

  get(message: object): ElementSpans | undefined {
    return this.spans.get(message);
  }
}
