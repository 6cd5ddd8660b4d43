// Places of elements in one side's text: the source map gives offsets, a line index turns them
// into 1-based lines and columns. Without a map (a binary model whose canonical text was not
// made) a place is its path only.
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { Span } from "../../../grammar/src/span.js";
import type { ElementSpans, SourceMap } from "../source-map.js";
import type { Place } from "./types.js";

export type SpanPick = (spans: ElementSpans) => Span | undefined;

export class Places {
  private lines: LineIndex | undefined;

  constructor(
    private readonly map: SourceMap | undefined,
    private readonly text: string | undefined,
  ) {}

  place(path: string, element?: object, pick?: SpanPick): Place {
    const spans = element && this.map?.get(element);
    const span = spans && ((pick && pick(spans)) ?? spans.whole);
    if (!span || this.text === undefined) return span ? { path, span } : { path };
    this.lines ??= new LineIndex(this.text);
    const start = this.lines.position(span.start);
    const end = this.lines.position(span.end);
    return { path, span, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
  }
}
