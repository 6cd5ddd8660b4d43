// Places of elements in one side's text: the source map gives offsets, a line index turns them
// into 1-based lines and columns. The map and text are asked for on the first place that needs
// them (a binary model's canonical text is printed only when there is a change to place).
// Without them a place is its path only.
import { LineIndex } from "../../../grammar/src/line-index.js";
import type { Span } from "../../../grammar/src/span.js";
import type { ElementSpans, SourceMap } from "../source-map.js";
import type { Place } from "./types.js";

export type SpanPick = (spans: ElementSpans) => Span | undefined;

export interface PlaceSource {
  readonly map: SourceMap;
  readonly text: string;
}

export class Places {
  private source: PlaceSource | undefined;
  private loaded = false;
  private lines: LineIndex | undefined;

  constructor(private readonly load: () => PlaceSource | undefined) {}

  /** `id`: the element's id in the graph view (`onnxtxt graph`'s display graph), when it is drawn there. */
  place(path: string, element?: object, pick?: SpanPick, id?: string): Place {
    const base: { path: string; id?: string } = id === undefined ? { path } : { path, id };
    if (!element) return base;
    if (!this.loaded) {
      this.loaded = true;
      this.source = this.load();
    }
    const spans = this.source?.map.get(element);
    const span = spans && ((pick && pick(spans)) ?? spans.whole);
    if (!span || !this.source) return base;
    this.lines ??= new LineIndex(this.source.text);
    const start = this.lines.position(span.start);
    const end = this.lines.position(span.end);
    return { ...base, span, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
  }
}
