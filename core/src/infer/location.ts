// Where a diagnostic points: a text range through the source map when the model came from
// text, else a readable path through the model (`graph 'main' > node 'conv1' (Conv)`).
import type { Span } from "../../../grammar/src/span.js";
import type { NodeProto } from "../../../proto/src/index.js";
import type { Diagnostic, DiagnosticData, Severity } from "../diagnostics.js";
import type { ElementSpans, SourceMap } from "../source-map.js";

/** Which part of an element the diagnostic is about. */
export type Part = "whole" | "name" | "op" | "type" | "value" | { input: number } | { output: number };

export function spanOf(spans: ElementSpans | undefined, part: Part = "whole"): Span | undefined {
  if (!spans) return undefined;
  if (typeof part === "object") {
    const list = "input" in part ? spans.inputs : spans.outputs;
    return list?.["input" in part ? part.input : part.output] ?? spans.whole;
  }
  return spans[part] ?? spans.whole;
}

/** The op as the text writes it: `Conv`, `ai.onnx.ml.Normalizer`. */
export function opName(node: NodeProto): string {
  return node.domain ? `${node.domain}.${node.opType}` : node.opType;
}

export function describeNode(node: NodeProto, index: number): string {
  const op = opName(node);
  return node.name ? `node '${node.name}' (${op})` : `node #${index} (${op})`;
}

/**
 * Where something is in a binary model (`graph 'g' > node #3 (Relu) > attribute 'body'`), for
 * diagnostics without a text span. The lazy forms are spelled out only when a message needs them
 * (in a template or by String()): a model may have a million nodes and no problem at all.
 */
export type Where = string | NodeWhere | ChildWhere;

/** A node's place below its graph's. */
export class NodeWhere {
  constructor(
    readonly parent: Where,
    readonly node: NodeProto,
    readonly index: number,
  ) {}
  toString(): string {
    return `${this.parent} > ${describeNode(this.node, this.index)}`;
  }
}

/** A named part below a place: `attribute 'alpha'`, `value 'y'`. */
export class ChildWhere {
  constructor(
    readonly parent: Where,
    readonly kind: string,
    readonly name: string,
  ) {}
  toString(): string {
    return `${this.parent} > ${this.kind} '${this.name}'`;
  }
}

function escapeLineBreaks(s: string): string {
  return s.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n");
}

/** A second place a diagnostic points to, and what happens there. */
export interface Related {
  readonly message: string;
  readonly element: object;
  readonly part: Part;
}

/** Builds diagnostics located in one place of a model. */
export class Reporter {
  constructor(
    private readonly sourceMap: SourceMap | undefined,
    private readonly sink: Diagnostic[],
  ) {}

  report(
    severity: Severity,
    code: string,
    message: string,
    element: object | undefined,
    where: Where,
    part: Part = "whole",
    related?: Related,
    data?: DiagnosticData,
  ): void {
    const at = element ? spanOf(this.sourceMap?.get(element), part) : undefined;
    const also = related && spanOf(this.sourceMap?.get(related.element), related.part);
    // Messages quote names, and a quoted name may hold line breaks: keep each message one line.
    const text = escapeLineBreaks(message);
    // Without a place of its own in the text (a declaration from a residual comment), the
    // problem is shown at the related place rather than nowhere.
    const span = at ?? also;
    const extra = data && { data };
    if (!span) this.sink.push({ severity, code, message: text, where: escapeLineBreaks(String(where)), ...extra });
    else if (at && also)
      this.sink.push({ severity, code, message: text, span, related: [{ message: escapeLineBreaks(related.message), span: also }], ...extra });
    else this.sink.push({ severity, code, message: text, span, ...extra });
  }

  /** A reporter that drops everything (for function bodies expanded per call). */
  muted(): Reporter {
    return new Reporter(undefined, []);
  }
}
